import Foundation
import Glibc
import Testing
import TestSupport

/// The tags a classical collection carries beyond title, artist and album — composer, performers, conductor, work,
/// movement, ensemble, location, grouping, label, original date, the work's MusicBrainz id — kept by the library and
/// listed, found, counted and shown as Debian's `mpd` does, on the same generated FLAC and Ogg files (Vorbis
/// comments, as taggers such as Picard write them).
@Suite(.serialized) struct MPDFurtherTagsTests {
    /// What the files carry: GStreamer's own tags, and the rest as raw Vorbis comments.
    static let classical = "title=(string)Urlicht,artist=(string)Janet,artist-sortname=(string)Baker,album=(string)Resurrection,"
        + "album-sortname=(string)Auferstehung,genre=(string){Classical,Romantic},composer=(string){Mahler,Gustav},"
        + "performer=(string){Janet,Chorus},extended-comment=(string){\"CONDUCTOR=Karajan\",\"WORK=Resurrection\","
        + "\"MOVEMENTNAME=Urlicht\",\"MOVEMENT=4\",\"ENSEMBLE=BPO\",\"LOCATION=Berlin\",\"LABEL=DG\",\"ORIGINALDATE=1963\","
        + "\"COMPOSERSORT=Mahler\\,Gustav\",\"MUSICBRAINZ_WORKID=0b2a3c4d-1111-2222-3333-444455556666\",\"GROUPING=Symphonies\"}"
    static let second = "title=(string)Scherzo,artist=(string)Solti,composer=(string)Mahler,extended-comment=(string)"
        + "{\"CONDUCTOR=Solti\",\"WORK=Resurrection\",\"MOVEMENTNUMBER=3\",\"LABEL=Decca\"}"

    static let commands = [
        "tagtypes", "lsinfo Classical", "listallinfo", "list composer", "list performer", "list conductor", "list work group composer",
        "list movement", "list movementnumber", "list ensemble", "list location", "list grouping", "list label",
        "list originaldate", "list composersort", "list musicbrainz_workid", "find conductor Karajan", "search work resur",
        "find \"(performer == 'Chorus')\"", "count group label", "count composer Mahler", "search any symphon",
        "find \"(MUSICBRAINZ_WORKID == '0b2a3c4d-1111-2222-3333-444455556666')\"", "find originaldate 1963",
        "find movementnumber 3", "search composer gus", "find \"(label != 'DG')\"",
        // The queue's songs, from the library: every tag, as mpd's from its database.
        "add Classical", "playlistinfo", "currentsong",
    ]

    @Test func listedFoundAndShownAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        try FileManager.default.createDirectory(atPath: music + "/Classical", withIntermediateDirectories: true)
        for (name, tags, encoder) in [("4 Urlicht.flac", Self.classical, ["flacenc"]), ("3 Scherzo.ogg", Self.second, ["vorbisenc", "!", "oggmux"])] {
            // The tags as one word of the pipeline (their values hold quotes of their own).
            let made = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=40", "!", "audio/x-raw,rate=44100,channels=2",
                                                         "!", "taginject", "tags=" + tags, "!", "audioconvert", "!"] + encoder
                                      + ["!", "filesink", "location=\(music)/Classical/\(name)"])
            #expect(made.status == 0, "\(made.errors)")
        }
        let mpds = try Self.askBoth(session, music: music, songs: 2, Self.commands)
        // What is compared is there: mpd read every tag.
        #expect(mpds[1].contains("Conductor: Karajan") && mpds[1].contains("MovementNumber: 4")
                && mpds[1].contains("Movement: Urlicht") && mpds[1].contains("MovementNumber: 3"), "\(mpds[1])")
    }

    /// An MP3 tagged as Picard tags one (ID3v2.4: text frames, TXXX with MusicBrainz ids and a sort name), its frames
    /// written in another order than mpd's scanner reads them: listed, found and queued as Debian's mpd does — the
    /// tags in mpd's order, TIT1 as Grouping and TPE4 as Performer.
    @Test func anMP3sID3TagAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        let tags = ["MusicBrainz Artist Id=11111111-2222-3333-4444-555555555555", "TPE4=Perf Four", "genre=Folk",
                    "TDOR=1999-05-01", "title=Tune", "TSOT=Tune, The", "album=Album", "artist=Artist", "album_artist=Band",
                    "track=3/9", "disc=1/2", "publisher=Label", "TIT1=Group", "TPE3=Conductor", "composer=Composer",
                    "date=2001", "ALBUMARTISTSORT=Band, The", "TSOP=Artist, The", "TSOA=Album, The",
                    "MusicBrainz Album Id=aaaaaaaa-2222-3333-4444-555555555555",
                    "MusicBrainz Release Track Id=bbbbbbbb-2222-3333-4444-555555555555", "TMED=CD", "TLAN=eng"]
        let made = try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=2", "-c:a", "libmp3lame",
                                             "-id3v2_version", "4"] + tags.flatMap { ["-metadata", $0] } + [music + "/tune.mp3"])
        #expect(made.status == 0, "\(made.errors)")
        // (`duration`'s last digit differs: mpd decodes an MP3's length with libmad, Reprise reads it with TagLib.)
        let mpds = try Self.askBoth(session, music: music, songs: 1, [
            "lsinfo", "list performer", "list grouping", "find originaldate 1999-05-01", "list albumartistsort",
            "find \"(MUSICBRAINZ_RELEASETRACKID == 'bbbbbbbb-2222-3333-4444-555555555555')\"", "add tune.mp3", "playlistinfo",
            "readcomments tune.mp3"])
        #expect(mpds[0].contains("Grouping: Group") && mpds[0].contains("Performer: Perf Four"), "\(mpds[0])")
    }

    /// An MP4 file's tags (the atoms FFmpeg writes, in its own order) listed, found and queued as Debian's mpd lists
    /// them: in the order mpd's FFmpeg plugin looks them up, the album artist last (README's `tag-order`).
    @Test func anMP4sTagsAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        let tags = ["title=Tune", "artist=Artist", "album_artist=Band", "album=Album", "composer=Composer", "date=2001-02-03",
                    "comment=Said", "genre=Folk", "grouping=Group", "track=3/9", "disc=1/2"]
        let made = try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=2", "-c:a", "aac"]
                                  + tags.flatMap { ["-metadata", $0] } + [music + "/tune.m4a"])
        #expect(made.status == 0, "\(made.errors)")
        let mpds = try Self.askBoth(session, music: music, songs: 1, [
            "lsinfo", "list albumartist", "find grouping Group", "add tune.m4a", "playlistinfo", "readcomments tune.m4a"])
        #expect(mpds[0].contains("Artist: Artist\nAlbum: Album\nTitle: Tune\n") && mpds[0].contains("Disc: 1\nAlbumArtist: Band\n"),
                "\(mpds[0])")
    }

    /// The formats whose tags mpd reads with FFmpeg (WMA, TTA, Speex), from an APE tag (WavPack) or with libsndfile
    /// (a WAV file's INFO list), an AIFF file's ID3 chunk and its text chunks, each tagged by FFmpeg: listed, found and queued as
    /// Debian's mpd lists them — each format's tags in the order mpd's reader for it gives them — and their
    /// `readcomments` as mpd's: FFmpeg's names for a file it reads, an APE tag's items as written (a TTA file's twice:
    /// FFmpeg's and the tag's own), an ID3 tag's TXXX frames, nothing of a WAV file's INFO list.
    @Test func otherFormatsTagsAndCommentsAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        let tags = ["title=Tune", "artist=Artist", "album_artist=Band", "album=Album", "composer=Composer", "date=2001",
                    "genre=Folk", "track=3/9", "disc=1/2", "comment=Said", "ARTISTSORT=Artist, The",
                    "MusicBrainz Track Id=11111111-2222-3333-4444-555555555555"]
        let files: [(String, [String], [String])] = [
            ("tune.wma", ["-c:a", "wmav2"], tags), ("tune.tta", ["-c:a", "tta"], tags), ("tune.spx", ["-c:a", "libspeex"], tags),
            ("tune.wv", ["-c:a", "wavpack"], ["title=Tune", "Artist=Artist", "Album Artist=Band", "year=2001", "track=3/9",
                                               "MUSICBRAINZ_TRACKID=11111111-2222-3333-4444-555555555555", "Mood=Calm"]),
            // (A WAV file's comment and track number, which mpd's libsndfile does not report, are left out.)
            ("info.wav", [], ["title=Tune", "artist=Artist", "album=Album", "date=2001", "genre=Folk"]),
            ("tune.aiff", ["-write_id3v2", "1"], ["TIT2=Tune", "TPE1=Artist", "TXXX=Extra", "TALB=Album"]),
            // FFmpeg writes these as an AIFF file's NAME, AUTH, (c) and ANNO chunks, which libsndfile reads for mpd.
            ("chunks.aiff", [], ["title=Named", "author=Author", "copyright=Owner", "comment=Annotated"]),
        ]
        for (name, codec, tags) in files {
            let made = try runCommand("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=duration=2"] + codec
                                      + tags.flatMap { ["-metadata", $0] } + [music + "/" + name])
            #expect(made.status == 0, "\(name): \(made.errors)")
        }
        let mpds = try Self.askBoth(session, music: music, songs: files.count, ["lsinfo", "list albumartist", "find artistsort \"Artist, The\"",
            "find title Named", "list artist", "search comment annot",
            "find musicbrainz_trackid 11111111-2222-3333-4444-555555555555", "add tune.wma", "add tune.wv", "playlistinfo"]
            + files.map { "readcomments " + $0.0 })
        // What is compared is there: mpd read each file's tags and comments.
        #expect(mpds[0].contains("file: tune.wma\n") && mpds[0].contains("ArtistSort: Artist, The") && mpds[0].contains("Genre: Folk"),
                "\(mpds[0])")
        #expect(mpds[10].contains("album_artist: Band") && mpds[13].contains("Mood: Calm"), "\(mpds[10])\n\(mpds[13])")
        #expect(mpds[3].contains("file: chunks.aiff\n") && mpds[3].contains("Title: Named\nArtist: Author\n"), "\(mpds[3])")
    }

    /// A FLAC file tagged as Picard and people tag them: a full release date, a track and disc of a total, two
    /// titles (a work's name in two languages), two albums, two artists — listed, found and queued as Debian's mpd
    /// does: every value, as the file has it. And `readcomments` of a file whose Vorbis comment writes its keys in
    /// mixed case and one key's values apart, with a key mpd does not list (digits in it) and an empty value: the
    /// fields as the file writes them, as mpd lists them; and its tags listed, found and queued with each value where
    /// the file has it (a title, an artist, a title again). And a folder's songs listed, found and added in mpd's order.
    /// And `readcomments` of a file with a picture as a Vorbis comment (1.6 MB of base64): every byte, as mpd lists it.
    @Test func fullDatesTotalsAndSecondValuesAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try Self.flacFiles(in: session, [
            "erlkoenig.flac": [("TITLE", "Erlkönig"), ("TITLE", "The Erl-King"), ("ARTIST", "Fischer-Dieskau"), ("ARTIST", "Moore"),
                               ("ALBUMARTIST", "Fischer-Dieskau"), ("ALBUMARTIST", "Moore"), ("GENRE", "Lied"), ("GENRE", "Romantic"),
                               ("ALBUM", "Lieder"), ("ALBUM", "Songs"), ("DATE", "1958-03-21"), ("TRACKNUMBER", "3/12"),
                               ("DISCNUMBER", "1/2"), ("ARTISTSORT", "Fischer-Dieskau, Dietrich"), ("ARTISTSORT", "Dieskau")],
            "staendchen.flac": [("TITLE", "Ständchen"), ("ARTIST", "Fischer-Dieskau"), ("ALBUM", "Lieder"), ("DATE", "1958"),
                                ("TRACKNUMBER", "4"), ("DISCNUMBER", "1")],
            "Raw/mixed.flac": [("title", "Mixed Case"), ("Artist", "Someone"), ("TITLE", "Upper Case"), ("R128_TRACK_GAIN", "-512"),
                               ("comment", ""), ("musicbrainz_trackid", "11111111-2222-3333-4444-555555555555"),
                               ("Artist", "Someone Else"), ("REPLAYGAIN_TRACK_GAIN", "-3.00 dB")],
            // A folder's songs as mpd sorts them (album, disc, track, name), before its folders.
            "Lieder/aria.flac": [("TITLE", "Aria"), ("ALBUM", "Lieder"), ("DISCNUMBER", "1"), ("TRACKNUMBER", "10")],
            "Lieder/bonus.flac": [("TITLE", "Bonus")],
            "Lieder/coda.flac": [("TITLE", "Coda"), ("ALBUM", "Lieder"), ("DISCNUMBER", "1"), ("TRACKNUMBER", "2")],
            "Lieder/Sub/deep.flac": [("TITLE", "Deep"), ("ALBUM", "Lieder"), ("TRACKNUMBER", "1")],
            "Raw/picture.flac": [("TITLE", "Picture"), ("METADATA_BLOCK_PICTURE", Self.longPicture)]])
        let mpds = try Self.askBoth(session, music: music, songs: 8, ["readcomments Raw/mixed.flac", "lsinfo", "lsinfo Lieder", "lsinfo Raw", "find artist \"Someone Else\"", "listall", "find album Lieder", "list title", "list album", "list date", "list artistsort", "find title \"The Erl-King\"",
            "find album Songs", "find date 1958-03-21", "find date 1958", "search title erl-king", "count album Songs",
            "find track 3", "list track", "list disc", "list artist", "find artist Moore", "list albumartist",
            "find albumartist Moore", "list genre", "count group artist", "search artist fischer", "add erlkoenig.flac", "add Lieder", "add Raw", "playlistinfo", "playlistfind album Songs",
            "readcomments Raw/picture.flac"])
        #expect(mpds[0].hasPrefix("title: Mixed Case\nArtist: Someone\nTITLE: Upper Case"), "\(mpds[0])")
        #expect(mpds[1].contains("Title: The Erl-King") && mpds[1].contains("Date: 1958-03-21"), "\(mpds[1])")
        #expect(mpds[3].contains("Title: Mixed Case\nArtist: Someone\nTitle: Upper Case\n"), "\(mpds[3])")
        #expect(mpds.last == "TITLE: Picture\nMETADATA_BLOCK_PICTURE: " + Self.longPicture + "\nOK", "mpd's reply: \(mpds.last?.utf8.count ?? 0) bytes")
    }

    /// A value longer than the library keeps of one (the tag reader's 800 KB): base64, as a picture in a comment is.
    static let longPicture = String(repeating: "QUJDRA==", count: 200_000)

    /// A music folder of FLAC files, each with its Vorbis comment's fields as given (``TaggedFLACMaker``).
    static func flacFiles(in session: Session, _ files: [String: [(String, String)]]) throws -> String {
        let music = try session.makeFolder("Music")
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: session.directory)
        for (name, tags) in files {
            let path = music + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try maker.file(tags: tags).write(to: URL(fileURLWithPath: path))
        }
        return music
    }

    /// Indexes `music` (`songs` files) in Reprise and in Debian's mpd, asks both `commands` (python-mpd2, one
    /// connection each) and expects the same replies, line by line, apart from `duration:` lines; returns mpd's.
    static func askBoth(_ session: Session, music: String, songs: Int, _ commands: [String],
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try MPDTests.configure(session, library: music)
        try session.launch([])
        #expect(session.waitFor(60) { MPDDifferentialTests.songs(try? MPDTests.mpc(session, "stats").output) == songs })
        let mpdSocket = try MPDTranscriptTests.startReferenceMPD(session, music: music, songCount: songs)
        let script = session.directory + "/ask.py"
        try MPDDifferentialTests.asker.write(toFile: script, atomically: true, encoding: .utf8)
        let replies = try [MPDTests.socket(session), mpdSocket].map { socket in
            let asked = try runCommand("/usr/bin/python3", [script, socket, commands.joined(separator: "\n====\n")],
                                       environment: session.environment)
            #expect(asked.status == 0, "\(asked.errors)", sourceLocation: sourceLocation)
            return asked.output.components(separatedBy: "\n====\n")
        }
        #expect(replies[0].count == commands.count && replies[1].count == commands.count, sourceLocation: sourceLocation)
        for (index, command) in commands.enumerated() where index < min(replies[0].count, replies[1].count) {
            let ours = withoutDurations(replies[0][index]), theirs = withoutDurations(replies[1][index])
            #expect(ours == theirs, "\(command)\n--- Reprise\n\(ours)\n--- mpd\n\(theirs)", sourceLocation: sourceLocation)
        }
        return replies[1]
    }

    /// A reply without its `duration:` lines (each server reads a Vorbis file's length its own way); every other
    /// line in its place — a song's tags in the order its file has them, as mpd lists them.
    static func withoutDurations(_ reply: String) -> String {
        reply.split(separator: "\n").filter { !$0.hasPrefix("duration: ") }.joined(separator: "\n")
    }
}
