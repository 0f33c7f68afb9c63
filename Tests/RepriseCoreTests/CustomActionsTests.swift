import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct CustomActionsTests {
    @Test func theBottomRowFollowsTheSeedsOrder() {
        let five = ["a", "b", "c", "d", "e"]
        let full = ControlLayout(customIDs: five, hasPrevious: true, hasNext: true)
        #expect(full.bottomRow == ["a", "previous", "play-pause", "next", "overflow"])
        #expect(full.expandedRow == ["b", "c", "d", "e"])
        // No previous: a custom action takes its place.
        let noPrevious = ControlLayout(customIDs: five, hasPrevious: false, hasNext: true)
        #expect(noPrevious.bottomRow == ["a", "b", "play-pause", "next", "overflow"])
        #expect(noPrevious.expandedRow == ["c", "d", "e"])
        // Five controls or fewer: no overflow, the far right is a custom action.
        let two = ControlLayout(customIDs: ["a", "b"], hasPrevious: true, hasNext: true)
        #expect(two.bottomRow == ["a", "previous", "play-pause", "next", "b"])
        #expect(two.expandedRow.isEmpty)
        #expect(ControlLayout(customIDs: [], hasPrevious: false, hasNext: false).bottomRow == ["play-pause"])
        // At most five custom actions on the expanded row.
        let many = ControlLayout(customIDs: (1...9).map(String.init), hasPrevious: true, hasNext: true)
        #expect(many.expandedRow == ["2", "3", "4", "5", "6"])
    }

    @Test func actionsActThroughThePlayer() throws {
        let (player, engine, observer) = makePlayer(tracks: 2)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        engine.position = 30_000_000
        try CustomActions.invoke("skip-forward", on: player)
        #expect(engine.requests.last == .seek(40_000_000) && observer.seeks.last == 40_000_000)
        try CustomActions.invoke("skip-backward", on: player)
        #expect(engine.requests.last == .seek(30_000_000))
        try CustomActions.invoke("speed", on: player)
        #expect(player.rate == 1.25)
        for _ in 0..<3 { try CustomActions.invoke("speed", on: player) }
        #expect(player.rate == 0.5)
        try CustomActions.invoke("repeat", on: player)
        #expect(player.loopStatus == .playlist)
        try CustomActions.invoke("shuffle", on: player)
        #expect(player.shuffle)
        #expect(CustomActions.all(for: player).first { $0.id == "speed" }?.label == "Speed 0.5×")
        #expect(throws: PlayerError.self) { try CustomActions.invoke("fast-forward", on: player) }
        player.stop()
        #expect(throws: PlayerError.self) { try CustomActions.invoke("skip-forward", on: player) }
    }
}
