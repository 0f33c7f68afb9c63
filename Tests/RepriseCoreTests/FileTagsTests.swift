import RepriseCore
import Testing

/// TagLib's property map as Reprise reads it: positions, dates, gains in both conventions, limits.
@Suite struct FileTagsTests {
    @Test func mapsTheUnifiedKeys() {
        let tags = FileTags(properties: [
            ("TITLE", ""), ("TITLE", "Second Title"), ("ARTIST", "A"), ("ARTIST", ""), ("ARTIST", "B"),
            ("ALBUMARTIST", "Various"), ("TRACKNUMBER", " 07/12 "), ("DISCNUMBER", "0"), ("DATE", "2003-04-05T10:00"),
            ("UNSYNCEDLYRICS", "la la"), ("GENRE", "Jazz"), ("REPLAYGAIN_ALBUM_GAIN", "+1,5 dB"),
            ("REPLAYGAIN_TRACK_GAIN", "NaN dB"), ("R128_TRACK_GAIN", "-512"), ("REPLAYGAIN_ALBUM_PEAK", "1e300"),
        ].map { (key: $0.0, value: $0.1) })
        #expect(tags.tags.title == "Second Title" && tags.tags.artists == ["A", "B"] && tags.tags.albumArtists == ["Various"])
        #expect(tags.tags.trackNumber == 7 && tags.tags.discNumber == nil)
        #expect(tags.year == 2003 && tags.tags.contentCreated == "2003-04-05T10:00")
        #expect(tags.lyrics == "la la" && tags.tags.genres == ["Jazz"])
        // NaN is not a gain: R128 (-2 dB to -23 LUFS) stands in, +5 dB to ReplayGain's reference.
        #expect(tags.loudness == LoudnessTags(trackGain: 3, albumGain: 1.5, trackPeak: nil, albumPeak: nil))
    }

    /// A second title, album, date, track… is kept after the first, in order, as MPD lists them (a track or disc as
    /// its number; one that is not a number is no value); the first is what everything else shows.
    @Test func keepsTheLaterValuesOfOneValuedTags() {
        let tags = FileTags(properties: [
            ("TITLE", "Erlkönig"), ("ALBUM", "Lieder"), ("TITLE", "The Erl-King"), ("TITLE", ""), ("TITLE", "Le Roi"),
            ("DATE", "1958-03-21"), ("DATE", "1959"), ("TRACKNUMBER", "3/12"), ("TRACKNUMBER", "4/12"), ("TRACKNUMBER", "A1"),
            ("ARTISTSORT", "Dieskau"), ("ARTISTSORT", "Fischer"), ("ALBUM", "Songs"),
            ("MUSICBRAINZ_TRACKID", "11111111-2222-3333-4444-555555555555"), ("MUSICBRAINZ_TRACKID", "not an id"),
        ].map { (key: $0.0, value: $0.1) })
        #expect(tags.tags.title == "Erlkönig" && tags.tags.album == "Lieder" && tags.tags.contentCreated == "1958-03-21")
        #expect(tags.tags.trackNumber == 3 && tags.sortNames.artist == "Dieskau")
        let further = tags.tags.furtherValues
        #expect(further[.title] == ["The Erl-King", "Le Roi"] && further[.album] == ["Songs"] && further[.date] == ["1959"])
        #expect(further[.track] == ["4"] && further[.artistSort] == ["Fischer"] && further[.musicBrainzTrack] == [])
        #expect(FileTags(properties: [(key: "TITLE", value: "One")]).tags.furtherValues.isEmpty)
    }

    @Test func limitsWhatAFileCanMakeItCarry() {
        let many = (0..<1_000).map { (key: "ARTIST", value: "Artist \($0)") }
        let long = String(repeating: "x", count: 500_000)
        let tags = FileTags(properties: many + [(key: "LYRICS", value: long), (key: "TITLE", value: long),
                                                (key: "TRACKNUMBER", value: "99999999999999999999")])
        #expect(tags.tags.artists.count == TrackTags.maximumValueCount)
        #expect(tags.lyrics?.count == FileTags.maximumLyricsLength)
        #expect(tags.tags.title?.count == TrackTags.maximumTextLength)
        #expect(tags.tags.trackNumber == nil)
        let titles = FileTags(properties: (0..<1_000).map { (key: "TITLE", value: "Title \($0)") })
        #expect(titles.tags.title == "Title 0" && titles.tags.furtherValues[.title].count == TrackTags.maximumValueCount)
    }

    @Test func onlyAnUntaggedMP4GoesToASecondReader() {
        let untagged = FileTags(properties: [(key: "ENCODER", value: "x")])
        #expect(untagged.namesNothing)
        #expect(untagged.wantsAnotherReader(fileExtension: "m4a") && untagged.wantsAnotherReader(fileExtension: "mp4"))
        #expect(!untagged.wantsAnotherReader(fileExtension: "flac") && !untagged.wantsAnotherReader(fileExtension: "ogg")
                && !untagged.wantsAnotherReader(fileExtension: "mp3"))
        let titled = FileTags(properties: [(key: "TITLE", value: "t")])
        #expect(!titled.wantsAnotherReader(fileExtension: "m4a"))
    }
}
