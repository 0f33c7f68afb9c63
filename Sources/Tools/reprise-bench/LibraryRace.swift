import Foundation
import Glibc
import SDBus
import TestSupport

/// Reprise's library beside MPD's on the same generated FLAC folder (section 11). Each is polled the same way, every
/// 5 ms in-process: Reprise over D-Bus (Library1's Tracks and Scanning), MPD over its socket (`stats`' songs and
/// `status`' updating_db), as `mpc` would. They never run at once. The first index is timed `runs` times, Reprise and
/// MPD in turn, each from nothing (its database removed) to every file searchable; the re-scans `runs` times each;
/// the 100 changed files are changed anew (new titles) before each of those re-scans, and checked found after.
struct LibraryRaceFigures {
    var firstIndex: [Double] = []
    var rescanUnchanged: [Double] = []
    var rescanChanged: [Double] = []
    /// Whether every re-scan after changes found all 100 new titles (its result checked, not just its end).
    var changedFound = true
    var searchNarrow: [Double] = []
    var searchBroad: [Double] = []
    var searchCommandLine: [Double] = []
    var rssIdle: Double?
    var rssPlaying: Double?
    var cpuPlaying: Double?
}

/// A library server being raced: how to start it from nothing, tell when it has every file, re-scan, search, play.
protocol RacedLibrary: AnyObject {
    var pid: pid_t { get }
    /// Where its MPD protocol server listens (Reprise's own, or MPD).
    var mpdSocket: String { get }
    /// Whether `count` files are searchable and no scan runs.
    func hasIndexed(_ count: Int) -> Bool
    /// Starts a re-scan and returns once it has begun (its end is when ``scanning`` turns false).
    func startRescan() -> Bool
    var scanning: Bool { get }
    func search(_ word: String) -> Double
    func searchFromTheCommandLine(_ word: String) throws -> Double
    func play(_ file: String) throws
    /// Titles matching `word` (up to 500).
    func titles(matching word: String) -> Int
    func stop()
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

    /// Rewrites `count` files of the folder (every `stride`th from `offset`) with titles "Changed R N".
    func changeFiles(in folder: String, count: Int, round: Int) throws {
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: workDirectory)
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var changed = 0, seen = 0
        while changed < count, let relative = enumerator?.nextObject() as? String {
            guard relative.hasSuffix(".flac") else { continue }
            seen += 1
            guard seen % 7 == round % 7 else { continue }
            try maker.file(tags: [("TITLE", "Changed\(round) \(changed)"), ("ARTIST", "Changer")])
                .write(to: URL(fileURLWithPath: folder + "/" + relative))
            changed += 1
        }
        sync()
    }

    func startReprise(binary: String, folder: String, measuringLoudness: Bool = false) throws -> RacedReprise {
        try? FileManager.default.removeItem(atPath: desktop.environment["HOME"]! + "/.local/share/reprise")
        return try RacedReprise(bench: self, binary: binary, folder: folder, measuringLoudness: measuringLoudness)
    }

    /// `list album group albumartist` over Reprise's MPD socket while it measures the library's loudness, as it does
    /// for hours after a real library's first index: a fresh index of `folder` with measuring on (the default), each
    /// sample kept only when `Measuring` held before and after it.
    func listAlbumsWhileMeasuring(binary: String, folder: String, count: Int, runs: Int) throws -> [Double] {
        let server = try startReprise(binary: binary, folder: folder, measuringLoudness: true)
        defer { server.stop() }
        guard eventually(600, pollEvery: 0.005, { server.hasIndexed(count) && server.measuring }),
              let client = MPDClient(socket: server.mpdSocket) else {
            say("MPD protocol: Reprise never measured loudness on \(folder)")
            return []
        }
        var times: [Double] = []
        for _ in 0..<runs {
            let start = monotonicSeconds()
            guard client.send("list album group albumartist") != nil else { break }
            let seconds = monotonicSeconds() - start
            guard server.measuring else { break }
            times.append(seconds)
            Thread.sleep(forTimeInterval: 0.2) // a measured batch or two between samples
        }
        return times
    }

    func startMPD(folder: String, count: Int) throws -> RacedMPD {
        try RacedMPD(bench: self, folder: folder, directory: workDirectory + "/mpd-\(count)")
    }

    /// Exec until `count` files are searchable (nil: not within 10 minutes).
    func timeFirstIndex(count: Int, start: () throws -> RacedLibrary) throws -> Double? {
        let started = monotonicSeconds()
        let server = try start()
        defer { server.stop() }
        return eventually(600, pollEvery: 0.005, { server.hasIndexed(count) }) ? monotonicSeconds() - started : nil
    }

    /// Everything but the first index, on one running server.
    func raceFigures(_ server: RacedLibrary, folder: String, count: Int, runs: Int, searches: Int) throws -> LibraryRaceFigures {
        var figures = LibraryRaceFigures()
        guard eventually(600, pollEvery: 0.005, { server.hasIndexed(count) }) else { return figures }
        func rescan() -> Double? {
            let start = monotonicSeconds()
            guard server.startRescan() else { return nil }
            return eventually(600, pollEvery: 0.005, { !server.scanning }) ? monotonicSeconds() - start : nil
        }
        figures.rescanUnchanged = (0..<runs).compactMap { _ in rescan() }
        Thread.sleep(forTimeInterval: 1)
        figures.rssIdle = Double(ProcFS.residentKilobytes(server.pid)) / 1024
        figures.searchNarrow = (0..<searches).map { server.search("\(1000 + $0 * 37 % (count - 1000))") }
        figures.searchBroad = (0..<searches).map { _ in server.search("garnet") }
        figures.searchCommandLine = try (0..<25).map { try server.searchFromTheCommandLine("\(1000 + $0 * 37 % (count - 1000))") }
        try server.play(try firstFile(in: folder))
        Thread.sleep(forTimeInterval: 1)
        let cpuBefore = processCPUSeconds(server.pid), clock = monotonicSeconds()
        Thread.sleep(forTimeInterval: 10)
        figures.cpuPlaying = (processCPUSeconds(server.pid) - cpuBefore) / (monotonicSeconds() - clock) * 100
        figures.rssPlaying = Double(ProcFS.residentKilobytes(server.pid)) / 1024
        for round in 0..<runs {
            try changeFiles(in: folder, count: 100, round: round)
            if let seconds = rescan() { figures.rescanChanged.append(seconds) }
            figures.changedFound = figures.changedFound && server.titles(matching: "Changed\(round)") == 100
        }
        return figures
    }

    func firstFile(in folder: String) throws -> String {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            if relative.hasSuffix(".flac") { return folder + "/" + relative }
        }
        throw HarnessError(message: "no FLAC file in \(folder)")
    }
}

/// Section 11's rows for each size: Reprise in its column, MPD in its own; the rows' targets are the issue's.
func libraryRaceRows(_ bench: Bench, binary: String, sizes: [Int], runs: Int, searches: Int, reprise: String) throws -> [Row] {
    let mpdInstalled = (try? runCommand("sh", ["-c", "command -v mpd && command -v mpc"]).status) == 0
    if !mpdInstalled { say("MPD: not installed (make bench-deps), its column stays empty") }
    try bench.cachePluginRegistry()
    var rows: [Row] = []
    for count in sizes {
        say("11/12 the library beside MPD: \(count) FLAC files (\(runs) first indexes each, in turn)")
        let folder = try bench.flacLibrary(count: count)
        let firstIndex = try firstIndexRows(bench, binary: binary, folder: folder, count: count, runs: runs, reprise: reprise,
                                            mpd: mpdInstalled)
        let ours: LibraryRaceFigures
        var oursServed: MPDProtocolFigures?
        do {
            let server = try bench.startReprise(binary: binary, folder: folder)
            defer { server.stop() }
            ours = try bench.raceFigures(server, folder: folder, count: count, runs: runs, searches: searches)
            oursServed = mpdInstalled ? try bench.mpdProtocolFigures(socket: server.mpdSocket, pid: server.pid, word: "garnet", runs: runs) : nil
        }
        if mpdInstalled {
            oursServed?.listAlbumsWhileMeasuring = try bench.listAlbumsWhileMeasuring(binary: binary, folder: folder, count: count, runs: runs * 4)
        }
        // MPD on the folder as it was (the changes made for Reprise undone): the same files, then the same changes.
        try? FileManager.default.removeItem(atPath: folder)
        var theirs: LibraryRaceFigures?, theirsServed: MPDProtocolFigures?
        if mpdInstalled {
            let sameFolder = try bench.flacLibrary(count: count)
            let server = try bench.startMPD(folder: sameFolder, count: count)
            defer { server.stop() }
            theirs = try bench.raceFigures(server, folder: sameFolder, count: count, runs: runs, searches: searches)
            var served = try bench.mpdProtocolFigures(socket: server.mpdSocket, pid: server.pid, word: "garnet", runs: runs)
            served.listAlbumsWhileMeasuring = served.listAlbums // MPD measures no loudness
            // Reprise beside it on the same folder, both playing their first file on a loop, for the mpc rows.
            let beside = try bench.startReprise(binary: binary, folder: sameFolder)
            defer { beside.stop() }
            if eventually(600, pollEvery: 0.005, { beside.hasIndexed(count) }), var ours = oursServed {
                try beside.play(try bench.firstFile(in: sameFolder))
                Thread.sleep(forTimeInterval: 1)
                try bench.pairedCommandLineFigures(ours: &ours, oursSocket: beside.mpdSocket, theirs: &served, theirsSocket: server.mpdSocket)
                oursServed = ours
            }
            theirsServed = served
        }
        try? FileManager.default.removeItem(atPath: folder)
        func row(_ figure: String, _ unit: String, target: String = "", _ value: (LibraryRaceFigures) -> Double?) -> Row {
            var row = Row(figure: "library \(count) FLAC: " + figure, unit: unit, target: target)
            row.values[reprise] = value(ours)
            row.values["MPD"] = theirs.flatMap(value)
            return row
        }
        func sampled(_ figure: String, unit: String = "ms", scale: Double = 1000, target: String = "",
                     _ samples: (LibraryRaceFigures) -> [Double]) -> Row {
            var row = Row(figure: "library \(count) FLAC: " + figure, unit: unit, target: target)
            for (name, figures) in [(reprise, Optional(ours)), ("MPD", theirs)] {
                guard let figures else { continue }
                let values = samples(figures).map { $0 * scale }
                (row.values[name], row.spreads[name]) = (Statistics.median(values), Statistics.spread(values))
            }
            return row
        }
        let allFound = ours.changedFound && theirs?.changedFound != false
        rows += firstIndex + [
            sampled("re-scan, nothing changed", target: "≤ MPD") { $0.rescanUnchanged },
            sampled("re-scan after 100 files changed" + (allFound ? "" : " (changes not all found)")) { $0.rescanChanged },
            sampled("search, one match, in-process") { $0.searchNarrow },
            sampled("search, ≤ 50 of ~1,000 matches, in-process") { $0.searchBroad },
            sampled("search from the command line (reprise search / mpc search any), one match") { $0.searchCommandLine },
            row("RSS idle with the library open", "MiB", target: "< MPD") { $0.rssIdle },
            row("RSS playing one of its files", "MiB", target: "< MPD") { $0.rssPlaying },
            row("CPU playing one of its files, repeated", "%") { $0.cpuPlaying },
        ] + mpdProtocolRows(count: count, reprise: reprise, ours: oursServed, theirs: theirsServed)
    }
    return rows
}

/// The first index of `folder`, Reprise and MPD in turn `runs` times each: on a quiet machine, then with all cores
/// but one busy (``CPULoad``), as users index while they work.
func firstIndexRows(_ bench: Bench, binary: String, folder: String, count: Int, runs: Int, reprise: String, mpd: Bool) throws -> [Row] {
    var rows: [Row] = []
    for busy in [false, true] {
        let load = busy ? try CPULoad(spinners: CPULoad.allButOne, logDirectory: bench.workDirectory) : nil
        defer { load?.stop() }
        var seconds: [String: [Double]] = [:]
        for _ in 0..<runs {
            if let taken = try bench.timeFirstIndex(count: count, start: { try bench.startReprise(binary: binary, folder: folder) }) {
                seconds[reprise, default: []].append(taken)
            }
            if mpd, let taken = try bench.timeFirstIndex(count: count, start: { try bench.startMPD(folder: folder, count: count) }) {
                seconds["MPD", default: []].append(taken)
            }
        }
        let figure = busy ? "first index, all cores but one busy (a loop at normal priority)" : "first index, exec → all searchable"
        var row = Row(figure: "library \(count) FLAC: " + figure, unit: "s", target: "≤ MPD")
        for (name, values) in seconds { (row.values[name], row.spreads[name]) = (Statistics.median(values), Statistics.spread(values)) }
        rows.append(row)
    }
    return rows
}

/// `--only first-index`: section 11's first-index rows alone, for each size.
func firstIndexOnlyRows(_ bench: Bench, binary: String, sizes: [Int], runs: Int, reprise: String) throws -> [Row] {
    let mpd = (try? runCommand("sh", ["-c", "command -v mpd"]).status) == 0
    try bench.cachePluginRegistry()
    var rows: [Row] = []
    for count in sizes {
        say("first index: \(count) FLAC files (\(runs) runs each, in turn; quiet, then all cores but one busy)")
        let folder = try bench.flacLibrary(count: count)
        rows += try firstIndexRows(bench, binary: binary, folder: folder, count: count, runs: runs, reprise: reprise, mpd: mpd)
    }
    return rows
}
