import Foundation
import Glibc
import RepriseCore
import SDBus
import TestSupport

/// `reprise-fuzz`: starts Reprise on a private bus and PulseAudio, sends it generated hostile calls from several
/// connections at once, then hostile MPD requests over its MPD socket, and checks that every call got a reply in
/// bounded time (an MPD request: a reply, or its connection closed), that the service neither crashed
/// nor hung, that its memory stayed bounded, and that afterwards it still plays and its state file is whole.
/// Exit status 0 when all of that holds. `make fuzz` runs it long; `make test` runs it short.
func option(_ name: String, _ fallback: String) -> String {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}

let calls = Int(option("--calls", "100000")) ?? 100_000
let connectionCount = max(1, Int(option("--connections", "4")) ?? 4)
let seed = UInt64(option("--seed", String(UInt64.random(in: 0...UInt64(UInt32.max))))) ?? 1
let binary = option("--binary", ".build/debug/reprise")
let maximumGrowthMiB = Double(option("--max-rss-growth", "24")) ?? 24
/// Hostile MPD requests after the D-Bus calls (0: none).
let mpdRequests = Int(option("--mpd-requests", String(calls / 10))) ?? calls / 10

func say(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }

func run() throws -> Bool {
    let desktop = try PrivateDesktop()
    defer { desktop.stop() }
    var files: [String] = []
    for (index, frequency) in [440, 550, 660].enumerated() {
        let path = desktop.directory + "/tone-\(index).ogg"
        try generateTone(at: path, seconds: 30, frequency: frequency, tags: nil, encoder: ["vorbisenc", "!", "oggmux"])
        files.append(path)
    }
    // A video first, in a window on a private X server when Xvfb is there, so the video calls meet a real window.
    let video = desktop.directory + "/clip.ogv"
    try generateVideo(at: video, width: 160, height: 120, seconds: 30, title: "Fuzz Clip")
    files.insert(video, at: 0)
    // With --hostile-files: hostile files and playlists, some in the Playlists folder, in a third of the strings.
    var hostile = CommandLine.arguments.contains("--hostile-files")
        ? try HostileFiles(in: desktop.directory + "/hostile",
                           playlistsFolder: desktop.environment["HOME"]! + "/.local/share/reprise/playlists",
                           tone: files[1], video: video, seed: seed, truncatedMedia: CommandLine.arguments.contains("--truncated-media"))
        : nil
    var environment = desktop.environment
    let display = try? XvfbServer(directory: desktop.directory, width: 800, height: 600)
    defer { display?.stop() }
    if let display { environment["DISPLAY"] = display.name } else { say("no Xvfb: fuzzing without a video window") }
    let log = desktop.directory + "/reprise.log"
    if hostile != nil {
        try prepareHostileIndex(desktop: desktop, environment: environment)
        try HostileFiles.writeScrobbleQueue(home: desktop.environment["HOME"]!)
    }
    // The library indexes the run's folder: the tones, the clip and, with --hostile-files, every hostile file.
    var service = try Child.spawn(binary, ["--library", desktop.directory] + (CommandLine.arguments.contains("--verbose") ? ["--verbose"] : []) + files, environment: environment, stdout: log, stderr: log)
    defer { if service.isRunning() { kill(service.pid, SIGKILL); _ = service.wait() } }
    let name = "org.mpris.MediaPlayer2.reprise", path = "/org/mpris/MediaPlayer2"
    let observer = try Bus.connect(address: desktop.busAddress)
    func owned() -> Bool {
        (try? observer.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                            member: "NameHasOwner", [.string(name)]))?.first == .bool(true)
    }
    guard eventually(20, { owned() }) else { say("reprise did not start; see \(log)"); return false }
    Thread.sleep(forTimeInterval: 1)
    // Memory is compared from after a warm-up (the first quarter of the calls, at most 1,000): what the first hostile
    // inputs load once (GStreamer plugins, the decoders' libraries — gst-libav alone maps ~28 MiB) is no leak.
    let warmUp = min(1000, calls / 4)
    var rssBefore = residentMiB(of: service.pid), anonymousBefore = anonymousResidentMiB(of: service.pid)
    var measuredBefore = warmUp == 0
    let connections = try (0..<connectionCount).map { _ in try Bus.connect(address: desktop.busAddress) }
    var generator = HostileCalls(seed: seed)
    generator.fileURIs = hostile?.uris ?? []
    let listed = try? observer.call(destination: name, path: path, interface: "org.mpris.MediaPlayer2.Playlists",
                                    member: "GetPlaylists", [.uint32(0), .uint32(100), .string("Alphabetical"), .bool(false)])
    if case .array(_, let playlists)? = listed?.first {
        generator.playlistPaths = playlists.compactMap { if case .structure(let fields) = $0, case .objectPath(let p)? = fields.first { p } else { nil } }
    }
    if hostile != nil { say("\(generator.fileURIs.count) hostile files and playlists, \(generator.playlistPaths.count) of them listed as playlists") }
    var sent = 0, replies = 0, errors = 0, inFlight = 0
    var unanswered: [String] = []
    let started = monotonicSeconds()
    say("fuzzing \(name) with \(calls) calls from \(connectionCount) connections (seed \(seed))")
    while sent < calls || inFlight > 0 {
        while inFlight < 32 && sent < calls {
            let call = generator.next()
            let bus = connections[sent % connections.count]
            inFlight += 1
            sent += 1
            let sentAt = monotonicSeconds() - started
            if sent % 50 == 0 { hostile?.churn(sent / 50) }
            bus.callAsync(destination: name, path: call.path, interface: call.interface, member: call.member, call.arguments,
                          timeoutMicroseconds: 10_000_000) { result in
                inFlight -= 1
                replies += 1
                if case .failure(let error) = result {
                    errors += 1
                    if ["org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.NoReply"].contains(error.name) {
                        unanswered.append("\(call.interface).\(call.member)(\(String(describing: call.arguments).prefix(300))): "
                                          + "\(error.name), sent at \(String(format: "%.1f", sentAt)) s")
                    }
                }
            }
        }
        for bus in connections { bus.processPending(waitingUpTo: 2_000) }
        if !measuredBefore, replies >= warmUp {
            measuredBefore = true
            rssBefore = residentMiB(of: service.pid)
            anonymousBefore = anonymousResidentMiB(of: service.pid)
        }
        if sent % 1000 == 0, !service.isRunning() { break }
    }
    let elapsed = monotonicSeconds() - started
    // The MPD phase: its socket, several clients, every request answered or its connection closed.
    var mpd = (replied: 0, closed: 0, unanswered: [String]())
    if mpdRequests > 0, service.isRunning() {
        let socket = environment["XDG_RUNTIME_DIR"]! + "/reprise/mpd.socket"
        say("fuzzing the MPD server with \(mpdRequests) requests from \(connectionCount) connections")
        mpd = fuzzMPD(socketPath: socket, requests: mpdRequests, connections: connectionCount, seed: seed)
        mpd.unanswered.prefix(5).forEach { say("MPD unanswered: \($0)") }
    }
    let alive = service.isRunning()
    let rssAfter = alive ? residentMiB(of: service.pid) : 0
    let anonymousAfter = alive ? anonymousResidentMiB(of: service.pid) : 0
    // Afterwards it still plays, and what it saved is whole. (The run may legitimately have removed the tones
    // from the queue with RemoveTrack, so one is opened again.)
    var plays = false
    if alive {
        _ = try? observer.call(destination: name, path: "/app/reprise/Reprise", interface: "app.reprise.Sleep1", member: "Cancel")
        _ = try? observer.call(destination: name, path: path, interface: "org.mpris.MediaPlayer2.Player", member: "OpenUri",
                               [.string("file://" + files[0])])
        plays = eventually(10) {
            (try? observer.getProperty(destination: name, path: path, interface: "org.mpris.MediaPlayer2.Player",
                                       name: "PlaybackStatus")) == .string("Playing")
        }
        if !plays {
            let status = try? observer.getProperty(destination: name, path: path, interface: "org.mpris.MediaPlayer2.Player",
                                                   name: "PlaybackStatus")
            say("not playing after the run (\(String(describing: status))); the log's end:\n"
                + ((try? String(contentsOfFile: log, encoding: .utf8))?.suffix(12000) ?? ""))
        }
        _ = try? observer.call(destination: name, path: path, interface: "org.mpris.MediaPlayer2", member: "Quit")
        _ = service.wait()
    }
    let state = (try? String(contentsOfFile: desktop.environment["HOME"]! + "/.local/state/reprise/state", encoding: .utf8)) ?? ""
    let stateWhole = SavedStateFile.isWhole(state)
    // Growth is judged on anonymous memory (what a leak grows); the whole RSS is reported beside it.
    let growth = anonymousAfter - anonymousBefore
    print("""
        {"calls":\(sent),"replies":\(replies),"errors":\(errors),"unanswered":\(unanswered.count),"seconds":\(String(format: "%.1f", elapsed)),\
        "callsPerSecond":\(String(format: "%.0f", Double(replies) / max(elapsed, 0.001))),"alive":\(alive),"playsAfter":\(plays),\
        "stateWhole":\(stateWhole),"rssBeforeMiB":\(String(format: "%.1f", rssBefore)),"rssAfterMiB":\(String(format: "%.1f", rssAfter)),"anonymousBeforeMiB":\(String(format: "%.1f", anonymousBefore)),"anonymousAfterMiB":\(String(format: "%.1f", anonymousAfter)),"hostileFiles":\(generator.fileURIs.count),\
        "mpdRequests":\(mpdRequests),"mpdReplied":\(mpd.replied),"mpdClosed":\(mpd.closed),"mpdUnanswered":\(mpd.unanswered.count),"seed":\(seed)}
        """)
    unanswered.prefix(5).forEach { say("unanswered: " + TerminalText.sanitized($0)) }
    if !alive { say("reprise died; its log: \(log)\n" + ((try? String(contentsOfFile: log, encoding: .utf8))?.suffix(6000) ?? "")) }
    let mpdAnswered = mpd.unanswered.isEmpty && mpd.replied + mpd.closed == mpdRequests
    let passed = alive && unanswered.isEmpty && replies == sent && plays && stateWhole && growth <= maximumGrowthMiB && mpdAnswered
    if !passed { keepLog(log, seed: seed) }
    return passed
}

/// Copies a failed run's log out of the private desktop (removed when the run ends) and says where it is.
func keepLog(_ log: String, seed: UInt64) {
    let kept = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-fuzz-\(seed).log").path
    try? FileManager.default.removeItem(atPath: kept)
    if (try? FileManager.default.copyItem(atPath: log, toPath: kept)) != nil { say("the service's log: \(kept)") }
}

/// The library's index as another program (or a damaged disk) may leave it: a first run indexes the folder, then
/// half the rows get values no scan writes — numbers past Int32 and Int64's ends, negative lengths, escape
/// sequences, bytes that are not UTF-8, a separator in names, a 100,000-character genre, a cover that is a device —
/// and rows naming files outside the folder. The files are unchanged, so the fuzzed run keeps these rows.
func prepareHostileIndex(desktop: PrivateDesktop, environment: [String: String]) throws {
    let log = desktop.directory + "/reprise-index.log"
    var first = try Child.spawn(binary, ["--library", desktop.directory], environment: environment, stdout: log, stderr: log)
    defer { if first.isRunning() { kill(first.pid, SIGKILL); _ = first.wait() } }
    let bus = try Bus.connect(address: desktop.busAddress)
    let name = "org.mpris.MediaPlayer2.reprise"
    func library(_ property: String) -> DBusValue? {
        try? bus.getProperty(destination: name, path: "/app/reprise/Reprise", interface: "app.reprise.Library1", name: property)
    }
    // Scanning is false before the first pass starts too: done is some tracks indexed and no pass under way.
    let indexed = eventually(120) {
        guard case .uint32(let tracks)? = library("Tracks"), tracks > 0 else { return false }
        return library("Scanning") == .bool(false)
    }
    guard indexed else { throw HarnessError(message: "the first index did not finish; see \(log)") }
    _ = try? bus.call(destination: name, path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2", member: "Quit")
    _ = first.wait()
    let database = desktop.environment["HOME"]! + "/.local/share/reprise/library.db"
    let root = desktop.directory.replacingOccurrences(of: "'", with: "''")
    let edit = try runCommand("sqlite3", [database, """
        UPDATE tracks SET track = 5000000000, disc = -9223372036854775808, year = 9223372036854775807, length = -1,
            title = char(27) || '[2J' || CAST(x'C0FF' AS TEXT), album = CAST(x'C0AF2F2E2E' AS TEXT), album_artist = char(31),
            genre = printf('%.*c', 100000, 'g'), cover = '/dev/zero' WHERE id % 2 = 0;
        UPDATE tracks SET length = 9223372036854775807, track = -1, artist = 'a' || char(31) || 'b', album = char(31) WHERE id % 3 = 0;
        INSERT OR IGNORE INTO tracks(path, folder, root, size, modified, title, album, track)
            VALUES ('/etc/passwd', '/etc', '\(root)', 1, 1, 'passwd', 'Hostile', 1),
                   ('\(root)/../../../dev/zero', '\(root)/../../../dev', '\(root)', 1, 1, 'zero', 'Hostile', 2);
        """])
    guard edit.status == 0 else { throw HarnessError(message: "sqlite3: \(edit.errors)") }
    say("the index has hostile rows")
}

do {
    exit(try run() ? 0 : 1)
} catch {
    say("reprise-fuzz: \(error)")
    exit(2)
}
