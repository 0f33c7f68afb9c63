import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct SavedStateTests {
    @Test func roundTripsThroughText() throws {
        var state = SavedState()
        state.uris = ["file:///m/a%20b.ogg", "https://radio.example/live"]
        state.currentIndex = 1
        state.positionMicroseconds = 12_345_678
        state.modes.setLoopStatus(.playlist)
        state.shuffle = true
        state.volume = 0.25
        state.rate = 1.5
        #expect(try SavedState.decode(state.encoded()) == state)
        #expect(try SavedState.decode(SavedState().encoded()) == SavedState())
    }

    /// The current entry's tags and length are kept, so a restarted service answers with them before it has read
    /// the file again; the position a restore seeks to is Position from the first reply (not 0 until preroll); the
    /// file's own tags, once read, replace the saved ones.
    @Test func aRestoreAnswersWithTheSavedTagsAndPositionAtOnce() throws {
        let (player, engine, _) = makePlayer(tracks: 2)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        let id = try #require(player.trackIDs.first)
        player.entryDescribed(id: id, tags: TrackTags(title: "Long", artists: ["A \\ B", "C\nD"], album: "Album", trackNumber: 3),
                              lengthMicroseconds: 60_000_000, artURL: nil)
        #expect(player.lastChangeAffectsSavedState, "the current entry's tags are saved")
        engine.position = 20_000_000
        let text = player.savedState.encoded()
        #expect(text.hasPrefix("reprise-state 4\n") && text.contains("tag title Long\n") && text.contains("length 60000000\n"))
        let state = try SavedState.decode(text)
        #expect(state.currentTags?.artists == ["A \\ B", "C\nD"] && state.currentTags?.trackNumber == 3)

        let (restored, restoredEngine, _) = makePlayer(tracks: 0)
        restoredEngine.position = nil // nothing known before preroll
        restored.restore(state)
        let current = try #require(restored.trackIDs.first.flatMap(restored.track(id:)))
        #expect(current.tags.title == "Long" && current.lengthMicroseconds == 60_000_000)
        #expect(restored.positionMicroseconds == 20_000_000, "the restored position before preroll, not 0")
        // The file read again: its tags replace the saved ones (not merged under them).
        let restoredID = try #require(restored.trackIDs.first)
        restored.entryDescribed(id: restoredID, tags: TrackTags(title: "Retagged"), lengthMicroseconds: 61_000_000, artURL: nil)
        let read = try #require(restored.track(id: restoredID))
        #expect(read.tags.title == "Retagged" && read.tags.artists.isEmpty && read.lengthMicroseconds == 61_000_000)

        // Hostile tag lines are left out, not the state.
        let hostile = try SavedState.decode("reprise-state 3\ncurrent 0\nentry file:///a\ntag title \\q\ntag nonsense x\n"
                                            + "tag tracknumber -4\ntag album Fine\nlength -1\nend\n")
        #expect(hostile.currentTags == TrackTags(album: "Fine") && hostile.currentLengthMicroseconds == nil && hostile.skippedLines == 4)
        #expect(try SavedState.decode("reprise-state 3\nentry file:///a\ntag title T\nend\n").currentTags == nil, "no current entry")
    }

    @Test func everyURIRoundTripsEvenWithBytesALineCannotHold() throws {
        var state = SavedState()
        state.uris = ["file:///m/tab\there.ogg", "file:///m/esc\u{1B}[31m.ogg", "http://h/a b c", "file:///back\\slash",
                      "file:///new\nline", "file:///é日本.ogg", "file:///del\u{7F}", "file:///x\\x41"]
        state.currentIndex = 3
        state.resumePositions = [.init(uri: "file:///long file with spaces.m4b", microseconds: 99)]
        let text = state.encoded()
        #expect(text.split(separator: "\n").count == 7 + state.uris.count + 2)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(try SavedState.decode(text) == state)
    }

    @Test func aBadEntryIsLeftOutAndTheCurrentOneFollowed() throws {
        let text = "reprise-state 2\nposition 5\ncurrent 2\nentry file:///a\nentry bad\\q\nentry file:///c\nend\n"
        let state = try SavedState.decode(text)
        #expect(state.uris == ["file:///a", "file:///c"] && state.currentIndex == 1 && state.skippedLines == 1)
        let kept = state.keepingOnly { $0 != "file:///a" }
        #expect(kept.uris == ["file:///c"] && kept.currentIndex == 0 && kept.positionMicroseconds == 5)
        let lostCurrent = state.keepingOnly { $0 != "file:///c" }
        #expect(lostCurrent.currentIndex == nil && lostCurrent.positionMicroseconds == 0)
        // Files written before escaping still read.
        #expect(try SavedState.decode("reprise-state 1\nentry file:///old%20one\nend\n").uris == ["file:///old%20one"])
    }

    @Test func truncatedOrMalformedFilesAreRejected() {
        var state = SavedState()
        state.uris = ["file:///m/a.ogg", "file:///m/b.ogg"]
        state.currentIndex = 1
        let text = state.encoded()
        for length in [0, 5, text.count / 2, text.count - 5] {
            #expect(throws: StateError.self) { try SavedState.decode(String(text.prefix(length))) }
        }
        #expect(throws: StateError.self) { try SavedState.decode("reprise-state 1\ncurrent 4\nentry file:///a\nend\n") }
        #expect(throws: StateError.self) { try SavedState.decode("reprise-state 1\nvolume lots\nend\n") }
        #expect(throws: StateError.self) { try SavedState.decode("reprise-state 1\nloop Sometimes\nend\n") }
        #expect(throws: StateError.self) { try SavedState.decode("\u{0}\u{1}binary garbage") }
    }

    @Test func restoreLoadsTheCurrentEntryPausedAtItsPosition() {
        let (player, engine, observer) = makePlayer(tracks: 3)
        player.next()
        player.setLoopStatus(.track)
        try? player.setVolume(0.5)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        engine.position = 30_000_000
        let saved = player.savedState
        #expect(saved.currentIndex == 1 && saved.positionMicroseconds == 30_000_000 && saved.uris.count == 3)

        let (restored, restoredEngine, restoredObserver) = makePlayer(tracks: 0)
        restored.restore(saved)
        #expect(restored.status == .paused)
        #expect(restored.queue.current?.uri == uri(2))
        #expect(restored.loopStatus == .track && restored.volume == 0.5)
        #expect(Array(restoredEngine.requests.suffix(2)) == [.load(uri(2), playing: false), .seek(30_000_000)])
        #expect(restoredObserver.seeks == [30_000_000])
        _ = (engine, observer)
    }
}

/// Ranges (MPD's `rangeid`) survive a restart with their entries.
@Suite struct SavedRangeTests {
    @Test func rangesRoundTripAndFollowTheirEntries() throws {
        var state = SavedState()
        state.uris = ["file:///a.ogg", "file:///b.ogg", "file:///c.ogg"]
        state.ranges = [1: PlayRange(startMicroseconds: 1_500_000, endMicroseconds: 9_000_000)!,
                        2: PlayRange(startMicroseconds: 4_000_000, endMicroseconds: nil)!]
        let text = state.encoded()
        #expect(text.contains("entry file:///b.ogg\nrange 1500000 9000000\n"))
        #expect(try SavedState.decode(text).ranges == state.ranges)
        #expect(state.keepingOnly { $0 != "file:///a.ogg" }.ranges == [0: state.ranges[1]!, 1: state.ranges[2]!])
    }

    @Test func aRangeThatIsNoneOrWhoseEntryWasLeftOutIsSkipped() throws {
        let decoded = try SavedState.decode("reprise-state 3\nentry file:///a\nrange 5 3\nentry \\q\nrange 1 2\n"
                                            + "entry file:///b\nrange 0 -\nrange 7 x\nentry file:///c\nrange 7 -\nrange 8 -\nend\n")
        #expect(decoded.uris == ["file:///a", "file:///b", "file:///c"])
        #expect(decoded.ranges == [2: PlayRange(startMicroseconds: 7, endMicroseconds: nil)!])
        #expect(decoded.skippedLines == 6)
    }
}
