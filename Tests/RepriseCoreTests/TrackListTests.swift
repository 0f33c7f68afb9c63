import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct TrackListCoreTests {
    @Test func addTrackInsertsAfterAnEntryOrAtTheStart() throws {
        let (player, engine, observer) = makePlayer(tracks: 2)
        let ids = player.trackIDs
        try player.addTrackNow("https://radio.example/a", after: nil, makeCurrent: false)
        try player.addTrackNow("https://radio.example/b", after: ids[0], makeCurrent: false)
        #expect(player.queue.entries.map(\.uri) == ["https://radio.example/a", uri(1), "https://radio.example/b", uri(2)])
        #expect(player.queue.current?.uri == uri(1))
        #expect(engine.requests.isEmpty)
        #expect(observer.trackListChanges.suffix(2) == [.added(id: 3, after: nil), .added(id: 4, after: ids[0])])
        #expect(throws: PlayerError.self) { try player.addTrackNow("https://radio.example/c", after: 999, makeCurrent: false) }
        #expect(throws: PlayerError.self) { try player.addTrackNow("gopher://x/y", after: nil, makeCurrent: false) }
        #expect(player.trackIDs.count == 4)
        try player.addTrackNow("https://radio.example/d", after: ids[1], makeCurrent: true)
        #expect(player.status == .playing)
        #expect(engine.requests.last == .load("https://radio.example/d", playing: true))
    }

    @Test func removingTheCurrentEntryMovesOnOrStopsAtTheEnd() {
        let (player, engine, observer) = makePlayer(tracks: 3)
        let ids = player.trackIDs
        player.play()
        player.removeTrack(id: ids[0])
        #expect(engine.requests.last == .load(uri(2), playing: true))
        #expect(player.status == .playing)
        player.removeTrack(id: 999) // unknown: nothing
        #expect(player.trackIDs == [ids[1], ids[2]])
        player.goTo(id: ids[2])
        #expect(engine.requests.last == .load(uri(3), playing: true))
        player.removeTrack(id: ids[2]) // the last one: stop
        #expect(player.status == .stopped)
        #expect(player.queue.current?.uri == uri(2))
        #expect(observer.trackListChanges.contains(.removed(id: ids[0])))
        player.removeTrack(id: ids[1])
        #expect(player.queue.isEmpty && player.announcedTrack == nil)
    }

    @Test func removingAnotherEntryKeepsPlaying() {
        let (player, engine, _) = makePlayer(tracks: 3)
        player.play()
        let before = engine.requests.count
        player.removeTrack(id: player.trackIDs[2])
        #expect(engine.requests.count == before)
        #expect(player.queue.current?.uri == uri(1) && player.status == .playing)
    }

    /// Told as the stream's own (``TrackListChange/playedMetadataChanged(id:)``): MPD counts only a stream's.
    @Test func metadataChangesAreReportedOnceTheStreamIsReady() {
        let (player, _, observer) = makePlayer(tracks: 1)
        player.play()
        player.engineDidReadTags(TrackTags(title: "One"))
        #expect(!observer.trackListChanges.contains(.playedMetadataChanged(id: 1)))
        player.engineDidPreroll(lengthMicroseconds: 1_000_000, seekable: true)
        #expect(observer.trackListChanges.filter { $0 == .playedMetadataChanged(id: 1) }.count == 1)
        player.engineDidReadTags(TrackTags(title: "One")) // nothing new
        #expect(observer.trackListChanges.filter { $0 == .playedMetadataChanged(id: 1) }.count == 1)
        player.engineDidReadTags(TrackTags(album: "Later"))
        #expect(observer.trackListChanges.filter { $0 == .playedMetadataChanged(id: 1) }.count == 2)
    }
}
