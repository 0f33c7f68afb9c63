import Foundation
import RepriseCore
import TestSupport

/// The whole benchmark run; returns the exit status.
/// What `--help` prints, and a mistaken command line beside its error.
let benchUsage = """
    usage: reprise-bench [--binary PATH] [--quick] [--output FILE] [--only SECTION] [--library-sizes N,N…] [--baseline PATH]
      --binary PATH        the reprise to measure (default .build/release/reprise; reprised and swift-floor beside it)
      --quick              fewer samples and runs
      --output FILE        the table, in Markdown
      --only SECTION       one section: \(benchSections.joined(separator: ", "))
                           (first-index: section 11's first-index rows alone, quiet and busy)
      --library-sizes N,N  library sizes for the library and mpd sections
      --baseline PATH      an earlier build's reprise, for first-frame
    """
let benchSections = ["basics", "sound", "queue", "video", "sway", "controls", "first-frame", "key-press", "calls",
                     "large", "library", "mpd", "first-index", "cli"]

/// Nil when the command line is one the bench understands; else what is wrong with it.
func benchArgumentError(_ arguments: [String]) -> String? {
    let valued: Set = ["--binary", "--output", "--only", "--library-sizes", "--baseline"]
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if valued.contains(argument) {
            guard index + 1 < arguments.count else { return "\(argument) needs a value" }
            if argument == "--only", !benchSections.contains(arguments[index + 1]) {
                return "no section \"\(arguments[index + 1])\""
            }
            index += 2
        } else if argument == "--quick" {
            index += 1
        } else {
            return "unknown argument \"\(argument)\""
        }
    }
    return nil
}

func runBenchmark(_ arguments: [String]) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
        print(benchUsage)
        return 0
    }
    if let error = benchArgumentError(arguments) {
        FileHandle.standardError.write(Data("reprise-bench: \(error)\n\(benchUsage)\n".utf8))
        return 2
    }
    func option(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }
    let binary = URL(fileURLWithPath: option("--binary") ?? ".build/release/reprise").standardizedFileURL.path
    let quick = arguments.contains("--quick")
    // --only key-press: just the key-press figures (section 7), for a quick look after changing the key path.
    let keyPressOnly = option("--only") == "key-press"
    // --only calls: just the call figures on each sound server (section 8).
    let callsOnly = option("--only") == "calls"
    // --only large: just the 100,000-entry figures (section 9).
    let largeOnly = option("--only") == "large"
    // --only sound: just the ReplayGain figures (section 3's last rows).
    let soundOnly = option("--only") == "sound"
    // --only library: just the library figures (section 10); --library-sizes 2000,10000 picks the sizes.
    let libraryOnly = option("--only") == "library"
    // --only basics: control latency, cold start and footprint (sections 1–3), for a quick look after a memory step.
    let basicsOnly = option("--only") == "basics"
    // --only video: the video figures (section 6), with the peers installed; --only sway: those under a headless sway.
    let videoOnly = option("--only") == "video"
    let swayOnly = option("--only") == "sway"
    // --only controls: just the on-screen controls' rows under a 4K headless sway (section 6's last).
    let controlsOnly = option("--only") == "controls"
    // --only first-frame: exec → first frame on screen under a 1920×1080 headless sway, in both windows, trials taken
    // in turn with --baseline PATH (an earlier build's reprise) when given, so a change is measured against it.
    let firstFrameOnly = option("--only") == "first-frame"
    let baseline = option("--baseline").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    // --only mpd: the library beside MPD (section 11), at --library-sizes.
    let mpdOnly = option("--only") == "mpd"
    // --only queue: the queue scale and editing figures (section 4).
    let queueOnly = option("--only") == "queue"
    // --only cli: the command-line rows beside playerctl and mpc (section 12).
    let cliOnly = option("--only") == "cli"
    let librarySizes = (option("--library-sizes") ?? (quick ? "2000" : "10000,50000")).split(separator: ",").compactMap { Int($0) }
    let samples = quick ? 50 : 300
    let runs = quick ? 3 : 7


    guard FileManager.default.isExecutableFile(atPath: binary) else {
        say("reprise-bench: no reprise binary at \(binary) (run make build, or pass --binary)")
        return 2
    }

    let started = monotonicSeconds()
    let bench: Bench
    do { bench = try Bench() } catch {
        say("reprise-bench: \(error)")
        return 1
    }
    defer { bench.stop() }

    func tone(_ name: String, seconds: Int) throws -> String {
        let path = bench.workDirectory + "/" + name
        try generateTone(at: path, seconds: seconds, tags: "title=\\\"Bench Tone\\\",artist=\\\"Reprise\\\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        chmod(path, 0o644)
        return path
    }

    let reprise = Contender.reprise(binary: binary)
    let floor = Contender.gstreamerFloor
    var contenders = [reprise]
    var others: [Contender] = []
    for candidate in [Contender.mpv, .vlc(user: "reprisebench")] {
        if candidate.isAvailable { others.append(candidate) } else { say("\(candidate.name): not installed (make bench-deps), skipped") }
    }
    contenders += others

    var rows: [Row] = []
    do {
        let long = try tone("long.ogg", seconds: 120)
        let short = try tone("short.ogg", seconds: 1)

        if largeOnly {
            rows += try largeQueueRows(bench, binary: binary, short, count: quick ? 20_000 : 100_000, contender: reprise)
            throw EndOfRun()
        }
        let interval = quick ? 3.0 : 10.0
        if queueOnly {
            rows += try queueRows(bench, binary: binary, short: short, quick: quick, reprise: reprise.name)
            throw EndOfRun()
        }
        if option("--only") == "first-index" {
            rows += try firstIndexOnlyRows(bench, binary: binary, sizes: librarySizes, runs: quick ? 3 : 5, reprise: reprise.name)
            throw EndOfRun()
        }
        if mpdOnly {
            rows += try libraryRaceRows(bench, binary: binary, sizes: librarySizes, runs: quick ? 3 : 5, searches: quick ? 50 : 200, reprise: reprise.name)
            throw EndOfRun()
        }
        if cliOnly {
            rows += try commandLineRows(bench, binary: binary, long, runs: 25, reprise: reprise.name)
            throw EndOfRun()
        }
        if libraryOnly {
            rows += try libraryRows(bench, binary: binary, playing: long, sizes: librarySizes, contender: reprise)
            rows += try loudnessRows(bench, binary: binary, playing: long, count: quick ? 50 : 200, contender: reprise)
            throw EndOfRun()
        }
        if soundOnly {
            rows += try soundRows(bench, binary: binary, seconds: interval, contender: reprise)
            throw EndOfRun()
        }
        if callsOnly {
            rows += try callRows(binary: binary, long, runs: runs, contender: reprise)
            throw EndOfRun()
        }
        if controlsOnly {
            say("6/12 video controls under a headless sway")
            rows += try bench.controlsUnderSway(binary: binary, runs: quick ? 1 : 3, seconds: quick ? 3.0 : 10.0)
            throw EndOfRun()
        }
        if firstFrameOnly {
            say("6/12 video under a headless sway: exec → first frame\(baseline.map { ", against \($0)" } ?? "")")
            rows += try bench.firstFrameUnderSway(binary: binary, baseline: baseline, runs: quick ? 5 : 15)
            throw EndOfRun()
        }
        if videoOnly || swayOnly {
            if videoOnly {
                say("6/12 video on a private X server (\(runs) runs)")
                rows += try bench.videoFigures(binary: binary, peers: others, runs: runs, footprintRuns: quick ? 1 : 3,
                                               seconds: quick ? 3.0 : 10.0)
            }
            say("6/12 video under a headless sway")
            rows += try bench.videoUnderSwayFigures(binary: binary, withMPV: others.contains { $0.name == Contender.mpv.name },
                                                    footprintRuns: quick ? 1 : 3, seconds: quick ? 3.0 : 10.0)
            throw EndOfRun()
        }
        if keyPressOnly {
            rows += try keyPressRows(bench, long, presses: quick ? 8 : 20, contenders: contenders)
            throw EndOfRun()
        }
        say("1/12 control latency (\(samples) calls each)")
        var latency: [String: [String: Double]] = [:]
        for contender in contenders { latency[contender.name] = try bench.controlLatency(contender, long, samples: samples) }
        let ping = latency[reprise.name]?["ping"]
        for (key, label, target) in [("ping", "Peer.Ping round trip (bus floor)", ""),
                                     ("get", "Get(PlaybackStatus) round trip", "≤ 1.5× ping"),
                                     ("getAll", "GetAll(Player) round trip", "≤ 1.5× ping"),
                                     ("playPause", "PlayPause → PropertiesChanged(PlaybackStatus)", "< 2000 µs"),
                                     ("playPauseIndependent", "… the same, measured by an independent client (python-dbus)", "")] {
            var row = Row(figure: label, unit: "µs", floorKey: key == "ping" ? nil : "ping", target: target)
            for contender in contenders {
                row.values[contender.name] = latency[contender.name]?[key]
                if let low = latency[contender.name]?[key + ".low"], let high = latency[contender.name]?[key + ".high"] {
                    row.spreads[contender.name] = (low, high)
                }
            }
            row.values["floor"] = key == "ping" ? nil : ping
            rows.append(row)
        }
        // Where the round trips go (the profile behind GetAll's ratio): CPU per call in the player and in the bus.
        for (key, label) in [("ping", "Peer.Ping"), ("get", "Get(PlaybackStatus)"), ("getAll", "GetAll(Player)")] {
            for (part, whose) in [("player", "the player"), ("bus", "dbus-daemon"), ("client", "the client")] {
                var row = Row(figure: "\(label): CPU per call in \(whose)", unit: "µs")
                for contender in contenders { row.values[contender.name] = latency[contender.name]?[key + "." + part] }
                rows.append(row)
            }
        }

        say("2/12 cold start (\(runs) runs each)")
        var nameRow = Row(figure: "cold start: exec → bus name owned", unit: "ms")
        var audioRow = Row(figure: "cold start: exec → first sink input", unit: "ms", floorKey: "floor", target: "≤ 1.5× floor")
        /// The median of `seconds` in ms, with its spread, into `row` under `key`.
        func put(_ seconds: [Double], _ row: inout Row, _ key: String) {
            let ms = seconds.map { $0 * 1000 }
            row.values[key] = Statistics.median(ms)
            row.spreads[key] = Statistics.spread(ms)
        }
        let floorStart = try bench.coldStartRuns(floor, long, runs: runs)
        put(floorStart.audio, &audioRow, "floor")
        for contender in contenders {
            let result = try bench.coldStartRuns(contender, long, runs: runs)
            put(result.names, &nameRow, contender.name)
            put(result.audio, &audioRow, contender.name)
        }
        rows += [nameRow, audioRow]

        say("3/12 footprint while playing (\(interval) s each, 3 runs)")
        var rssRow = Row(figure: "RSS while playing", unit: "MiB", floorKey: "floor", target: "≤ 1.15× floor")
        var cpuRow = Row(figure: "CPU while playing (\(Int(interval)) s)", unit: "%", floorKey: "floor", target: "≤ floor")
        // Of the RSS, the executable's own resident code: it grows when scripts/hot-functions.order is stale.
        var textRow = Row(figure: "… of it the executable's resident code (scripts/hot-functions.sh keeps it small)", unit: "MiB",
                          note: "grows when the hot list is stale")
        // Three runs each, the median with its spread (run to run, RSS moves by a few hundred KiB).
        for contender in [floor] + contenders {
            let key = contender.name == floor.name ? "floor" : contender.name
            let results = try (0..<3).map { _ in try bench.footprint(contender, long, seconds: interval) }
            rssRow.values[key] = Statistics.median(results.map(\.rss))
            rssRow.spreads[key] = Statistics.spread(results.map(\.rss))
            cpuRow.values[key] = Statistics.median(results.map(\.cpu))
            cpuRow.spreads[key] = Statistics.spread(results.map(\.cpu))
            if contender.name == reprise.name {
                textRow.values[key] = Statistics.median(results.map(\.executableText))
                textRow.spreads[key] = Statistics.spread(results.map(\.executableText))
            }
        }
        rows += [rssRow, textRow, cpuRow]
        // What any Swift process costs: the language's runtime alone, and with an sd-bus connection owning a name
        // (swift-floor, built like Reprise beside it), against an idle C process (sleep); 3 runs each, after 3 s.
        let swiftFloor = URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent("swift-floor").path
        if FileManager.default.isExecutableFile(atPath: swiftFloor) {
            for (command, label) in [(["sleep", "60"], "an idle C process (coreutils sleep)"),
                                     ([swiftFloor], "an idle static Swift process (its runtime only)"),
                                     ([swiftFloor, "--bus", "org.example.SwiftFloor"], "a static Swift process owning a bus name (sd-bus)")] {
                var row = Row(figure: "RSS of \(label)", unit: "MiB", note: "reference processes")
                let samples = try (0..<3).map { _ in try bench.idleResident(command, seconds: 3) }
                (row.values[reprise.name], row.spreads[reprise.name]) = (Statistics.median(samples), Statistics.spread(samples))
                rows.append(row)
            }
        } else {
            say("swift-floor: not built beside \(binary) (make bench builds it), skipped")
        }
        if basicsOnly { throw EndOfRun() }
        rows += try soundRows(bench, binary: binary, seconds: interval, contender: reprise)

        rows += try queueRows(bench, binary: binary, short: short, quick: quick, reprise: reprise.name)

        say("5/12 resume after an interruption (\(runs) runs)")
        var resumeRow = Row(figure: "phone stream ends → music uncorked", unit: "ms")
        resumeRow.values[reprise.name] = try bench.resumeAfterInterruption(binary: binary, long, runs: runs).map { $0 * 1000 }
        rows.append(resumeRow)

        say("6/12 video on a private X server (\(runs) runs)")
        rows += try bench.videoFigures(binary: binary, peers: others, runs: runs, footprintRuns: quick ? 1 : 3, seconds: interval)
        say("6/12 video under a headless sway")
        rows += try bench.videoUnderSwayFigures(binary: binary, withMPV: others.contains { $0.name == Contender.mpv.name },
                                                footprintRuns: quick ? 1 : 3, seconds: interval)

        rows += try keyPressRows(bench, long, presses: quick ? 8 : 20, contenders: contenders)
        rows += try callRows(binary: binary, long, runs: runs, contender: reprise)
        rows += try largeQueueRows(bench, binary: binary, short, count: quick ? 20_000 : 100_000, contender: reprise)
        say("10/12 the music library (\(librarySizes.map(String.init).joined(separator: ", ")) files)")
        rows += try libraryRows(bench, binary: binary, playing: long, sizes: librarySizes, contender: reprise)
        rows += try loudnessRows(bench, binary: binary, playing: long, count: quick ? 50 : 200, contender: reprise)
        rows += try libraryRaceRows(bench, binary: binary, sizes: librarySizes, runs: quick ? 3 : 5, searches: quick ? 50 : 200, reprise: reprise.name)
        rows += try commandLineRows(bench, binary: binary, long, runs: 25, reprise: reprise.name)
    } catch is EndOfRun {
    } catch {
        say("reprise-bench: \(error)")
        return 1
    }

    // Columns some figures add (Reprise's Wayland window under sway) come after Reprise's own.
    let named = contenders.map(\.name) + ["MPD"]
    let added = Set(rows.flatMap(\.values.keys)).subtracting(named + ["floor"]).sorted()
    let table = Report.markdown(rows, contenders: [named[0]] + added + named.dropFirst())
    print(table)
    if let output = option("--output") { try? table.write(toFile: output, atomically: true, encoding: .utf8) }
    say(String(format: "benchmark took %.0f s", monotonicSeconds() - started))
    return 0
}

/// A progress or error line on stderr, through the terminal sanitiser: it may carry other programs' text (window
/// titles, errors with a player's log).
func say(_ line: String) { FileHandle.standardError.write(Data((TerminalText.sanitized(line) + "\n").utf8)) }

/// Ends a partial run (`--only`) early, with the rows taken so far.
private struct EndOfRun: Error {}

/// Section 4: a queue of 10,000 links to one file (start-up, memory, reading it) and editing it.
private func queueRows(_ bench: Bench, binary: String, short: String, quick: Bool, reprise: String) throws -> [Row] {
    var rows: [Row] = []
    let count = quick ? 2_000 : 10_000
    say("4/12 queue scale (\(count) entries)")
    try bench.cachePluginRegistry()
    let scale = try bench.queueScale(binary: binary, shortFile: short, count: count)
    var startupRow = Row(figure: "exec → name owned with \(count) queued", unit: "ms", floorKey: "floor",
                         note: "floor: the same with 1 queued")
    startupRow.values[reprise] = scale.startup.map { $0 * 1000 }
    startupRow.values["floor"] = scale.startupOne.map { $0 * 1000 }
    var perEntryRow = Row(figure: "memory per queued entry", unit: "bytes")
    perEntryRow.values[reprise] = scale.bytesPerEntry
    var tracksRow = Row(figure: "read Tracks (\(count) ids)", unit: "ms")
    tracksRow.values[reprise] = scale.readTracks.map { $0 * 1000 }
    var lookupRow = Row(figure: "GetTracksMetadata of 1,000 ids", unit: "ms")
    lookupRow.values[reprise] = scale.metadataOf1000.map { $0 * 1000 }
    rows += [startupRow, perEntryRow, tracksRow, lookupRow]
    let editing = try bench.queueEditing(binary: binary, shortFile: short, links: bench.workDirectory + "/queue-\(count)",
                                         count: count)
    func row(_ figure: String, _ unit: String, _ value: Double?, scale: Double = 1000) -> Row {
        var row = Row(figure: figure, unit: unit)
        row.values[reprise] = value.map { $0 * scale }
        return row
    }
    rows += [row("exec → name owned with a \(count)-entry playlist", "ms", editing.playlistStartup),
             row("AddTrack while growing to \(count) (median)", "ms", editing.addTrack),
             row("GoTo in the middle of \(count)", "ms", editing.goToMiddle),
             row("RemoveTrack in the middle of \(count)", "ms", editing.removeMiddle),
             row("tags and lengths of \(count) read in the background", "s", editing.readAllTags, scale: 1),
             row("tags and lengths of \(count) read in the background, all cores but one busy", "s", editing.readAllTagsBusy,
                 scale: 1)]
    return rows
}

/// Section 7: PlayPause → Reprise's sink input corked, normally and with every fsync 20 ms slower.
private func keyPressRows(_ bench: Bench, _ file: String, presses: Int, contenders: [Contender]) throws -> [Row] {
    say("7/12 key press → sink input corked (\(presses) presses 1.5 s apart; Reprise again with a slow disk)")
    var row = Row(figure: "PlayPause → the player's sink input corked", unit: "ms", target: "< 2 ms")
    var slow = Row(figure: "PlayPause → the player's sink input corked, every fsync 20 ms slower", unit: "ms", target: "< 2 ms")
    func put(_ seconds: [Double], _ row: inout Row, _ name: String) {
        let ms = seconds.map { $0 * 1000 }
        (row.values[name], row.spreads[name]) = (Statistics.median(ms), Statistics.spread(ms))
    }
    for contender in contenders {
        put(try bench.keyPressToCork(contender, file, presses: presses, slowFsync: false), &row, contender.name)
    }
    if let reprise = contenders.first {
        put(try bench.keyPressToCork(reprise, file, presses: presses, slowFsync: true), &slow, reprise.name)
    }
    return [row, slow]
}

/// Section 8: a call stream appearing → Reprise paused, and gone → playing again, on each sound server.
private func callRows(binary: String, _ file: String, runs: Int, contender: Contender) throws -> [Row] {
    say("8/12 calls on each sound server (\(runs) calls each)")
    var rows: [Row] = []
    for server in SoundServerKind.allCases {
        let bench = try Bench(soundServer: server)
        defer { bench.stop() }
        let (pause, resume) = try bench.callFigures(binary: binary, file, runs: runs)
        var pauseRow = Row(figure: "call stream appears → Reprise paused (\(server))", unit: "ms")
        pauseRow.values[contender.name] = pause.map { $0 * 1000 }
        var resumeRow = Row(figure: "call stream gone → Reprise playing (\(server))", unit: "ms")
        resumeRow.values[contender.name] = resume.map { $0 * 1000 }
        rows += [pauseRow, resumeRow]
    }
    return rows
}

/// Section 9: a queue of 100,000 entries (start-up, AddTrack in the middle, adding another 99,000 while replying).
private func largeQueueRows(_ bench: Bench, binary: String, _ short: String, count: Int, contender: Contender) throws -> [Row] {
    say("9/12 a queue of \(count) entries")
    let large = try bench.largeQueue(binary: binary, shortFile: short, count: count)
    func row(_ figure: String, _ unit: String, _ value: Double?, scale: Double = 1000) -> Row {
        var row = Row(figure: figure, unit: unit)
        row.values[contender.name] = value.map { $0 * scale }
        return row
    }
    /// The median of `samples` (seconds) in ms, with its spread.
    func row(_ figure: String, samples: [Double]) -> Row {
        var row = Row(figure: figure, unit: "ms")
        let ms = samples.map { $0 * 1000 }
        row.values[contender.name] = Statistics.median(ms)
        row.spreads[contender.name] = Statistics.spread(ms)
        return row
    }
    return [row("exec → name owned with a \(count)-entry playlist", "ms", large.startup),
            row("memory per queued entry at \(count)", "bytes", large.bytesPerEntry, scale: 1),
            row("read Tracks (\(count) ids)", samples: large.readTracks),
            row("GetTracksMetadata of 1,000 ids, in the middle of \(count)", samples: large.metadataOf1000),
            row("AddTrack in the middle of \(count) (200 calls)", samples: large.addTrackInMiddle),
            row("AddTrack of a \(count - 1000)-entry playlist into \(count): until queued", "ms", large.addPlaylist),
            row("… meanwhile Get(PlaybackStatus): slowest reply", "ms", large.slowestReplyDuringAdd),
            row("… meanwhile Get(PlaybackStatus): median reply", "ms", large.medianReplyDuringAdd)]
}

/// CPU while playing a ReplayGain-tagged tone with levelling on (track gain) against the same with it off.
func soundRows(_ bench: Bench, binary: String, seconds: Double, contender: Contender) throws -> [Row] {
    let path = bench.workDirectory + "/tagged.ogg"
    try generateTone(at: path, seconds: 120, tags: "title=(string)\\\"Bench Tone\\\",replaygain-track-gain=(double)-6.0,"
                     + "replaygain-track-peak=(double)0.2", encoder: ["vorbisenc", "!", "oggmux"])
    chmod(path, 0o644)
    let row = try cpuRow(bench, "CPU while playing, ReplayGain on (\(Int(seconds)) s)", note: "floor: Reprise with --replaygain off, same file",
                         playing: path, seconds: seconds, contender: contender,
                         floor: .reprise(binary: binary, arguments: ["--replaygain", "off"]),
                         measured: .reprise(binary: binary, arguments: ["--replaygain", "track"]))
    return [row, try crossfadeRow(bench, binary: binary, seconds: seconds, contender: contender),
            try equalizerRow(bench, binary: binary, path: path, seconds: seconds, contender: contender)]
}

/// CPU while playing with the equalizer on (the loudness preset: every band filtering) against the same file with it
/// off (its element then passes the sound through).
func equalizerRow(_ bench: Bench, binary: String, path: String, seconds: Double, contender: Contender) throws -> Row {
    try cpuRow(bench, "CPU while playing, equalizer on (\(Int(seconds)) s)", note: "floor: the same with the equalizer off",
               playing: path, seconds: seconds, contender: contender, floor: .reprise(binary: binary),
               measured: .reprise(binary: binary)) {
        _ = try runCommand(binary, ["eq", "loudness"], environment: bench.desktop.environment)
    }
}

/// CPU over a queue of 6 s tracks of different albums crossfaded for 3 s (two streams half of the time) against the
/// same queue joined gaplessly.
func crossfadeRow(_ bench: Bench, binary: String, seconds: Double, contender: Contender) throws -> Row {
    let folder = bench.workDirectory + "/crossfade"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for index in 0..<12 {
        let path = folder + String(format: "/%02d.ogg", index)
        try generateTone(at: path, seconds: 6, frequency: 300 + 50 * index,
                         tags: "title=(string)\\\"Tone \(index)\\\",album=(string)\\\"Album \(index)\\\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        chmod(path, 0o644)
    }
    chmod(folder, 0o755)
    return try cpuRow(bench, "CPU over 6 s tracks crossfaded 3 s (\(Int(seconds)) s)",
                      note: "floor: the same queue joined gaplessly (crossfade off)", playing: folder, seconds: seconds,
                      contender: contender, floor: .reprise(binary: binary, arguments: ["--crossfade", "0"]),
                      measured: .reprise(binary: binary, arguments: ["--crossfade", "3"]))
}

/// A row of CPU use: `measured` playing `media` for `seconds` against `floor` playing the same.
func cpuRow(_ bench: Bench, _ figure: String, note: String, playing media: String, seconds: Double, contender: Contender,
            floor: Contender, measured: Contender, prepare: () throws -> Void = {}) throws -> Row {
    var row = Row(figure: figure, unit: "%", floorKey: "floor", note: note)
    row.values["floor"] = try bench.footprint(floor, media, seconds: seconds).cpu
    row.values[contender.name] = try bench.footprint(measured, media, seconds: seconds, prepare: prepare).cpu
    return row
}
