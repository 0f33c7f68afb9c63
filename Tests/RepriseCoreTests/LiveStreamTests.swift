import CoreTestDoubles
import Testing
@testable import RepriseCore

@Suite struct LiveStreamTests {
    @Test func streamTitlesSplitIntoArtistAndTitleWhereTheyCan() {
        #expect(LiveStream.splitTitle("Miles Davis - So What") == ("Miles Davis", "So What"))
        #expect(LiveStream.splitTitle("A - B - Remix") == ("A", "B - Remix"), "the first separator")
        #expect(LiveStream.splitTitle("News at Noon") == (nil, "News at Noon"))
        #expect(LiveStream.splitTitle(" - Untitled") == (nil, " - Untitled"), "no artist: the whole text")
        #expect(LiveStream.splitTitle("Jean-Luc Ponty") == (nil, "Jean-Luc Ponty"), "a hyphen is no separator")
        #expect(LiveStream.splitTitle("Artist -  ") == (nil, "Artist -  "))
    }

    @Test func onlyNetworkStreamsWithoutALengthAreLive() {
        #expect(LiveStream.isLive(uri: "http://radio.example/live", lengthMicroseconds: nil))
        #expect(LiveStream.isLive(uri: "ICY://radio.example/live", lengthMicroseconds: nil))
        #expect(!LiveStream.isLive(uri: "http://podcast.example/1.mp3", lengthMicroseconds: 60_000_000))
        #expect(!LiveStream.isLive(uri: "file:///music/a.flac", lengthMicroseconds: nil))
    }

    @Test func aStreamTitleReplacesTitleAndArtistTogetherAsOneChange() {
        let (player, _, observer) = makePlayer()
        player.play()
        player.engineDidReadTags(TrackTags(genres: ["Jazz"], station: "Test FM", stationURL: "https://fm.example"))
        player.engineDidPreroll(lengthMicroseconds: nil, seekable: false)
        player.engineDidReadStreamTitle("First Artist - First Song")
        #expect(player.announcedTrack?.title == "First Song")
        #expect(player.announcedTrack?.tags.artists == ["First Artist"])
        #expect(player.announcedTrack?.tags.station == "Test FM")
        let changes = observer.trackListChanges.count
        player.engineDidReadStreamTitle("Station ID")
        #expect(observer.trackListChanges.count == changes + 1, "one metadata change per title")
        #expect(player.announcedTrack?.title == "Station ID")
        #expect(player.announcedTrack?.tags.artists == [], "no artist left from the last song")
        player.engineDidReadStreamTitle("Station ID")
        #expect(observer.trackListChanges.count == changes + 1, "the same title again changes nothing")
    }

    @Test func aFilesOrganizationIsNoStation() {
        let (player, _, _) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 3_000_000, seekable: true)
        player.engineDidReadTags(TrackTags(title: "Song", station: "A Label", stationURL: "Abbey Road"))
        #expect(player.announcedTrack?.title == "Song")
        #expect(player.announcedTrack?.tags.station == nil)
        #expect(player.announcedTrack?.tags.stationURL == nil)
    }
}
