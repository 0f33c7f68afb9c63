@testable import RepriseCore
import Testing

/// MusicBrainz ids from tags: only well-formed UUIDs, lower case, lists split as taggers join them; carried into
/// a listen's `additional_info` and read back from the queue file checked.
@Suite struct MusicBrainzIDsTests {
    static let recording = "0b2a3c4d-1111-2222-3333-444455556666"
    static let artist = "2b2a3c4d-1111-2222-3333-444455556666", other = "5b2a3c4d-aaaa-bbbb-cccc-ddddeeeeffff"

    @Test func onlyUUIDsAreIDs() {
        #expect(MusicBrainzIDs.ids(in: Self.recording.uppercased()) == [Self.recording])
        #expect(MusicBrainzIDs.ids(in: "\(Self.artist); \(Self.other)") == [Self.artist, Self.other])
        #expect(MusicBrainzIDs.ids(in: "\(Self.artist)/\(Self.other)/\(Self.artist)") == [Self.artist, Self.other], "each once")
        for bad in ["", "x", "0b2a3c4d111122223333444455556666", "0b2a3c4d-1111-2222-3333-44445555666g",
                    "0b2a3c4d-1111-2222-3333-4444555566667", "0b2a3c4d_1111_2222_3333_444455556666", "ßb2a3c4d-1111-2222-3333-44445555666"] {
            #expect(MusicBrainzIDs.ids(in: bad).isEmpty, "\(bad)")
        }
        let many = (0..<1000).map { String(format: "%08x-1111-2222-3333-444455556666", $0) }.joined(separator: ";")
        #expect(MusicBrainzIDs.ids(in: many).isEmpty, "a hostile tag's thousands of ids are not ids")
        let legitimate = (0..<128).map { String(format: "%08x-1111-2222-3333-444455556666", $0) }.joined(separator: ";")
        #expect(MusicBrainzIDs.ids(in: legitimate).count == 128)
    }

    @Test func fileTagsMapPicardsKeys() {
        let tags = FileTags(properties: [("TITLE", "T"), ("MUSICBRAINZ_TRACKID", Self.recording.uppercased()),
                                         ("MUSICBRAINZ_ALBUMID", "not an id"), ("MUSICBRAINZ_ARTISTID", Self.artist),
                                         ("MUSICBRAINZ_ARTISTID", Self.other), ("MUSICBRAINZ_ALBUMARTISTID", "\(Self.artist)/\(Self.other)"),
                                         ("MUSICBRAINZ_RELEASETRACKID", Self.other)]).tags.musicBrainz
        #expect(tags == MusicBrainzIDs(recording: Self.recording, release: nil, releaseTrack: Self.other, artists: [Self.artist, Self.other],
                                       albumArtists: [Self.artist, Self.other]))
        // Newer tags (the stream's) fill in, never erase.
        var merged = TrackTags(title: "T")
        merged.musicBrainz = tags
        #expect(merged.merged(with: TrackTags(title: "U")).musicBrainz == tags)
        #expect(merged.sanitized().musicBrainz == tags)
    }

    @Test func aListenCarriesTheIDsAndReadsThemBackChecked() throws {
        var listen = Listen(artist: "A", title: "T", listenedAt: 1_700_000_000)
        listen.musicBrainz = MusicBrainzIDs(recording: Self.recording, release: Self.other, releaseTrack: Self.artist, artists: [Self.artist])
        let text = listen.json(client: "Reprise", version: "1").text
        for part in ["\"recording_mbid\":\"\(Self.recording)\"", "\"release_mbid\":\"\(Self.other)\"", "\"track_mbid\":\"\(Self.artist)\"",
                     "\"artist_mbids\":[\"\(Self.artist)\"]"] {
            #expect(text.contains(part), "\(text)")
        }
        let parsed = try #require(JSONValue(parsing: Array(text.utf8)))
        #expect(Listen(json: parsed) == listen)
        let hostile = text.replacingOccurrences(of: Self.recording, with: "x").replacingOccurrences(of: "[\"\(Self.artist)\"]", with: "[1,\"y\"]")
        let hostileValue = try #require(JSONValue(parsing: Array(hostile.utf8)))
        let read = try #require(Listen(json: hostileValue))
        #expect(read.musicBrainz.recording == nil && read.musicBrainz.artists.isEmpty && read.musicBrainz.release == Self.other)
    }
}
