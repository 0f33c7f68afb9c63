@testable import MPDProtocol
import RepriseCore
import Testing

/// The library snapshot's compact songs give back exactly the tracks they were made from (what MPD serves of them).
@Suite struct SongTableTests {
    let prefix = "/music/"

    func full(_ path: String) -> LibraryTrack {
        var track = LibraryTrack(path: FilePath(escaped: path), title: "Overture to a long evening", artist: "Björk",
                                 album: "Début", albumArtist: "Various Artists", genre: "Pop", year: 1993, disc: 2, track: 11,
                                 lengthMicroseconds: 119_954_000, id: 7)
        track.musicBrainz = MusicBrainzIDs(recording: "1b3c2d4e-0000-4000-8000-000000000001", release: "1b3c2d4e-0000-4000-8000-000000000002",
                                           releaseTrack: "1b3c2d4e-0000-4000-8000-000000000003",
                                           artists: ["1b3c2d4e-0000-4000-8000-000000000004", "1b3c2d4e-0000-4000-8000-000000000005"],
                                           albumArtists: ["1b3c2d4e-0000-4000-8000-000000000006"])
        track.fileFacts.modifiedSeconds = 1_764_300_000
        track.moreTags.append(.composer, "Mahler")
        track.moreTags.append(.movementNumber, "4")
        track.moreTags.append(.composer, "Alma")
        track.tagOrder = TagOrder([.composer, .title, .movementNumber, .date])
        return track
    }

    @Test func everyFieldComesBackAsItWas() {
        let songs: [(name: String, track: LibraryTrack)] = [
            ("Björk/Début/01 Human.flac", full("/music/Björk/Début/01 Human.flac")),
            ("bare.ogg", LibraryTrack(path: "/music/bare.ogg")),
            ("/elsewhere/x.ogg", full("/elsewhere/x.ogg")), // outside the music folder: named by its path
            ("odd.ogg", full("/music/odd/../odd.ogg")),     // a name that does not give the path back: the path kept
        ]
        let table = MPDSongTable(songs, folderPrefix: prefix)
        #expect(table.count == songs.count)
        for (index, song) in songs.enumerated() {
            #expect(table[index].name == song.name)
            #expect(table[index].track == song.track)
            #expect(table.name(at: index) == song.name)
            #expect(table.path(at: index) == song.track.path)
        }
    }

    @Test func whatDoesNotFitTheRecordIsKeptWhole() {
        var huge = full("/music/a.ogg")
        huge.year = Int(Int32.max) + 1
        var smallest = full("/music/b.ogg")
        smallest.track = Int(Int32.min)   // the record's "none": must still come back as itself
        var longest = full("/music/c.ogg")
        longest.lengthMicroseconds = Int64.min
        var listed = full("/music/d.ogg")
        listed.musicBrainz.artists = ["a,b", ""] // not ids, but kept as they are
        let songs = [("a.ogg", huge), ("b.ogg", smallest), ("c.ogg", longest), ("d.ogg", listed)]
        let table = MPDSongTable(songs, folderPrefix: prefix)
        #expect(table.map(\.track) == songs.map(\.1))
        #expect(table.map(\.name) == songs.map(\.0))
    }

    @Test func whatMPDDoesNotServeIsNotKept() {
        var track = full("/music/a.ogg")
        track.cover = "/music/cover.jpg"
        track.lyrics = "la la"
        track.loudness = LoudnessTags(trackGain: -6)
        let kept = MPDSongTable([("a.ogg", track)], folderPrefix: prefix)[0].track
        #expect(kept == full("/music/a.ogg"))
    }

    /// Filters read a table's songs from its buffer exactly as they read the tracks themselves.
    @Test func filtersSeeTheTablesSongsAsTheTracks() throws {
        var noAlbumArtist = full("/music/b.ogg")
        noAlbumArtist.albumArtist = nil
        var emptyAlbumArtist = full("/music/c.ogg")
        emptyAlbumArtist.albumArtist = ""
        var unusual = full("/music/d.ogg")
        unusual.year = Int(Int32.max) + 1
        let songs: [(name: String, track: LibraryTrack)] = [
            ("Björk/Début/01 Human.flac", full("/music/Björk/Début/01 Human.flac")), ("bare.ogg", LibraryTrack(path: "/music/bare.ogg")),
            ("b.ogg", noAlbumArtist), ("c.ogg", emptyAlbumArtist), ("d.ogg", unusual),
        ]
        let table = MPDSongTable(songs, folderPrefix: prefix)
        let expressions = [
            "(artist == 'Björk')", "(albumartist == 'Björk')", "(albumartist == '')", "(album != 'Début')", "(title contains 'long')",
            "(date == '1993')", "(track == '11')", "(disc starts_with '2')", "(genre == '')", "(file == 'bare.ogg')",
            "(MUSICBRAINZ_ARTISTID == '1b3c2d4e-0000-4000-8000-000000000005')", "(MUSICBRAINZ_ALBUMARTISTID != 'x')",
            "(MUSICBRAINZ_TRACKID contains '0001')", "(MUSICBRAINZ_ALBUMID == '1b3c2d4e-0000-4000-8000-000000000002')",
            "(MUSICBRAINZ_RELEASETRACKID starts_with '1b')", "(any contains 'ÉBUT')", "(any != 'Pop')", "(any == '')",
            "(base 'Björk')", "(!(artistsort == 'Björk'))", "((album == 'Début') AND (date == '1993'))", "(comment == '')",
            "(composer == 'Alma')", "(composer == 'Mahler')", "(movementnumber == '4')", "(conductor == '')", "(performer != 'x')",
            "(any == 'Alma')",
        ]
        for expression in expressions {
            for ignoringCase in [false, true] {
                let filter = try MPDFilter.parse([expression], ignoringCase: ignoringCase)
                for (index, song) in songs.enumerated() {
                    #expect(filter.matches(table.song(at: index)) == filter.matches(song.track, name: song.name), "\(expression) on \(song.name)")
                }
            }
        }
        let search = try MPDFilter.parse(["any", "début"], ignoringCase: true)
        #expect(table.positions(matching: search) == [0, 2, 3, 4])
    }

    /// A listing written from the table is byte for byte the one written from the tracks (every tag wanted, or a few).
    @Test func listingsFromTheTableAreTheTracksOwn() {
        var controls = full("/music/e.ogg")
        controls.title = "Line\none\tand\u{7F}more"
        var noAlbumArtist = full("/music/b.ogg")
        noAlbumArtist.albumArtist = nil
        var unusual = full("/music/d.ogg")
        unusual.disc = Int(Int32.max) + 1
        unusual.fileFacts.encoding = AudioEncoding(codec: .vorbis, sampleRate: 22_050, channels: 1, bitsPerSample: nil)
        var encoded = full("/music/f.flac")
        encoded.fileFacts.encoding = AudioEncoding(codec: .flac, sampleRate: 96_000, channels: 2, bitsPerSample: 24)
        let songs: [(name: String, track: LibraryTrack)] = [
            ("Björk/Début/01 Human.flac", full("/music/Björk/Début/01 Human.flac")), ("bare.ogg", LibraryTrack(path: "/music/bare.ogg")),
            ("b.ogg", noAlbumArtist), ("d.ogg", unusual), ("e.ogg", controls), ("f.flac", encoded),
        ]
        let table = MPDSongTable(songs, folderPrefix: prefix)
        let writer = MPDSongWriter(musicFolder: "/music")
        let everyTag = Set(MPDSongWriter.tagTypes + ["MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID", "MUSICBRAINZ_ALBUMARTISTID",
                                                     "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID"])
        for wanted in [everyTag, ["Title", "Artist"], []].map(MPDWantedTags.init) {
            for (index, song) in songs.enumerated() {
                var fromTable = MPDResponse(), fromTrack = MPDResponse()
                writer.write(table.song(at: index), wanted: wanted, into: &fromTable)
                writer.write(song.track, name: song.name, wanted: wanted, into: &fromTrack)
                #expect(fromTable.bytes == fromTrack.bytes, "\(String(decoding: fromTable.bytes, as: UTF8.self))")
            }
        }
    }
}
