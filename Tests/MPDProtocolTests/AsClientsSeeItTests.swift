import CoreTestDoubles
import MPDProtocol
import RepriseCore
import Testing

/// What MPD clients see as MPD 0.23 shows it (issue 54's items, each also in a recorded client's transcript): no
/// current song until one plays, next/previous as MPD does them, idle waking only what changed, the queue's version
/// growing only with what clients see of it, a reply never mixing two entries, client-to-client messages.
@Suite struct AsClientsSeeItTests {
    typealias Rig = SessionTests.Rig

    /// The subsystems a client idling while another sends `command` hears of.
    func woken(_ rig: Rig, by command: String) -> [String] {
        let other = MPDSession(commands: rig.bridge.commands, permissions: .all, mayNameLocalFiles: false)
        _ = rig.send("idle", "noidle") // what changed before (while it was not idling) is heard first
        _ = rig.send("idle")
        other.receive(Array(command.utf8))
        let reply = String(decoding: rig.session.takeOutput(), as: UTF8.self) + rig.send("noidle")
        return rig.pairs(reply).filter { $0.0 == "changed" }.map(\.1)
    }

    /// A rig whose queue was filled after the server started (none of it played yet).
    func freshRig(tracks: Int) -> Rig {
        let rig = Rig(tracks: 0)
        rig.player.enqueue((1...tracks).map(uri))
        return rig
    }

    @Test func aQueueNeverPlayedHasNoCurrentSongAndPlayStartsAtItsFirst() {
        let rig = freshRig(tracks: 3)
        let status = rig.send("status")
        #expect(rig.value("song", in: status) == nil && rig.value("nextsong", in: status) == nil, "\(status)")
        #expect(rig.send("currentsong") == "OK\n")
        _ = rig.send("move 2 0")
        _ = rig.send("play")
        #expect(rig.player.queue.current?.id == rig.player.trackIDs[0], "the song now first plays")
        _ = rig.send("stop")
        #expect(rig.value("song", in: rig.send("status")) == "0", "after stop the current song stays, as in MPD")
    }

    @Test func nextAndPreviousAreRefusedWhileStoppedAndPlayFromPause() {
        let rig = Rig(tracks: 3)
        #expect(rig.send("next") == "ACK [55@0] {next} Not playing\n")
        #expect(rig.send("previous") == "ACK [55@0] {previous} Not playing\n")
        _ = rig.send("play 0")
        _ = rig.send("pause 1")
        #expect(woken(rig, by: "next") == ["player"], "one change: moved on and playing")
        #expect(rig.player.status == .playing && rig.player.queue.current?.id == rig.player.trackIDs[1])
        _ = rig.send("next")
        _ = rig.send("next")
        #expect(rig.player.status == .stopped, "past the last song, playback stops")
        // And, as MPD (python-mpd2's asyncio client recorded it), no song is current any more: `play` starts over.
        #expect(rig.value("song", in: rig.send("status")) == nil)
        #expect(rig.send("currentsong") == "OK\n")
        _ = rig.send("play")
        #expect(rig.player.queue.current?.id == rig.player.trackIDs[0])
    }

    @Test func aSeekToAnotherSongWhilePausedStaysPaused() {
        let rig = Rig(tracks: 3)
        _ = rig.send("play 0")
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        _ = rig.send("pause 1")
        _ = rig.send("seek 2 7")
        #expect(rig.player.status == .paused && rig.player.queue.current?.id == rig.player.trackIDs[2])
        #expect(rig.send("seek 0 abc") == "ACK [2@0] {seek} Float expected: abc\n")
        #expect(rig.send("seek 0 -1") == "ACK [2@0] {seek} Negative value not allowed: -1\n")
    }

    @Test func aSeekWhileTheSongLoadsIsKept() {
        let rig = Rig(tracks: 3)
        _ = rig.send("play 1")
        _ = rig.send("seek 1 7")
        #expect(rig.engine.requests.contains(.seek(7_000_000)), "\(rig.engine.requests)")
        #expect(rig.value("elapsed", in: rig.send("status")) == "7.000")
    }

    @Test func idleWakesOnlyWhatClientsSeeChange() {
        let rig = Rig(tracks: 3)
        #expect(woken(rig, by: "play 0") == ["player"])
        #expect(woken(rig, by: "pause 1") == ["player"])
        #expect(woken(rig, by: "repeat 1") == ["options"])
        let version = rig.value("playlist", in: rig.send("status"))
        #expect(woken(rig, by: "random 1") == ["options"])
        #expect(rig.value("playlist", in: rig.send("status")) == version, "shuffling the order of play is no edit of the queue")
        #expect(woken(rig, by: "setvol 40") == ["mixer"])
        #expect(woken(rig, by: "consume 1") == ["options"])
        #expect(woken(rig, by: "consume 1") == [], "the same again changes nothing")
    }

    @Test func aRetagThatShowsNothingNewIsNoNewVersion() {
        let rig = Rig(tracks: 2)
        let id = rig.player.trackIDs[0]
        rig.player.entryDescribed(id: id, tags: TrackTags(title: "One"), lengthMicroseconds: 5_000_000, artURL: nil)
        let version = rig.value("playlist", in: rig.send("status"))
        _ = rig.send("play 0")
        rig.player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        #expect(rig.value("playlist", in: rig.send("status")) == version)
        #expect(rig.send("clear") == "OK\n")
        let cleared = rig.value("playlist", in: rig.send("status"))
        _ = rig.send("clear")
        #expect(rig.value("playlist", in: rig.send("status")) != cleared, "an empty queue cleared is a version all the same")
    }

    /// Home Assistant (python-mpd2's asyncio client) re-read the whole queue on every track change: what a file's
    /// own stream tells as it plays (a composer the index does not keep, a more exact length) is no change of the
    /// queue for MPD, whose song is what its index says: `play` and `next` wake `player` alone, the version stays
    /// and `plchanges` from it is empty. A stream's tags (a radio's title) are a change, as in MPD.
    @Test func tagsAFileTellsAsItPlaysAreNoChangeOfTheQueue() {
        let rig = Rig(tracks: 0)
        rig.player.enqueue(["file:///music/a.ogg", "file:///music/b.ogg", "http://radio.invalid/live"])
        let ids = rig.player.trackIDs
        for (id, title) in zip(ids, ["A", "B", "Live"]) {
            rig.player.entryDescribed(id: id, tags: TrackTags(title: title), lengthMicroseconds: 5_000_000, artURL: nil)
        }
        let version = rig.value("playlist", in: rig.send("status")) ?? ""
        func played(length: Int64) {
            rig.player.engineDidPreroll(lengthMicroseconds: length, seekable: true)
            rig.player.engineDidReadTags(TrackTags(composers: ["Writer"]))
        }
        #expect(woken(rig, by: "play 0") == ["player"])
        played(length: 5_004_000)
        #expect(woken(rig, by: "next") == ["player"])
        played(length: 4_990_000)
        #expect(rig.value("playlist", in: rig.send("status")) == version)
        #expect(rig.send("plchanges \(version)") == "OK\n")
        _ = rig.send("next")
        played(length: 0)
        rig.player.engineDidReadStreamTitle("Band - Song")
        #expect(rig.value("playlist", in: rig.send("status")) != version, "a stream's title is a change of its song")
    }

    @Test func theCurrentSongIsNeverShownWithTheTagsOfTheOneBefore() {
        let rig = Rig(tracks: 2)
        let ids = rig.player.trackIDs
        rig.player.entryDescribed(id: ids[0], tags: TrackTags(title: "Overture"), lengthMicroseconds: nil, artURL: nil)
        rig.player.entryDescribed(id: ids[1], tags: TrackTags(title: "Ballad"), lengthMicroseconds: nil, artURL: nil)
        _ = rig.send("play 0")
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        _ = rig.send("next") // the second entry's stream is loading: the first one's track is held for MPRIS
        let song = rig.send("currentsong")
        #expect(rig.value("Title", in: song) == "Ballad" && rig.value("Id", in: song) == String(ids[1]), "\(song)")
    }

    @Test func anUnclosedQuoteIsRefusedAndTheConnectionKept() {
        let rig = Rig(tracks: 1)
        #expect(rig.send("add \"open") == "ACK [5@0] {} Missing closing '\"'\n")
        #expect(rig.send("ping") == "OK\n")
        _ = rig.send("-bad") // a line that is no command at all closes the connection
        #expect(rig.session.isClosing)
    }

    /// As Debian's mpd answered python-mpd2 (the edges transcript): under single with repeat the song is next again;
    /// under single alone (stop after this song) the next one is named, though it will not begin.
    @Test func nextsongUnderSingleIsTheSongAgainOnlyWithRepeat() {
        let rig = Rig(tracks: 3)
        _ = rig.send("play 1")
        _ = rig.send("single 1")
        #expect(rig.value("nextsong", in: rig.send("status")) == "2")
        _ = rig.send("repeat 1")
        #expect(rig.value("nextsong", in: rig.send("status")) == "1")
    }

    @Test func messagesReachTheSubscribersOfTheirChannel() {
        let rig = Rig(tracks: 1)
        let other = MPDSession(commands: rig.bridge.commands, permissions: .all, mayNameLocalFiles: false)
        func ask(_ session: MPDSession, _ line: String) -> String {
            session.receive(Array(line.utf8))
            return String(decoding: session.takeOutput(), as: UTF8.self)
        }
        #expect(ask(other, "subscribe mpdscribble") == "OK\n")
        #expect(ask(other, "subscribe mpdscribble") == "ACK [56@0] {subscribe} already subscribed to this channel\n")
        #expect(ask(other, "subscribe \"bad name\"") == "ACK [2@0] {subscribe} invalid channel name\n")
        #expect(rig.send("channels") == "channel: mpdscribble\nOK\n")
        #expect(ask(other, "idle message") == "")
        #expect(rig.send("sendmessage mpdscribble love") == "OK\n")
        #expect(String(decoding: other.takeOutput(), as: UTF8.self) == "changed: message\nOK\n")
        #expect(ask(other, "readmessages") == "channel: mpdscribble\nmessage: love\nOK\n")
        #expect(ask(other, "readmessages") == "OK\n")
        #expect(rig.send("sendmessage nobody x") == "ACK [50@0] {sendmessage} nobody is subscribed to this channel\n")
        #expect(rig.send("listpartitions") == "partition: default\nOK\n")
        #expect(rig.send("partition elsewhere") == "ACK [50@0] {partition} partition does not exist\n")
    }
}
