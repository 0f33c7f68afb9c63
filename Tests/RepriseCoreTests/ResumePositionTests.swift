import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct ResumePositionTests {
    let long: Int64 = 11 * 60_000_000

    @Test func onlyLongFilesLeftPartWayAreRemembered() {
        var positions = ResumePositions()
        positions.record(uri: "a", position: 300_000_000, length: long)
        positions.record(uri: "short", position: 60_000_000, length: 5 * 60_000_000)
        positions.record(uri: "unknown", position: 60_000_000, length: nil)
        positions.record(uri: "barely", position: 2_000_000, length: long)
        #expect(positions.marks == [.init(uri: "a", microseconds: 300_000_000)])
        positions.record(uri: "a", position: long - 1_000_000, length: long) // finished
        #expect(positions.position(for: "a") == nil)
        for n in 0..<(ResumePositions.limit + 5) { positions.record(uri: "f\(n)", position: 60_000_000, length: long) }
        #expect(positions.marks.count == ResumePositions.limit && positions.marks.first?.uri == "f5")
    }

    @Test func aLongFileResumesWhereItWasLeftWithSeeked() {
        let (player, engine, observer) = makePlayer(tracks: 2)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: long, seekable: true)
        engine.position = 300_000_000
        player.next()
        player.engineDidPreroll(lengthMicroseconds: 1_000_000, seekable: true)
        #expect(player.resumePositions.position(for: uri(1)) == 300_000_000)
        player.previous()
        #expect(engine.requests.suffix(2) == [.load(uri(1), playing: true), .seek(300_000_000)])
        #expect(observer.seeks.last == 300_000_000)
        // Played to the end: forgotten, the next time it starts from the beginning.
        player.engineDidPreroll(lengthMicroseconds: long, seekable: true)
        engine.position = long
        player.engineDidReachEnd()
        #expect(player.resumePositions.position(for: uri(1)) == nil)
    }

    @Test func positionsSurviveInTheSavedState() throws {
        let (player, engine, _) = makePlayer(tracks: 2)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: long, seekable: true)
        engine.position = 420_000_000
        let text = player.savedState.encoded()
        #expect(text.contains("resume 420000000 \(uri(1))\n"))
        let decoded = try SavedState.decode(text)
        let (restored, restoredEngine, _) = makePlayer(tracks: 0)
        restored.restore(decoded)
        #expect(restored.resumePositions.position(for: uri(1)) == 420_000_000)
        #expect(restoredEngine.requests.contains(.seek(420_000_000)))
        // A resume line that cannot be read is left out, not the whole state.
        #expect(try SavedState.decode("reprise-state 1\nresume x file:///a\nentry file:///b\nend\n").uris == ["file:///b"])
    }
}
