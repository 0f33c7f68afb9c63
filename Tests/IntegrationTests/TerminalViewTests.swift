import Foundation
import SDBus
import Testing
import TestSupport

/// `reprise ui` driven in tmux: what it shows, the control bar's order, keys, the queue view and --mini.
@Suite(.serialized) struct TerminalViewTests {

    /// A session with three tracks, the second playing, and the terminal view opened on them (closed with the
    /// session).
    func viewOnTheSecondTrack() throws -> (Session, Tmux) {
        let session = try Session()
        do {
            try session.launch([media.first, media.second, media.third]) { session.title() == "First Light" }
            try session.call("Next")
            #expect(session.waitFor { session.title() == "Second Wind" && session.status() == "Playing" })
            return (session, try session.terminal([repriseBinary, "ui"]))
        } catch {
            session.close()
            throw error
        }
    }

    @Test func thePlaybackViewShowsTheTrackAndTheControlsInTheSeedsOrder() throws {
        let (session, tmux) = try viewOnTheSecondTrack()
        defer { session.close() }
        #expect(session.waitFor { tmux.text().contains("Second Wind") })
        let screen = tmux.text()
        #expect(screen.contains("   Other Artist\n   Test Album"))
        #expect(screen.contains("[Back 10 s]  [|◀ Prev]  [❚❚ Pause]  [Next ▶|]  [… More]"))
        #expect(screen.contains("] 0:19"))
        // The expanded row: the remaining custom actions, above the bottom row.
        tmux.send("o")
        #expect(session.waitFor {
            tmux.text().contains("[Forward 10 s]  [Speed 1×]  [Repeat: off]  [Shuffle: off]\n   [Back 10 s]  [|◀ Prev]")
        })
        // Narrower terminal: redrawn within the width.
        tmux.resize(columns: 40, rows: 20)
        #expect(session.waitFor { tmux.screen().allSatisfy { $0.count <= 40 } && tmux.text().contains("Second Wind") })
    }

    @Test func chaptersAndTheSleepTimerAreShown() throws {
        let session = try Session()
        defer { session.close() }
        let book = try ChaptersTests.book("book.m4b", in: session.directory)
        try session.launch([book]) { session.metadata()["reprise:chapter"]?.stringValue == "Opening" }
        let tmux = try session.terminal([repriseBinary, "ui"])
        #expect(session.waitFor { tmux.text().contains("§ Opening") }, "\(tmux.text())")
        // Marks at 4 s and 8 s of 12 on the progress line.
        #expect(session.waitFor { tmux.screen().contains { $0.contains("] 0:12") && $0.filter { $0 == "|" }.count == 2 } }, "\(tmux.text())")
        #expect(try runCommand(repriseBinary, ["sleep", "30m"], environment: session.environment).status == 0)
        #expect(session.waitFor { tmux.text().contains("☾ pausing in 29:") }, "\(tmux.text())")
        #expect(try runCommand(repriseBinary, ["chapter", "next"], environment: session.environment).status == 0)
        #expect(session.waitFor { tmux.text().contains("§ Middle") })
    }

    @Test func keysDriveThePlayer() throws {
        let (session, tmux) = try viewOnTheSecondTrack()
        defer { session.close() }
        #expect(session.waitFor { tmux.text().contains("❚❚ Pause") })
        tmux.send("Space")
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(session.waitFor { tmux.text().contains("▶ Play") && tmux.text().contains("— Paused") })
        tmux.send("Space")
        #expect(session.waitFor { session.status() == "Playing" })
        let before = session.position() ?? 0
        session.clearSignals()
        tmux.send("Right")
        #expect(session.waitFor { session.seeked.contains { abs($0 - before - 10_000_000) < 2_000_000 } })
        tmux.send("]")
        #expect(session.waitFor { (try? session.get("Rate")) == .double(1.25) })
        tmux.send("[", "[")
        #expect(session.waitFor { (try? session.get("Rate")) == .double(0.5) })
        tmux.send("n")
        #expect(session.waitFor { session.title() == "Third Time" })
        #expect(session.waitFor { tmux.text().contains("Third Time") })
        tmux.send("q")
        #expect(session.waitFor { tmux.exitStatus == 0 })
        // Back on the normal screen: the view is gone from the terminal.
        #expect(!tmux.text().contains("Space play/pause"))
    }

    @Test func aCrashStillRestoresTheTerminal() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first])
        let tmux = try session.terminal([repriseBinary, "ui"])
        #expect(session.waitFor { tmux.text().contains("First Light") })
        let pid = try #require(tmux.commandPID)
        kill(pid, SIGSEGV)
        #expect(session.waitFor { tmux.exitStatus == 128 + Int(SIGSEGV) })
        #expect(!tmux.text().contains("Space play/pause"))
        #expect(session.status() == "Playing")
    }

    @Test func theQueueViewPlaysAChosenEntry() throws {
        let (session, tmux) = try viewOnTheSecondTrack()
        defer { session.close() }
        #expect(session.waitFor { tmux.text().contains("Second Wind") })
        tmux.send("Tab")
        #expect(session.waitFor { tmux.text().contains(" Queue — 3 entries") })
        // Chronological, the current entry marked with its elapsed time and chosen to start with.
        let lines = tmux.screen()
        #expect(lines.contains { $0.hasPrefix("   1. First Light") })
        #expect(lines.contains { $0.hasPrefix(">▶ 2. Second Wind  0:") && $0.hasSuffix("/ 0:19") })
        #expect(lines.contains { $0.hasPrefix("   3. Third Time") })
        tmux.send("Down", "Enter")
        #expect(session.waitFor { session.title() == "Third Time" })
        #expect(session.waitFor { tmux.screen().contains { $0.hasPrefix(">▶ 3. Third Time") } })
        tmux.send("h")
        #expect(session.waitFor { tmux.text().contains("   · First Light\n   · Second Wind") })
    }

    @Test func theLibraryViewSearchesAsYouTypeAndPlaysOrAdds() throws {
        let session = try Session()
        defer { session.close() }
        let music = try LibraryTests.musicFolder(in: session.home)
        try FileManager.default.createDirectory(atPath: music + "/Playlists", withIntermediateDirectories: true)
        try "../Singles/1 Blue Monday.ogg\n".write(toFile: music + "/Playlists/Road Trip.m3u", atomically: true, encoding: .utf8)
        try session.launch([media.first]) { session.status() == "Playing" && (try? session.get("Scanning", interface: LibraryTests.interface)) == .bool(false) }
        let tmux = try session.terminal([repriseBinary, "ui"])
        #expect(session.waitFor { tmux.text().contains("First Light") })
        tmux.send("Tab")
        #expect(session.waitFor { tmux.text().contains(" Queue — 1 entries") })
        tmux.send("Tab")
        #expect(session.waitFor { tmux.text().contains("Library — playlists; type to search") })
        #expect(session.waitFor { tmux.text().contains("≡ Road Trip") }, "the view opens on the playlists")
        tmux.send("-l", "kind")
        #expect(session.waitFor { tmux.text().contains("▸ Kind of Blue — Miles Davis") }, "\(tmux.text())")
        #expect(session.title() == "First Light", "browsing leaves what plays alone")
        // Down to the list, then a adds the album; Enter on a track plays it.
        tmux.send("Down", "a")
        #expect(session.waitFor { session.queuedURLs().count == 3 })
        #expect(session.title() == "First Light")
        tmux.send("Down", "Down", "Enter")
        #expect(session.waitFor { session.title() == "Freddie Freeloader" || session.title() == "So What" }, "\(tmux.text())")
        // Cleared, the filter shows the playlists again; Enter plays one.
        tmux.send("BSpace", "BSpace", "BSpace", "BSpace")
        #expect(session.waitFor { tmux.text().contains("≡ Road Trip") && !tmux.text().contains("Kind of Blue") }, "\(tmux.text())")
        tmux.send("Down", "Enter")
        #expect(session.waitFor { session.title() == "Blue Monday" && session.queuedURLs().count == 1 }, "\(tmux.text())")
        tmux.send("Escape")
        #expect(session.waitFor { tmux.text().contains("Space play/pause") })
    }

    @Test func theMiniBarIsOneLine() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        let tmux = try session.terminal([repriseBinary, "ui", "--mini"])
        #expect(session.waitFor { tmux.screen().first?.hasPrefix("▶ First Light — Test Artist  0:") == true })
        let lines = tmux.screen()
        #expect(lines.first?.hasSuffix("[|◀] [❚❚] [▶|]") == true)
        #expect(lines.dropFirst().allSatisfy { $0.isEmpty })
        tmux.send("Space")
        #expect(session.waitFor { session.status() == "Paused" && tmux.screen().first?.hasPrefix("❚❚ First Light") == true })
        tmux.send("q")
        #expect(session.waitFor { tmux.exitStatus == 0 })
    }

    @Test func withNoPlayerItSaysSoAndFails() throws {
        let session = try Session()
        defer { session.close() }
        let result = try runCommand(repriseBinary, ["ui"], environment: session.environment)
        #expect(result.status == 1 && result.errors.contains("Reprise is not running"))
    }
}
