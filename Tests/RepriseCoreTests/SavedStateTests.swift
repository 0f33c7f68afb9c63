import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct SavedStateTests {
    @Test func roundTripsThroughText() throws {
        var state = SavedState()
        state.uris = ["file:///m/a%20b.ogg", "https://radio.example/live"]
        state.currentIndex = 1
        state.positionMicroseconds = 12_345_678
        state.loopStatus = .playlist
        state.shuffle = true
        state.volume = 0.25
        state.rate = 1.5
        #expect(try SavedState.decode(state.encoded()) == state)
        #expect(try SavedState.decode(SavedState().encoded()) == SavedState())
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
