import Foundation
import Glibc
import SDBus
import TestSupport

/// Library figures: indexing `count` generated tagged files (WAV with RIFF INFO tags, made here byte by byte),
/// database size and memory, search latency, replies and CPU of playback while a scan runs, and how long a file
/// copied in takes to be searchable (inotify).
struct LibraryFigures {
    var indexSeconds: Double?
    var databaseMiB: Double
    var rssDuringMiB: Double
    var rssAfterMiB: Double
    var searchP50: Double?
    var searchP99: Double?
    /// MediaServer2 SearchObjects at the root, a substring of titles over every track.
    var searchObjectsP50: Double?
    var searchObjectsP99: Double?
    /// While another client's SearchObjects over every object runs, the longest wait of: an MPD `ping` on the MPD
    /// socket (Reprise's loop alone), and a D-Bus Peer.Ping (which also waits while dbus-daemon relays the long reply).
    var mpdPingDuringSearchWorst: Double?
    var busPingDuringSearchWorst: Double?
    var replyDuringScanP50: Double?
    var replyDuringScanP99: Double?
    var cpuDuringScan: Double
    var cpuIdle: Double
    var inotifySeconds: Double?
}

extension Bench {
    func libraryFigures(binary: String, playing file: String, count: Int) throws -> LibraryFigures {
        let home = desktop.environment["HOME"]!
        let music = workDirectory + "/library-\(count)"
        let words = ["amber", "basalt", "cobalt", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper",
                     "krypton", "lumen", "marble", "nebula", "onyx", "prism", "quartz", "russet", "sierra", "tundra"]
        if !FileManager.default.fileExists(atPath: music) {
            for index in 0..<count {
                let artist = "Artist \(words[index / 1000 % 20]) \(index / 1000)", album = "Album \(words[index / 50 % 20]) \(index / 50)"
                let folder = music + "/\(artist)/\(album)"
                if index % 50 == 0 { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                let title = "Song \(words[index % 20]) \(words[(index / 20) % 20]) \(index)"
                try taggedWAV(title: title, artist: artist, album: album, genre: words[index % 7], track: index % 50 + 1)
                    .write(to: URL(fileURLWithPath: folder + String(format: "/%02d.wav", index % 50 + 1)))
            }
        }
        try? FileManager.default.removeItem(atPath: home + "/.local/share/reprise")
        let name = "org.mpris.MediaPlayer2.reprise", path = "/app/reprise/Reprise", interface = "app.reprise.Library1"
        // The rows here are of indexing: measuring loudness after the pass is off (its own rows: LoudnessBench.swift).
        var contender = Contender.reprise(binary: binary, arguments: ["--library", music])
        contender.environment = try configuredEnvironment("measure-loudness = off", named: "no-loudness")
        var running = try startPlaying(contender, file)
        defer { stop(&running) }
        let pid = running.child.pid
        func tracks() -> UInt32 {
            if case .uint32(let value)? = try? bus.getProperty(destination: name, path: path, interface: interface, name: "Tracks") { return value }
            return 0
        }
        func scanning() -> Bool {
            (try? bus.getProperty(destination: name, path: path, interface: interface, name: "Scanning")) == .bool(true)
        }
        // While the first pass runs: replies to Get(PlaybackStatus), the process's CPU, its memory at most.
        let started = running.startedAt
        let cpuBefore = processCPUSeconds(pid), scanClock = monotonicSeconds()
        var replies: [Double] = [], rssDuring = 0.0
        var done = false
        while monotonicSeconds() - scanClock < 1800 {
            let t = monotonicSeconds()
            _ = try? bus.getProperty(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player",
                                     name: "PlaybackStatus")
            replies.append(monotonicSeconds() - t)
            rssDuring = max(rssDuring, Double(ProcFS.residentKilobytes(pid)) / 1024)
            if replies.count % 10 == 0, !scanning(), tracks() == UInt32(count) { done = true; break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let indexSeconds = done ? monotonicSeconds() - started : nil
        let cpuDuring = (processCPUSeconds(pid) - cpuBefore) / (monotonicSeconds() - scanClock) * 100
        Thread.sleep(forTimeInterval: 1)
        let idleBefore = processCPUSeconds(pid), idleClock = monotonicSeconds()
        Thread.sleep(forTimeInterval: 5)
        let cpuIdle = (processCPUSeconds(pid) - idleBefore) / (monotonicSeconds() - idleClock) * 100
        let rssAfter = Double(ProcFS.residentKilobytes(pid)) / 1024
        var databaseBytes = 0.0
        for suffix in ["", "-wal"] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: home + "/.local/share/reprise/library.db" + suffix)
            databaseBytes += Double((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
        }
        // Searches: two words each, over the whole library.
        var searches: [Double] = []
        var generator = SplitMix(seed: 7)
        for _ in 0..<500 {
            let query = words[Int(generator.next() % 20)] + " " + String(words[Int(generator.next() % 20)].prefix(3))
            let t = monotonicSeconds()
            _ = try? bus.call(destination: name, path: path, interface: interface, member: "Search", [.string(query), .uint32(50)])
            searches.append(monotonicSeconds() - t)
        }
        // MediaServer2 SearchObjects: a substring of titles, over every track (and every container).
        var objectSearches: [Double] = []
        for index in 0..<40 {
            let query = "Type derivedfrom \"audio\" and DisplayName contains \"\(words[index % 20]) \(words[(index * 7) % 20])\""
            let t = monotonicSeconds()
            _ = try? bus.call(destination: "org.gnome.UPnP.MediaServer2.Reprise", path: "/org/gnome/UPnP/MediaServer2/Reprise",
                              interface: "org.gnome.UPnP.MediaContainer2", member: "SearchObjects",
                              [.string(query), .uint32(0), .uint32(50), .strings(["DisplayName", "URLs"])])
            objectSearches.append(monotonicSeconds() - t)
        }
        // Another client (gdbus, its own connection) searches every object — every container and track — while this
        // one pings, in turn over the MPD socket (the loop alone) and over D-Bus: the longest each waits.
        var mpdPingDuringSearchWorst: Double?, busPingDuringSearchWorst: Double?
        let mpd = MPDClient(socket: desktop.environment["XDG_RUNTIME_DIR"]! + "/reprise/mpd.socket")
        for overMPD in [true, false] where !overMPD || mpd != nil {
            guard let search = try? Child.spawn("/usr/bin/gdbus", ["call", "--session", "--dest", "org.gnome.UPnP.MediaServer2.Reprise",
                                                                  "--object-path", "/org/gnome/UPnP/MediaServer2/Reprise",
                                                                  "--method", "org.gnome.UPnP.MediaContainer2.SearchObjects",
                                                                  #"upnp:class derivedfrom "object""#, "0", "0", "['Path']"],
                                                environment: desktop.environment, stdout: "/dev/null", stderr: "/dev/null") else { continue }
            var worst = 0.0
            while waitpid(search.pid, nil, WNOHANG) == 0 {
                let t = monotonicSeconds()
                if overMPD {
                    _ = mpd?.send("ping")
                } else {
                    _ = try? bus.call(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Peer", member: "Ping")
                }
                worst = max(worst, monotonicSeconds() - t)
            }
            if overMPD { mpdPingDuringSearchWorst = worst } else { busPingDuringSearchWorst = worst }
        }
        // A file copied in (written beside, renamed into place): until a search finds it.
        try taggedWAV(title: "Zephyrine Arrival", artist: "Newcomer", album: "Fresh", genre: "test", track: 1)
            .write(to: URL(fileURLWithPath: music + "/.incoming.wav"))
        let copied = monotonicSeconds()
        rename(music + "/.incoming.wav", music + "/zephyrine.wav")
        var inotifySeconds: Double?
        while monotonicSeconds() - copied < 10 {
            let reply = try? bus.call(destination: name, path: path, interface: interface, member: "Search", [.string("zephyrine"), .uint32(5)])
            if case .array(_, let found)? = reply?.last, !found.isEmpty { inotifySeconds = monotonicSeconds() - copied; break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        unlink(music + "/zephyrine.wav")
        func percentile(_ values: [Double], _ share: Double) -> Double? {
            guard !values.isEmpty else { return nil }
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))]
        }
        return LibraryFigures(indexSeconds: indexSeconds, databaseMiB: databaseBytes / 1_048_576, rssDuringMiB: rssDuring,
                              rssAfterMiB: rssAfter, searchP50: percentile(searches, 0.5), searchP99: percentile(searches, 0.99),
                              searchObjectsP50: percentile(objectSearches, 0.5), searchObjectsP99: percentile(objectSearches, 0.99),
                              mpdPingDuringSearchWorst: mpdPingDuringSearchWorst, busPingDuringSearchWorst: busPingDuringSearchWorst,
                              replyDuringScanP50: percentile(replies, 0.5), replyDuringScanP99: percentile(replies, 0.99),
                              cpuDuringScan: cpuDuring, cpuIdle: cpuIdle, inotifySeconds: inotifySeconds)
    }
}

/// The library rows for each size.
func libraryRows(_ bench: Bench, binary: String, playing file: String, sizes: [Int], contender: Contender) throws -> [Row] {
    var rows: [Row] = []
    for count in sizes {
        say("library: \(count) files")
        let figures = try bench.libraryFigures(binary: binary, playing: file, count: count)
        func row(_ figure: String, _ unit: String, _ value: Double?, target: String = "") -> Row {
            var row = Row(figure: "library \(count): " + figure, unit: unit, target: target)
            row.values[contender.name] = value
            return row
        }
        rows += [row("first index, exec → all searchable", "s", figures.indexSeconds),
                 row("database size", "MiB", figures.databaseMiB),
                 row("RSS during the first index (most)", "MiB", figures.rssDuringMiB),
                 row("RSS after", "MiB", figures.rssAfterMiB),
                 row("Search p50 (2 words)", "ms", figures.searchP50.map { $0 * 1000 }),
                 row("Search p99 (2 words)", "ms", figures.searchP99.map { $0 * 1000 }, target: "< 10 ms"),
                 row("MediaServer2 SearchObjects p50 (title contains)", "ms", figures.searchObjectsP50.map { $0 * 1000 }),
                 row("MediaServer2 SearchObjects p99 (title contains)", "ms", figures.searchObjectsP99.map { $0 * 1000 }),
                 row("MPD ping during another client's SearchObjects of every object, worst (the loop)", "ms",
                     figures.mpdPingDuringSearchWorst.map { $0 * 1000 }, target: "< 50 ms"),
                 row("D-Bus Ping meanwhile, worst (dbus-daemon relays the long reply too)", "ms",
                     figures.busPingDuringSearchWorst.map { $0 * 1000 }),
                 row("Get(PlaybackStatus) while indexing, p50", "ms", figures.replyDuringScanP50.map { $0 * 1000 }),
                 row("Get(PlaybackStatus) while indexing, p99", "ms", figures.replyDuringScanP99.map { $0 * 1000 }),
                 row("CPU while indexing and playing", "%", figures.cpuDuringScan),
                 row("CPU playing after indexing", "%", figures.cpuIdle),
                 row("file copied in → searchable (inotify)", "ms", figures.inotifySeconds.map { $0 * 1000 })]
    }
    return rows
}

/// CPU seconds `pid` has used, its threads that ended included (/proc/PID/stat's utime and stime).
func processCPUSeconds(_ pid: pid_t) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return 0 }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
