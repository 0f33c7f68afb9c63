import CoreTestDoubles
import RepriseCore
import Testing
@testable import MPDProtocol

/// `addtagid` and `cleartagid`: a stream's tags named by a client, written back as MPD writes them; a file's are
/// refused (the transcript `python-mpd2-stream-tags` compares the rest with Debian's mpd).
@Suite struct StreamTagsTests {
    @Test func aStreamIsNamedAndClearedAsAClientAsks() throws {
        let rig = SessionTests.Rig(tracks: 1)
        let id = try #require(Int(rig.value("Id", in: rig.send("addid http://127.0.0.1:9/morning.ogg")) ?? ""))
        let before = rig.value("playlist", in: rig.send("status"))!
        for line in ["addtagid \(id) Title \"Morning Radio\"", "addtagid \(id) artist \"Host One\"", "addtagid \(id) Artist \"Host Two\"",
                     "addtagid \(id) Title \"A second title\"", "addtagid \(id) Track 3/12", "addtagid \(id) Composer Bach",
                     "addtagid \(id) Performer Gould", "addtagid \(id) MUSICBRAINZ_TRACKID not-an-id"] {
            #expect(rig.send(line) == "OK\n", "\(line)")
        }
        let song = rig.pairs(rig.send("playlistid \(id)"))
        #expect(song.filter { $0.0 == "Title" }.map(\.1) == ["Morning Radio", "A second title"], "every value, as MPD keeps them")
        #expect(song.filter { $0.0 == "Artist" }.map(\.1) == ["Host One", "Host Two"])
        #expect(song.filter { $0.0 == "Track" }.map(\.1) == ["3"])
        #expect(song.filter { $0.0 == "Composer" || $0.0 == "Performer" }.map(\.1) == ["Bach", "Gould"])
        #expect(!song.contains { $0.0 == "MUSICBRAINZ_TRACKID" }, "an id that is not one is no value")
        #expect(rig.pairs(rig.send("plchangesposid \(before)")).contains { $0 == ("Id", "\(id)") }, "each edit is a new version")
        #expect(rig.player.track(id: id)?.title == "Morning Radio", "MPRIS sees the name too: the first")

        #expect(song.filter { $0.0 != "file" && $0.0 != "Pos" && $0.0 != "Id" }.map(\.0)
                == ["Title", "Title", "Artist", "Artist", "Track", "Composer", "Performer"], "listed in the order given, as MPD lists them")
        #expect(rig.send("addtagid \(id) Genre Talk", "addtagid \(id) Name \"Radio Loopback\"", "cleartagid \(id) Title",
                         "addtagid \(id) Title Again") == "OK\nOK\nOK\nOK\n")
        #expect(rig.pairs(rig.send("playlistid \(id)")).map(\.0)
                == ["file", "Artist", "Artist", "Track", "Composer", "Performer", "Genre", "Name", "Title", "Pos", "Id"],
                "a tag cleared and given again comes last")

        #expect(rig.send("cleartagid \(id) composer") == "OK\n")
        #expect(!rig.pairs(rig.send("playlistid \(id)")).contains { $0.0 == "Composer" })
        #expect(rig.send("cleartagid \(id)") == "OK\n")
        #expect(rig.pairs(rig.send("playlistid \(id)")).map(\.0) == ["file", "Pos", "Id"])
    }

    /// MPD keeps every value a client gives: a second title, album, date, track, name, sort name or single id too;
    /// the queue's entry (MPRIS, the widgets) shows the first.
    @Test func aSecondValueOfATagKeptOnceIsListedToo() throws {
        let rig = SessionTests.Rig(tracks: 1)
        let id = try #require(Int(rig.value("Id", in: rig.send("addid http://127.0.0.1:9/evening.ogg")) ?? ""))
        let recordings = ["1b3c2d4e-0000-4000-8000-000000000001", "1b3c2d4e-0000-4000-8000-000000000002"]
        for (tag, values) in [("Album", ["Live", "Live (remaster)"]), ("Track", ["2", "x", "7/9"]), ("Name", ["Radio One", "R1"]),
                              ("AlbumSort", ["Live", "Live 2"]), ("MUSICBRAINZ_TRACKID", recordings + ["not-an-id"]),
                              ("Date", ["2020", "2021-05"])] {
            for value in values { #expect(rig.send("addtagid \(id) \(tag) \"\(value)\"") == "OK\n", "\(tag) \(value)") }
        }
        let song = rig.pairs(rig.send("playlistid \(id)")).filter { !["file", "Pos", "Id"].contains($0.0) }
        #expect(song.map { "\($0.0)=\($0.1)" } == [
            "Album=Live", "Album=Live (remaster)", "Track=2", "Track=7", "Name=Radio One", "Name=R1", "AlbumSort=Live",
            "AlbumSort=Live 2", "MUSICBRAINZ_TRACKID=\(recordings[0])", "MUSICBRAINZ_TRACKID=\(recordings[1])", "Date=2020", "Date=2021-05",
        ])
        #expect(rig.player.track(id: id)?.tags.album == "Live", "MPRIS shows the first")
        #expect(rig.send("cleartagid \(id) Album", "addtagid \(id) Album Again") == "OK\nOK\n")
        #expect(rig.pairs(rig.send("playlistid \(id)")).filter { $0.0 == "Album" }.map(\.1) == ["Again"], "cleared with its further values")
    }

    @Test func editsAreRefusedAsMPDRefusesThem() throws {
        let rig = SessionTests.Rig(tracks: 0)
        rig.player.enqueue(["file:///music/a.ogg"])
        let file = rig.player.trackIDs[0]
        #expect(rig.send("addtagid \(file) Title x") == "ACK [4@0] {addtagid} Cannot edit tags of local file\n")
        #expect(rig.send("cleartagid \(file)") == "ACK [4@0] {cleartagid} Cannot edit tags of local file\n")
        #expect(rig.send("addtagid 999 Title x") == "ACK [50@0] {addtagid} No such song\n")
        #expect(rig.send("addtagid \(file) Tempo 120") == "ACK [2@0] {addtagid} Unknown tag type: Tempo\n")
        #expect(rig.send("cleartagid x") == "ACK [2@0] {cleartagid} Integer expected: x\n")
    }
}
