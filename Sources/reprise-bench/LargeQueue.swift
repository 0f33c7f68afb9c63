import Foundation
import SDBus
import TestSupport

extension Bench {
    /// Figures at 100,000 queued entries (issue 16), all from M3U playlists of one short file.
    struct LargeQueue {
        /// exec → name owned with a 100,000-entry playlist as the argument.
        var startup: Double?
        /// Median seconds of one AddTrack inserting in the middle of the 100,000.
        var addTrackInMiddle: Double?
        /// Adding a second 100,000-entry playlist with AddTrack to the running player: how long until it is queued,
        /// and the slowest and median Get(PlaybackStatus) round trip from another request meanwhile.
        var addPlaylist: Double?
        var slowestReplyDuringAdd: Double?
        var medianReplyDuringAdd: Double?
    }

    func largeQueue(binary: String, shortFile: String, count: Int) throws -> LargeQueue {
        var result = LargeQueue()
        let reprise = Contender.reprise(binary: binary)
        let name = reprise.busName!, path = "/org/mpris/MediaPlayer2", trackList = "org.mpris.MediaPlayer2.TrackList"
        let playlist = workDirectory + "/large-\(count).m3u"
        try String(repeating: shortFile + "\n", count: count).write(toFile: playlist, atomically: true, encoding: .utf8)
        func trackIDs() throws -> [DBusValue] { try queuedTrackIDs(of: name) }
        var running = try startPlaying(reprise, playlist)
        defer { stop(&running) }
        result.startup = running.nameOwnedAt.map { $0 - running.startedAt }
        let ids = try trackIDs()
        guard ids.count == count else { return result }
        let uri = URL(fileURLWithPath: shortFile).absoluteString
        result.addTrackInMiddle = Statistics.median(try (0..<200).map { k in
            try secondsTaken {
                _ = try bus.call(destination: name, path: path, interface: trackList, member: "AddTrack",
                                 [.string(uri), ids[count / 2 + k], .bool(false)])
            }
        })
        // The second playlist, sent without waiting; another request measures how long replies wait meanwhile.
        let second = workDirectory + "/large-second.m3u"
        try String(repeating: shortFile + "\n", count: count - 1000).write(toFile: second, atomically: true, encoding: .utf8)
        let start = monotonicSeconds()
        try bus.send(destination: name, path: path, interface: trackList, member: "AddTrack",
                     [.string(URL(fileURLWithPath: second).absoluteString), ids[count / 2], .bool(false)])
        var replies: [Double] = []
        var queued = false
        while monotonicSeconds() - start < 120 {
            replies.append(try secondsTaken {
                _ = try bus.getProperty(destination: name, path: path, interface: "org.mpris.MediaPlayer2.Player", name: "PlaybackStatus")
            })
            if replies.count % 20 == 0, try trackIDs().count >= 2 * count - 1000 + 200 {
                queued = true
                break
            }
            usleep(5_000)
        }
        if queued { result.addPlaylist = monotonicSeconds() - start }
        result.slowestReplyDuringAdd = replies.max()
        result.medianReplyDuringAdd = Statistics.median(replies)
        return result
    }
}
