import Foundation
import Glibc
import SDBus
import TestSupport

/// Reprise's library beside MPD's on the same generated FLAC folder (section 11): first index from exec until every
/// file is searchable, a re-scan with nothing changed and one after 100 files changed, searches in-process and
/// from the command line, memory idle with the library open and while playing from it, and CPU while playing.
/// Each is polled the same way, every 5 ms in-process: Reprise over D-Bus (Library1's Tracks and Scanning), MPD over
/// its socket (`stats`' songs and `status`' updating_db), as `mpc` would. They run one after the other, never at once.
struct LibraryRaceFigures {
    var firstIndex: Double?
    var rescanUnchanged: Double?
    var rescanChanged: Double?
    /// Whether the 100 changed titles were all found afterwards (the re-scan's result checked, not just its end).
    var changedFound = false
    var searchNarrow: [Double] = []
    var searchBroad: [Double] = []
    var searchCommandLine: [Double] = []
    var rssIdle: Double?
    var rssPlaying: Double?
    var cpuPlaying: Double?
}

extension Bench {
    /// A folder of `count` tagged FLAC files (1 s each), made once per run.
    func flacLibrary(count: Int) throws -> String {
        let folder = workDirectory + "/flac-\(count)"
        if !FileManager.default.fileExists(atPath: folder) {
            try TaggedFLACMaker(seconds: 1, workDirectory: workDirectory).library(count: count, in: folder)
            _ = try runCommand("chmod", ["-R", "a+rX", folder])
            // On disk before anything is timed, as a library is: otherwise the first fsync of whoever indexes next
            // waits for the writeback of every file just made (ext4 commits them together).
            sync()
        }
        return folder
    }

    /// Rewrites `count` files of the folder with new titles ("Changed N"), one second later than before.
    func changeFiles(in folder: String, count: Int) throws {
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: workDirectory)
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var changed = 0
        while changed < count, let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".flac") else { continue }
            try maker.file(tags: [("TITLE", "Changed \(changed)"), ("ARTIST", "Changer")]).write(to: URL(fileURLWithPath: folder + "/" + relative))
            changed += 1
        }
        sync()
    }

    func repriseLibraryRace(binary: String, folder: String, count: Int, searches: Int) throws -> LibraryRaceFigures {
        var figures = LibraryRaceFigures()
        let home = desktop.environment["HOME"]!
        try? FileManager.default.removeItem(atPath: home + "/.local/share/reprise")
        let name = "org.mpris.MediaPlayer2.reprise", path = "/app/reprise/Reprise", library = "app.reprise.Library1"
        func tracks() -> UInt32 {
            if case .uint32(let value)? = try? bus.getProperty(destination: name, path: path, interface: library, name: "Tracks") { return value }
            return 0
        }
        func scanning() -> Bool { (try? bus.getProperty(destination: name, path: path, interface: library, name: "Scanning")) == .bool(true) }
        // GStreamer's plugin registry cached first, as on any desktop after its first GStreamer program: otherwise the
        // first start in this fresh home scans every plugin (~0.5 s), which is not indexing.
        _ = try runCommand("gst-inspect-1.0", ["playbin"], environment: desktop.environment)
        let started = monotonicSeconds()
        var child = try Child.spawn(binary, ["--library", folder], environment: desktop.environment,
                                    stdout: workDirectory + "/race-reprise.log", stderr: workDirectory + "/race-reprise.log")
        defer {
            kill(child.pid, SIGTERM)
            if !eventually(5, { !child.isRunning() }) { kill(child.pid, SIGKILL) }
        }
        if eventually(600, pollEvery: 0.005, { tracks() == UInt32(count) && !scanning() }) {
            figures.firstIndex = monotonicSeconds() - started
        }
        func rescan() -> Double? {
            let start = monotonicSeconds()
            guard (try? bus.call(destination: name, path: path, interface: library, member: "Rescan")) != nil else { return nil }
            return eventually(600, pollEvery: 0.005, { !scanning() }) ? monotonicSeconds() - start : nil
        }
        figures.rescanUnchanged = rescan()
        Thread.sleep(forTimeInterval: 1)
        figures.rssIdle = Double(ProcFS.residentKilobytes(child.pid)) / 1024
        func search(_ words: String) -> Double {
            let start = monotonicSeconds()
            _ = try? bus.call(destination: name, path: path, interface: library, member: "Search", [.string(words), .uint32(50)])
            return monotonicSeconds() - start
        }
        figures.searchNarrow = (0..<searches).map { search("\(1000 + $0 * 37 % (count - 1000))") }
        figures.searchBroad = (0..<searches).map { _ in search("garnet") }
        figures.searchCommandLine = try (0..<25).map { index in
            let start = monotonicSeconds()
            _ = try runCommand(binary, ["search", "\(1000 + index * 37 % (count - 1000))"], environment: desktop.environment)
            return monotonicSeconds() - start
        }
        // Playing one of its files: handed to the running service as a user would.
        let file = try firstFile(in: folder)
        _ = try runCommand(binary, [file], environment: desktop.environment)
        Thread.sleep(forTimeInterval: 1)
        let cpuBefore = processCPUSeconds(child.pid), clock = monotonicSeconds()
        Thread.sleep(forTimeInterval: 10)
        figures.cpuPlaying = (processCPUSeconds(child.pid) - cpuBefore) / (monotonicSeconds() - clock) * 100
        figures.rssPlaying = Double(ProcFS.residentKilobytes(child.pid)) / 1024
        try changeFiles(in: folder, count: 100)
        figures.rescanChanged = rescan()
        let found = try? bus.call(destination: name, path: path, interface: library, member: "Search", [.string("changed"), .uint32(500)])
        if case .array(_, let hits)? = found?.last { figures.changedFound = hits.count == 100 }
        return figures
    }

    func mpdLibraryRace(folder: String, count: Int, searches: Int) throws -> LibraryRaceFigures {
        var figures = LibraryRaceFigures()
        let directory = workDirectory + "/mpd-\(count)"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let socket = directory + "/socket"
        try """
            music_directory "\(folder)"
            db_file "\(directory)/database"
            log_file "\(directory)/log"
            bind_to_address "\(socket)"
            auto_update "no"
            audio_output {
                type "pulse"
                name "bench"
            }
            """.write(toFile: directory + "/mpd.conf", atomically: true, encoding: .utf8)
        let started = monotonicSeconds()
        var child = try Child.spawn("mpd", ["--no-daemon", directory + "/mpd.conf"], environment: desktop.environment,
                                    stdout: directory + "/stdout", stderr: directory + "/stdout")
        defer {
            kill(child.pid, SIGTERM)
            if !eventually(5, { !child.isRunning() }) { kill(child.pid, SIGKILL) }
        }
        var client: MPDClient?
        guard eventually(30, pollEvery: 0.002, { client = MPDClient(socket: socket); return client != nil }), let mpd = client else {
            throw HarnessError(message: "MPD did not start; see \(directory)")
        }
        func songs() -> Int { mpd.send("stats").flatMap { MPDClient.value("songs", in: $0) }.flatMap { Int($0) } ?? 0 }
        func updating() -> Bool { mpd.send("status").map { MPDClient.value("updating_db", in: $0) != nil } ?? true }
        // A new database is built at start (MPD does so when its database file does not exist).
        if eventually(600, pollEvery: 0.005, { songs() == count && !updating() }) {
            figures.firstIndex = monotonicSeconds() - started
        }
        func rescan() -> Double? {
            let start = monotonicSeconds()
            guard mpd.send("update") != nil else { return nil }
            return eventually(600, pollEvery: 0.005, { !updating() }) ? monotonicSeconds() - start : nil
        }
        figures.rescanUnchanged = rescan()
        Thread.sleep(forTimeInterval: 1)
        figures.rssIdle = Double(ProcFS.residentKilobytes(child.pid)) / 1024
        func search(_ command: String) -> Double {
            let start = monotonicSeconds()
            _ = mpd.send(command)
            return monotonicSeconds() - start
        }
        figures.searchNarrow = (0..<searches).map { search("search any \"\(1000 + $0 * 37 % (count - 1000))\" window 0:50") }
        figures.searchBroad = (0..<searches).map { _ in search("search any \"garnet\" window 0:50") }
        var environment = desktop.environment
        environment["MPD_HOST"] = socket
        figures.searchCommandLine = try (0..<25).map { index in
            let start = monotonicSeconds()
            _ = try runCommand("mpc", ["search", "any", "\(1000 + index * 37 % (count - 1000))"], environment: environment)
            return monotonicSeconds() - start
        }
        let file = try firstFile(in: folder)
        _ = mpd.send("add \"\(String(file.dropFirst(folder.count + 1)))\"")
        _ = mpd.send("play")
        Thread.sleep(forTimeInterval: 1)
        let cpuBefore = processCPUSeconds(child.pid), clock = monotonicSeconds()
        Thread.sleep(forTimeInterval: 10)
        figures.cpuPlaying = (processCPUSeconds(child.pid) - cpuBefore) / (monotonicSeconds() - clock) * 100
        figures.rssPlaying = Double(ProcFS.residentKilobytes(child.pid)) / 1024
        try changeFiles(in: folder, count: 100)
        figures.rescanChanged = rescan()
        let found = mpd.send("search title \"Changed\"")?.filter { $0.hasPrefix("file: ") }.count
        figures.changedFound = found == 100
        return figures
    }

    private func firstFile(in folder: String) throws -> String {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".flac") { return folder + "/" + relative }
        }
        throw HarnessError(message: "no FLAC file in \(folder)")
    }
}

/// Section 11's rows for each size: Reprise in its column, MPD in its own; the rows' targets are the issue's.
func libraryRaceRows(_ bench: Bench, binary: String, sizes: [Int], searches: Int, reprise: String) throws -> [Row] {
    let mpdInstalled = (try? runCommand("sh", ["-c", "command -v mpd && command -v mpc"]).status) == 0
    if !mpdInstalled { say("MPD: not installed (make bench-deps), its column stays empty") }
    var rows: [Row] = []
    for count in sizes {
        say("11/12 the library beside MPD: \(count) FLAC files")
        let folder = try bench.flacLibrary(count: count)
        let ours = try bench.repriseLibraryRace(binary: binary, folder: folder, count: count, searches: searches)
        // The changed files are put back for MPD: both see the same folder, then the same 100 changes.
        try? FileManager.default.removeItem(atPath: folder)
        let sameFolder = try bench.flacLibrary(count: count)
        let theirs = mpdInstalled ? try bench.mpdLibraryRace(folder: sameFolder, count: count, searches: searches) : nil
        try? FileManager.default.removeItem(atPath: folder)
        func row(_ figure: String, _ unit: String, target: String = "", _ value: (LibraryRaceFigures) -> Double?) -> Row {
            var row = Row(figure: "library \(count) FLAC: " + figure, unit: unit, target: target)
            row.values[reprise] = value(ours)
            row.values["MPD"] = theirs.flatMap(value)
            return row
        }
        func sampled(_ figure: String, target: String = "", _ samples: (LibraryRaceFigures) -> [Double]) -> Row {
            var row = Row(figure: "library \(count) FLAC: " + figure, unit: "ms", target: target)
            for (name, figures) in [(reprise, Optional(ours)), ("MPD", theirs)] {
                guard let figures else { continue }
                let ms = samples(figures).map { $0 * 1000 }
                (row.values[name], row.spreads[name]) = (Statistics.median(ms), Statistics.spread(ms))
            }
            return row
        }
        rows += [
            row("first index, exec → all searchable", "s", target: "≤ MPD") { $0.firstIndex },
            row("re-scan, nothing changed", "s", target: "≤ MPD") { $0.rescanUnchanged },
            row("re-scan after 100 files changed" + (ours.changedFound && theirs?.changedFound != false ? "" : " (changes not all found)"),
                "s") { $0.rescanChanged },
            sampled("search, one match, in-process") { $0.searchNarrow },
            sampled("search, ≤ 50 of ~1,000 matches, in-process") { $0.searchBroad },
            sampled("search from the command line (reprise search / mpc search any), one match") { $0.searchCommandLine },
            row("RSS idle with the library open", "MiB", target: "< MPD") { $0.rssIdle },
            row("RSS playing one of its files", "MiB", target: "< MPD") { $0.rssPlaying },
            row("CPU playing one of its files", "%") { $0.cpuPlaying },
        ]
    }
    return rows
}
