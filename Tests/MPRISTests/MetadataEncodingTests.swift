import Testing
import MPRIS
import RepriseCore
import SDBus

@Suite struct MetadataEncodingTests {
    @Test func keysCarryTheTypesStrictClientsExpect() throws {
        var entry = QueueEntry(id: 7, uri: "file:///m/a%20b.flac")
        entry.tags = TrackTags(title: "Title", artists: ["A", "B"], album: "Album", albumArtists: ["AA"],
                               trackNumber: 3, discNumber: 1, genres: ["Rock"], comments: ["c"])
        entry.mediumLengthMicroseconds = 5_000_000
        let dict = MetadataEncoding.encode(TrackInfo(entry: entry))
        #expect(dict["mpris:trackid"] == .objectPath("/org/reprise/Reprise/Track/7"))
        #expect(dict["mpris:length"] == .int64(5_000_000))
        #expect(dict["xesam:title"] == .string("Title"))
        #expect(dict["xesam:artist"] == .strings(["A", "B"]))
        #expect(dict["xesam:album"] == .string("Album"))
        #expect(dict["xesam:albumArtist"] == .strings(["AA"]))
        #expect(dict["xesam:trackNumber"] == .int32(3))
        #expect(dict["xesam:discNumber"] == .int32(1))
        #expect(dict["xesam:genre"] == .strings(["Rock"]))
        #expect(dict["xesam:comment"] == .strings(["c"]))
        #expect(dict["xesam:url"] == .string("file:///m/a%20b.flac"))
        // Sent as the Metadata property: an a{sv}, every value a variant.
        let sent = DBusValue.dictionary(keySignature: "s", valueSignature: "v", dict, key: DBusValue.string, value: DBusValue.wrappingInVariant)
        #expect(sent.signature == "a{sv}" && sent.dictionary == dict)
    }

    @Test func untaggedTracksUseTheFileNameAndOmitUnknownKeys() throws {
        let dict = MetadataEncoding.encode(TrackInfo(entry: QueueEntry(id: 1, uri: "file:///m/a%20b.flac")))
        #expect(dict["xesam:title"] == .string("a b"))
        #expect(Set(dict.keys) == ["mpris:trackid", "xesam:title", "xesam:url"])
    }

    @Test func noTrackIsAnEmptyDictionary() {
        #expect(MetadataEncoding.encode(nil).isEmpty)
    }

    @Test func trackPathsRoundTripAndForeignPathsAreRejected() {
        #expect(MPRIS.entryID(fromTrackPath: MPRIS.trackPath(forEntry: 42)) == 42)
        #expect(MPRIS.entryID(fromTrackPath: MPRIS.noTrackPath) == nil)
        #expect(MPRIS.entryID(fromTrackPath: "/org/reprise/Reprise/Track/x") == nil)
        #expect(!MPRIS.trackPath(forEntry: 1).hasPrefix("/org/mpris"))
    }

    @Test func positionAndCanControlAreNotAnnounced() {
        #expect(!MPRIS.announcedPlayerProperties.contains("Position"))
        #expect(!MPRIS.announcedPlayerProperties.contains("CanControl"))
        #expect(MPRIS.announcedPlayerProperties.contains("Metadata"))
    }
}
