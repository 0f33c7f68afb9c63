import Foundation
import Testing
import TestSupport

/// Data never reaches a terminal raw: tags, file names, output names and other players' data go through one
/// sanitiser in every verb and in the terminal view, and the view lays out wide characters by cells.
@Suite(.serialized) struct TerminalSafetyTests {
    /// Retitles the terminal, writes the clipboard (OSC 52), clears the screen, asks for the cursor position (CSI
    /// as C1), and reverses the rest of the line.
    static let hostile = "\u{1B}]0;OWNED\u{07}\u{1B}]52;c;aGk=\u{07}\u{1B}[2J\u{9B}6n\u{202E}"

    static func raw(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || (0x80...0x9F).contains($0.value) || $0.value == 0x202E }
    }

    /// Plays a file with hostile tags and a name with escapes, then one with a long title in wide characters.
    @discardableResult
    func playHostileThenWide(_ session: Session) throws -> (hostile: String, wide: String) {
        let directory = try session.makeFolder("media")
        let hostile = directory + "/name\u{1B}[31m\u{07}.ogg"
        try generateTone(at: hostile, seconds: 20, tags: "title=\"Title\(Self.hostile)\",artist=\"Artist\(Self.hostile)\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        let wide = directory + "/wide.ogg"
        try generateTone(at: wide, seconds: 20, tags: "title=\"\(String(repeating: "日本語のタイトル", count: 8))\",artist=\"歌手\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        try session.launch([hostile, wide]) { session.title()?.contains("OWNED") == true }
        return (hostile, wide)
    }

    @Test func noVerbWritesAControlSequenceFromData() throws {
        let session = try Session()
        defer { session.close() }
        let (hostile, _) = try playHostileThenWide(session)
        var runs: [[String]] = [["status"], ["queue"], ["queue", "--history"], ["output", "list"], ["status", "--player", "reprise"],
                                ["add", session.directory + "/missing\(Self.hostile).ogg"], ["add", hostile + "\u{1B}]0;X"]]
        // A refused option value is echoed in the message, with and without media after it.
        runs += [["--category", "loud\u{1B}]0;X\u{07}"], ["--category", "loud\u{1B}]0;X\u{07}", "bare.ogg"]]
        runs.append(["status", "--json"])
        runs.append(["queue", "--json"])
        for arguments in runs {
            let result = try runCommand(repriseBinary, arguments, environment: session.environment)
            #expect(!Self.raw(result.output) && !Self.raw(result.errors), "reprise \(arguments): \(result.output.debugDescription) \(result.errors.debugDescription)")
        }
        let status = try runCommand(repriseBinary, ["status"], environment: session.environment)
        #expect(status.output.contains("␛]0;OWNED␇"), "\(status.output)")
    }

    @Test func theViewShowsHostileTagsAsTextAndLaysOutWideOnes() throws {
        let session = try Session()
        defer { session.close() }
        try playHostileThenWide(session)
        let view = try session.terminal([repriseBinary, "ui"], columns: 80, rows: 24)
        #expect(session.waitFor { view.text().contains("Title␛]0;OWNED␇") }, "\(view.text())")
        #expect(view.title() != "OWNED")
        #expect(view.text().contains("Artist␛]0;OWNED␇"))
        view.send("q")
        #expect(session.waitFor { view.exitStatus == 0 })

        try session.call("Next")
        #expect(session.waitFor { session.title()?.hasPrefix("日本語") == true })
        let mini = try session.terminal([repriseBinary, "ui", "--mini"], columns: 60, rows: 5)
        #expect(session.waitFor { mini.screen().first?.contains("日本語") == true })
        // 64 wide characters are 128 cells: cut to the 60 columns, on one line, never wrapped onto the next.
        let lines = mini.screen()
        #expect(lines.first?.hasSuffix("…") == true, "\(lines)")
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty }, "\(lines)")
    }

    /// Another player's data: a hostile title, and numbers no player should send (NaN volume, a rate of 1e308,
    /// a position of Int64.max): `status --player` and the view show them safely and do not crash.
    @Test func anotherPlayersDataIsShownSafely() throws {
        let session = try Session()
        defer { session.close() }
        let silentPlayer = packageRoot.appendingPathComponent(".build/debug/silent-player").path
        try session.start(silentPlayer, ["broken", "--playing", "--title", "Other\(Self.hostile)", "--hostile-numbers"], logName: "broken")
        #expect(session.waitFor { session.nameHasOwner("org.mpris.MediaPlayer2.broken") })
        for arguments in [["status", "--player", "broken"], ["status", "--player", "broken", "--json"]] {
            let result = try runCommand(repriseBinary, arguments, environment: session.environment)
            #expect(result.status == 0 && !Self.raw(result.output) && !Self.raw(result.errors),
                    "reprise \(arguments): \(result.status) \(result.output.debugDescription) \(result.errors.debugDescription)")
        }
        let view = try session.terminal([repriseBinary, "ui", "--player", "broken"], columns: 80, rows: 24)
        #expect(session.waitFor { view.text().contains("Other␛]0;OWNED␇") }, "\(view.text())")
        #expect(view.title() != "OWNED")
        view.send("q")
        #expect(session.waitFor { view.exitStatus == 0 })
    }
}
