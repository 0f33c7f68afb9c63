import Foundation
import SDBus
import TestSupport

extension Bench {
    /// Figures at 100,000 queued entries (issue 16), all from M3U playlists of one short file.
    struct LargeQueue {
        /// exec → name owned with a 100,000-entry playlist as the argument.
        var startup: Double?
        /// RSS with the whole queue less RSS with one entry, per further entry (bytes), 1.5 s after start.
        var bytesPerEntry: Double?
        /// Seconds to read `Tracks` (20 reads), and to get the metadata of 1,000 of the entries (20 calls).
        var readTracks: [Double] = []
        var metadataOf1000: [Double] = []
        /// Seconds of each AddTrack inserting in the middle of the 100,000 (200 calls).
        var addTrackInMiddle: [Double] = []
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
        /// RSS (bytes) 1.5 s after start, while it plays.
        func resident(_ running: Running) -> Double {
            pump(for: 1.5)
            return Double(ProcFS.residentKilobytes(running.child.pid)) * 1024
        }
        var alone = try startPlaying(reprise, shortFile)
        let residentAlone = resident(alone)
        stop(&alone)
        var running = try startPlaying(reprise, playlist)
        defer { stop(&running) }
        result.startup = running.nameOwnedAt.map { $0 - running.startedAt }
        let residentFull = resident(running)
        let ids = try trackIDs()
        guard ids.count == count else { return result }
        result.bytesPerEntry = (residentFull - residentAlone) / Double(count - 1)
        result.readTracks = try (0..<20).map { _ in
            try secondsTaken { _ = try bus.getProperty(destination: name, path: path, interface: trackList, name: "Tracks") }
        }
        let thousand = DBusValue.array(elementSignature: "o", Array(ids[(count / 2)..<(count / 2 + 1000)]))
        result.metadataOf1000 = try (0..<20).map { _ in
            try secondsTaken { _ = try bus.call(destination: name, path: path, interface: trackList, member: "GetTracksMetadata", [thousand]) }
        }
        let uri = URL(fileURLWithPath: shortFile).absoluteString
        result.addTrackInMiddle = try (0..<200).map { k in
            try secondsTaken {
                _ = try bus.call(destination: name, path: path, interface: trackList, member: "AddTrack",
                                 [.string(uri), ids[count / 2 + k], .bool(false)])
            }
        }
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
