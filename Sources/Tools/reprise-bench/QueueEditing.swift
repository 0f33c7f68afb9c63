import Foundation
import SDBus
import TestSupport

extension Bench {
    /// Figures for editing a long queue, all on one running service.
    struct QueueEditing {
        /// exec → name owned, with a playlist file of `count` entries as the argument.
        var playlistStartup: Double?
        /// Median seconds of one AddTrack (appending after the last entry) while the queue grows to `count`.
        var addTrack: Double?
        /// Median seconds of GoTo and RemoveTrack in the middle of a `count`-entry queue.
        var goToMiddle: Double?
        var removeMiddle: Double?
        /// Seconds until tags and lengths of all `count` entries have been read in the background; quiet, then with
        /// all cores but one busy (``CPULoad``).
        var readAllTags: Double?
        var readAllTagsBusy: Double?
    }

    /// `links` is a directory of `count` links to one short tagged file (made by ``queueScale``).
    func queueEditing(binary: String, shortFile: String, links: String, count: Int) throws -> QueueEditing {
        var result = QueueEditing()
        let reprise = Contender.reprise(binary: binary)
        let name = reprise.busName!, path = "/org/mpris/MediaPlayer2", trackList = "org.mpris.MediaPlayer2.TrackList"
        let names = try FileManager.default.contentsOfDirectory(atPath: links).sorted()
        let playlist = workDirectory + "/queue-\(count).m3u8"
        try names.map { links + "/" + $0 }.joined(separator: "\n").write(toFile: playlist, atomically: true, encoding: .utf8)

        func trackIDs() throws -> [DBusValue] { try queuedTrackIDs(of: name) }

        var running = try startPlaying(reprise, playlist)
        result.playlistStartup = running.nameOwnedAt.map { $0 - running.startedAt }
        let ids = try trackIDs()
        result.readAllTags = lastEntryRead(name: name, ids: ids, since: running.startedAt)
        let middle = ids.count / 2
        result.goToMiddle = Statistics.median(try (0..<20).map { k in
            try secondsTaken { _ = try bus.call(destination: name, path: path, interface: trackList, member: "GoTo", [ids[middle + k]]) }
        })
        result.removeMiddle = Statistics.median(try (0..<20).map { k in
            try secondsTaken {
                _ = try bus.call(destination: name, path: path, interface: trackList, member: "RemoveTrack", [ids[middle - 100 - k]])
            }
        })
        stop(&running)

        do {
            let load = try CPULoad(spinners: CPULoad.allButOne, logDirectory: workDirectory)
            defer { load.stop() }
            var busy = try startPlaying(reprise, playlist)
            defer { stop(&busy) }
            result.readAllTagsBusy = lastEntryRead(name: name, ids: try trackIDs(), since: busy.startedAt)
        }

        running = try startPlaying(reprise, shortFile)
        defer { stop(&running) }
        var after = try trackIDs().last ?? .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")
        let uri = URL(fileURLWithPath: shortFile).absoluteString
        var durations: [Double] = []
        durations.reserveCapacity(count)
        for _ in 1..<count {
            durations.append(try secondsTaken {
                _ = try bus.call(destination: name, path: path, interface: trackList, member: "AddTrack",
                                 [.string(uri), after, .bool(false)])
            })
            if durations.count % 500 == 0 { pump(for: 0.01) }
            if durations.count % 1000 == 0, let last = try trackIDs().last { after = last }
        }
        result.addTrack = Statistics.median(durations)
        return result
    }
}

extension Bench {
    /// Seconds from `start` until the last of `ids` has its tag title (the queue's links are named by numbers), or nil
    /// after 300 s. Asked every 10 ms: asking without pause is a second client keeping the service's loop and one of the
    /// machine's cores busy while it reads.
    func lastEntryRead(name: String, ids: [DBusValue], since start: Double) -> Double? {
        guard let last = ids.last else { return nil }
        func lastIsRead() -> Bool {
            let reply = try? bus.call(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.TrackList",
                                      member: "GetTracksMetadata", [.array(elementSignature: "o", [last])])
            guard case .array(_, let items)? = reply?.first, let title = items.first?.dictionary?["xesam:title"]?.stringValue
            else { return false }
            return !title.allSatisfy(\.isNumber)
        }
        let deadline = monotonicSeconds() + 300
        while monotonicSeconds() < deadline {
            if lastIsRead() { return monotonicSeconds() - start }
            pump(for: 0.01)
        }
        return nil
    }

    /// The `Tracks` property of player `name`.
    func queuedTrackIDs(of name: String) throws -> [DBusValue] {
        guard case .array(_, let items) = try bus.getProperty(destination: name, path: "/org/mpris/MediaPlayer2",
                                                              interface: "org.mpris.MediaPlayer2.TrackList", name: "Tracks")
        else { return [] }
        return items
    }

    /// Seconds `body` took.
    func secondsTaken(_ body: () throws -> Void) rethrows -> Double {
        let start = monotonicSeconds()
        try body()
        return monotonicSeconds() - start
    }
}
