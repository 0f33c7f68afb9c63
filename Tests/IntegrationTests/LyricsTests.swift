import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// Lyrics through the real service and bus: a `.lrc` beside the file and lyrics in tags, in MPRIS `xesam:asText`
/// (as playerctl shows it), on Reprise's Lyrics1 interface, from `reprise lyrics [--follow]` and in `reprise ui`;
/// each synced line arriving at its time in the player's own position; hostile `.lrc` files.
@Suite(.serialized) struct LyricsTests {
    static let interface = "app.reprise.Lyrics1"
    static let ownPath = "/app/reprise/Reprise"

    /// Lines at 2, 3.5, 5, 6 and 7 s (the chorus twice, word times and ID tags that must not show).
    static let lrc = """
        [ar:The Testers]
        [ti:Tone Song]
        [00:02.00]First line
        [00:03.50]<00:03.50>Second <00:04.00>line
        [00:05.00][00:07.00]Chorus
        [00:06.00]Bridge
        """
    static let text = "First line\nSecond line\nChorus\nBridge\nChorus"
    static let starts: [Double] = [2, 3.5, 5, 6, 7]

    func song(_ session: Session, seconds: Int = 9) throws -> String {
        let path = session.directory + "/song.ogg"
        try generateTone(at: path, seconds: seconds, tags: "title=\"Tone Song\"", encoder: ["vorbisenc", "!", "oggmux"])
        return path
    }

    @Test func aSidecarIsShownAndEachLineArrivesAtItsTime() throws {
        let session = try Session()
        defer { session.close() }
        let path = try song(session)
        try Self.lrc.write(toFile: session.directory + "/song.lrc", atomically: true, encoding: .utf8)
        // Current as the interface announces it, with the player's position when it arrived.
        var announced: [(index: Int64, position: Int64)] = []
        try session.bus.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(Self.ownPath)'") {
            message in
            guard message.arguments.first == .string(Self.interface), message.arguments.count >= 2,
                  let current = message.arguments[1].dictionary?["Current"]?.int64Value else { return }
            announced.append((current, session.position() ?? -1))
        }
        try session.launch([path])
        let follow = try session.start(repriseBinary, ["lyrics", "--follow"], logName: "follow")
        // Each line the follower prints, with the player's position when it appeared.
        var printed: [(text: String, position: Int64)] = []
        let started = monotonicSeconds()
        while monotonicSeconds() - started < 20, session.isRunning(follow) || printed.count < 5 {
            session.pump()
            let lines = session.output(ofLog: "follow").split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if lines.count > printed.count, let position = session.position() {
                printed += lines[printed.count...].map { (String($0), position) }
            }
            if printed.count >= 5 { break }
            usleep(5_000)
        }
        #expect(printed.map(\.text) == Self.text.split(separator: "\n").map(String.init), "\(printed)")
        for (line, start) in zip(printed, Self.starts) {
            #expect(abs(Double(line.position) / 1e6 - start) <= 0.3, "\(line.text) printed at \(Double(line.position) / 1e6) s, sung at \(start) s")
        }
        #expect(session.waitFor { announced.count >= 5 })
        #expect(announced.map(\.index) == [0, 1, 2, 3, 4], "announced only when the line changes: \(announced)")
        for (announcement, start) in zip(announced, Self.starts) {
            #expect(abs(Double(announcement.position) / 1e6 - start) <= 0.3, "line \(announcement.index) announced at \(announcement.position) µs")
        }
        // The text without a stamp in the Metadata, as playerctl shows it; the interface's lines with their times.
        #expect(session.metadata()["xesam:asText"]?.stringValue == Self.text)
        let shown = try session.playerctl("-p", "reprise", "metadata", "xesam:asText")
        #expect(shown.output.trimmingCharacters(in: .newlines) == Self.text, "\(shown.output)")
        guard case .array(_, let items) = try session.get("Lines", interface: Self.interface) else {
            Issue.record("Lines is no array")
            return
        }
        let timed = items.compactMap { item -> (Int64, String)? in
            guard case .structure(let fields) = item, let start = fields.first?.int64Value, let text = fields.last?.stringValue else { return nil }
            return (start, text)
        }
        #expect(timed.map(\.0) == Self.starts.map { Int64($0 * 1e6) } && timed.map(\.1).joined(separator: "\n") == Self.text)
        #expect(try session.get("Source", interface: Self.interface) == .string("sidecar"))
        let plain = try runCommand(repriseBinary, ["lyrics"], environment: session.environment)
        #expect(plain.output == Self.text + "\n")
        // The follower ends when the track does.
        #expect(session.waitForExit(follow) == 0, "\(session.output(ofLog: "follow"))")
    }

    /// Every client that follows the service ends, with a message and status 1, when the service goes away — by
    /// MPRIS Quit or by kill -9 — instead of waiting for a change that never comes (`lyrics --follow` only ended on
    /// a track change or "Stopped").
    @Test(arguments: ["Quit", "SIGKILL"])
    func followingClientsEndWhenTheServiceGoesAway(_ how: String) throws {
        let session = try Session()
        defer { session.close() }
        let path = try song(session, seconds: 60)
        try Self.lrc.write(toFile: session.directory + "/song.lrc", atomically: true, encoding: .utf8)
        let service = try session.launch([path])
        let follow = try session.start(repriseBinary, ["lyrics", "--follow"], logName: "follow")
        // The view's standard error kept in a file (a dead pane's text is not kept by tmux).
        let errors = session.directory + "/ui-errors.log"
        let tmux = try session.terminal(["sh", "-c", "\"$0\" ui 2>\(errors)", repriseBinary])
        #expect(session.waitFor { session.output(ofLog: "follow").contains("Second line") && tmux.text().contains("♪") },
                "\(session.output(ofLog: "follow")) \(tmux.text())")
        if how == "Quit" {
            _ = try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        } else {
            kill(service, SIGKILL)
        }
        #expect(session.waitForExit(follow) == 1, "lyrics --follow: \(session.output(ofLog: "follow"))")
        #expect(session.output(ofLog: "follow").contains("Reprise quit"))
        expectToldRepriseQuit(tmux, errors: errors, session: session)
    }

    @Test func theTerminalViewShowsTheLineSungAndTheNext() throws {
        let session = try Session()
        defer { session.close() }
        let path = try song(session, seconds: 12)
        try Self.lrc.write(toFile: session.directory + "/song.lrc", atomically: true, encoding: .utf8)
        try session.launch([path])
        let tmux = try session.terminal([repriseBinary, "ui"])
        #expect(session.waitFor { tmux.text().contains("♪ Second line") && tmux.text().contains("     Chorus") }, "\(tmux.text())")
        #expect(session.waitFor { tmux.text().contains("♪ Bridge") }, "\(tmux.text())")
        tmux.resize(columns: 12, rows: 20)
        #expect(session.waitFor { tmux.screen().allSatisfy { $0.count <= 12 } && tmux.text().contains("♪") }, "\(tmux.text())")
    }

    @Test func lyricsInTagsPlainAndSynced() throws {
        let session = try Session()
        defer { session.close() }
        // Synced LRC text in an Ogg Vorbis LYRICS comment; plain lyrics in an MP3 as ffmpeg writes them (TXXX:USLT).
        let ogg = session.directory + "/tagged.ogg", mp3 = session.directory + "/plain.mp3"
        for (path, lyrics) in [(ogg, "[00:00.50]Tagged one\n[00:01.00]Tagged two"), (mp3, "Plain one\nPlain two")] {
            let result = try runCommand("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=6",
                                                   "-metadata", "lyrics=\(lyrics)", "-metadata", "title=Tagged", path])
            #expect(result.status == 0, "\(result.errors)")
        }
        // A real ID3v2.4 USLT frame (language, empty description, UTF-8), before an untagged MP3's frames.
        let uslt = session.directory + "/uslt.mp3"
        #expect(try runCommand("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=6",
                                          "-map_metadata", "-1", "-id3v2_version", "0", uslt]).status == 0)
        let body: [UInt8] = [3] + Array("eng".utf8) + [0] + Array("Framed one\nFramed two".utf8)
        func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8((value >> $0) & 0x7F) } }
        let frame = Array("USLT".utf8) + syncsafe(body.count) + [0, 0] + body
        let tagged = Data([0x49, 0x44, 0x33, 4, 0, 0] + syncsafe(frame.count) + frame) + (try Data(contentsOf: URL(fileURLWithPath: uslt)))
        try tagged.write(to: URL(fileURLWithPath: uslt))
        // ID3v2.4 SYLT: synchronised lyrics with times in milliseconds (UTF-8 text, each line ended by a zero byte).
        let sylt = session.directory + "/sylt.mp3"
        let syltBody: [UInt8] = [3] + Array("eng".utf8) + [2, 1, 0]
            + Array("Synced one".utf8) + [0, 0, 0, 0x01, 0xF4] + Array("\nSynced two".utf8) + [0, 0, 0, 0x05, 0xDC]
        let syltFrame = Array("SYLT".utf8) + syncsafe(syltBody.count) + [0, 0] + syltBody
        try (Data([0x49, 0x44, 0x33, 4, 0, 0] + syncsafe(syltFrame.count) + syltFrame) + (try Data(contentsOf: URL(fileURLWithPath: uslt)).dropFirst(10 + frame.count)))
            .write(to: URL(fileURLWithPath: sylt))
        try session.launch([ogg, mp3, uslt, sylt])
        #expect(session.waitFor { session.metadata()["xesam:asText"]?.stringValue == "Tagged one\nTagged two" }, "\(session.metadata())")
        #expect(try session.get("Synced", interface: Self.interface) == .bool(true))
        #expect(try session.get("Source", interface: Self.interface) == .string("embedded"))
        try session.call("Next")
        #expect(session.waitFor { session.metadata()["xesam:asText"]?.stringValue == "Plain one\nPlain two" }, "\(session.metadata())")
        #expect(try session.get("Synced", interface: Self.interface) == .bool(false))
        #expect(try session.get("Current", interface: Self.interface) == .int32(-1))
        // Unsynced lyrics are printed whole, even with --follow.
        let followed = try runCommand(repriseBinary, ["lyrics", "--follow"], environment: session.environment)
        #expect(followed.output == "Plain one\nPlain two\n" && followed.status == 0)
        try session.call("Next")
        #expect(session.waitFor { session.metadata()["xesam:asText"]?.stringValue == "Framed one\nFramed two" }, "\(session.metadata())")
        try session.call("Next")
        #expect(session.waitFor { session.metadata()["xesam:asText"]?.stringValue == "Synced one\nSynced two" }, "\(session.metadata())")
        #expect(try session.get("Synced", interface: Self.interface) == .bool(true))
        guard case .array(_, let items) = try session.get("Lines", interface: Self.interface) else {
            Issue.record("no Lines")
            return
        }
        #expect(items.compactMap { item -> Int64? in
            guard case .structure(let fields) = item else { return nil }
            return fields.first?.int64Value
        } == [500_000, 1_500_000])
    }

    @Test func hostileLyricsFilesCostNothingAndReachNoTerminalRaw() throws {
        let session = try Session()
        defer { session.close() }
        let dir = session.directory
        var files: [String] = []
        func song(_ name: String) throws -> String {
            let path = dir + "/\(name).ogg"
            try generateTone(at: path, seconds: 2, tags: nil, encoder: ["vorbisenc", "!", "oggmux"])
            files.append(path)
            return path
        }
        // Binary; 50 MB (sparse); a million lines; a FIFO; times out of order, negative and huge, bad UTF-8 and an
        // escape sequence (the one kept: its text reaches terminals only through the sanitiser).
        _ = try song("binary")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: dir + "/binary.lrc"))
        _ = try song("huge")
        #expect(FileManager.default.createFile(atPath: dir + "/huge.lrc", contents: nil))
        #expect(truncate(dir + "/huge.lrc", 50 << 20) == 0)
        _ = try song("million")
        try Data(repeating: 0x0A, count: 1_000_000).write(to: URL(fileURLWithPath: dir + "/million.lrc"))
        _ = try song("fifo")
        #expect(mkfifo(dir + "/fifo.lrc", 0o600) == 0)
        let last = try song("odd")
        var odd = Data("[00:01.50]later\n[-00:03.00]negative\n[999999999999:00.00]huge\n[00:00.20]".utf8)
        odd += Data([0xC3, 0x28]) + Data("\u{1B}]0;pwned\u{07}title\n".utf8)
        try odd.write(to: URL(fileURLWithPath: dir + "/odd.lrc"))
        let pid = try session.launch(files)
        for _ in 0..<(files.count - 1) {
            let title = session.title()
            try session.call("Next")
            _ = session.waitFor(5) { session.title() != title }
        }
        #expect(session.waitFor { session.metadata()["xesam:url"]?.stringValue == TestMedia.uri(last) })
        #expect(session.waitFor { session.metadata()["xesam:asText"] != nil }, "\(session.log(of: pid))")
        let text = session.metadata()["xesam:asText"]?.stringValue ?? ""
        #expect(text.hasPrefix("negative\n\u{FFFD}(\u{1B}]0;pwned\u{07}title\nlater"), "\(text.debugDescription)")
        let printed = try runCommand(repriseBinary, ["lyrics"], environment: session.environment)
        #expect(!printed.output.contains("\u{1B}") && printed.output.contains("␛]0;pwned␇title"), "\(printed.output.debugDescription)")
        let log = session.log(of: pid)
        for name in ["binary", "huge", "million", "fifo"] {
            #expect(log.contains("lyrics in \(dir)/\(name).lrc not used"), "\(name): \(log)")
        }
        #expect(session.status() == "Playing")
    }
}
