import CoreTestDoubles
import RepriseCore
import Testing
@testable import MPDProtocol

/// A connection's session over a real Player (scripted engine): replies as MPD words them, command lists, idle
/// fed by the change feed, song ids that stay with their entries, and permissions.
@Suite struct SessionTests {
    final class Rig: MPDIdleListener {
        let player: Player
        let engine: ScriptedEngine
        let policy = RecordingPolicy()
        let bridge: MPDPlayerBridge
        let session: MPDSession

        init(tracks: Int = 3, permissions: MPDPermissions = .all, library: LibraryAccess? = nil, playlists: MPDPlaylistFiles? = nil,
             files: MPDMusicFiles? = nil, mayNameLocalFiles: Bool = false) {
            (player, engine, _) = makePlayer(tracks: tracks)
            bridge = MPDPlayerBridge(player: player, remote: RemoteControl(player: player, policy: policy), library: library, playlistFiles: playlists, files: files,
                                     musicFolder: "/music")
            player.feed.listen(bridge)
            session = MPDSession(commands: bridge.commands, permissions: permissions, mayNameLocalFiles: mayNameLocalFiles,
                                 feed: player.feed)
            bridge.listener = self
        }

        func subsystemsChanged(_ changed: MPDIdle) { session.notify(changed) }

        /// Sends `lines` and returns everything answered.
        func send(_ lines: String...) -> String {
            for line in lines { session.receive(Array(line.utf8)) }
            return String(decoding: session.takeOutput(), as: UTF8.self)
        }

        /// The `key: value` pairs of a reply.
        func pairs(_ reply: String) -> [(String, String)] {
            reply.split(separator: "\n").compactMap { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                return (String(parts[0]), String(parts[1].dropFirst()))
            }
        }

        func value(_ key: String, in reply: String) -> String? { pairs(reply).first { $0.0 == key }?.1 }

        /// A status reply's queue version.
        func versions(_ reply: String) -> String? { value("playlist", in: reply) }
    }

    /// `config` answers local clients only (MPD's rule: here the owner's, over the socket); without a library there is
    /// no music folder to name.
    @Test func configAndListmountsNameTheMusicFolder() {
        #expect(Rig().send("config") == "ACK [4@0] {config} Command only permitted to local clients\n")
        #expect(Rig(mayNameLocalFiles: true).send("config") == "OK\n")
        #expect(Rig().send("listmounts") == "ACK [50@0] {listmounts} No database\n")
    }

    @Test func playlistfindAndPlaylistsearchFilterTheQueue() {
        let rig = Rig(tracks: 3)
        let ids = rig.player.trackIDs
        rig.player.entryDescribed(id: ids[0], tags: TrackTags(title: "Blue Monday", artists: ["New Order"]), lengthMicroseconds: nil, artURL: nil)
        rig.player.entryDescribed(id: ids[2], tags: TrackTags(title: "Blue in Green", artists: ["Miles Davis"]), lengthMicroseconds: nil, artURL: nil)
        #expect(rig.pairs(rig.send("playlistfind artist \"New Order\"")).filter { $0.0 == "Pos" }.map(\.1) == ["0"])
        #expect(rig.pairs(rig.send("playlistfind title blue")).isEmpty, "find is exact")
        #expect(rig.pairs(rig.send("playlistsearch title BLUE")).filter { $0.0 == "Pos" }.map(\.1) == ["0", "2"])
        #expect(rig.pairs(rig.send("playlistsearch \"(artist contains 'davis')\"")).filter { $0.0 == "Id" }.map(\.1) == ["\(ids[2])"])
        #expect(rig.send("playlistfind") == "ACK [2@0] {playlistfind} too few arguments for \"playlistfind\"\n")
    }

    @Test func unknownCommandsAndWrongArgumentCountsAreRefusedAsMPDDoes() {
        let rig = Rig()
        #expect(rig.send("frobnicate") == "ACK [5@0] {} unknown command \"frobnicate\"\n")
        #expect(rig.send("play 1 2") == "ACK [2@0] {play} too many arguments for \"play\"\n")
        #expect(rig.send("seek 1") == "ACK [2@0] {seek} wrong number of arguments for \"seek\"\n")
        #expect(rig.send("ping") == "OK\n")
    }

    @Test func aCommandListStopsAtTheFirstErrorAndNamesItsIndex() {
        let rig = Rig()
        let reply = rig.send("command_list_ok_begin", "ping", "setvol 150", "ping", "command_list_end")
        #expect(reply == "list_OK\nACK [2@1] {setvol} Number too large: 150\n")
        #expect(rig.send("command_list_begin", "setvol 40", "getvol", "command_list_end") == "volume: 40\nOK\n")
        #expect(rig.player.volume == 0.4)
    }

    /// The connection's side: what it sent when told a run replied.
    final class Connection: MPDSessionOwner {
        let session: MPDSession
        var sent = ""
        init(_ session: MPDSession) { self.session = session }
        func sessionHasOutput(_ session: MPDSession) { sessionReplied(session) }
        func sessionShouldPause(_ session: MPDSession) -> Bool { false }
        func sessionReplied(_ session: MPDSession) { sent += String(decoding: session.takeOutput(), as: UTF8.self) }
    }

    @Test func aCommandsReplyLeavesBeforeFollowersHearWhatItChanged() {
        let rig = Rig()
        let connection = Connection(rig.session)
        rig.session.owner = connection
        var sentWhenHeard: [String] = []
        rig.player.feed.listen(ChangeClosure { _ in sentWhenHeard.append(connection.sent) })
        rig.session.receive(Array("setvol 40".utf8))
        #expect(sentWhenHeard == ["OK\n"], "the volume's change was told after OK was sent")
        #expect(rig.player.volume == 0.4)
    }

    @Test func aCommandOfAListSeesWhatFollowersDidForTheOneBefore() {
        let rig = Rig()
        let before = rig.versions(rig.send("status"))
        let reply = rig.send("command_list_begin", "delete 0", "status", "command_list_end")
        #expect(rig.versions(reply) != before, "the queue's version in the list's status counts the delete")
        #expect(rig.value("playlistlength", in: reply) == "2")
    }

    @Test func statusSaysWhatThePlayerDoes() {
        let rig = Rig()
        rig.player.goTo(id: rig.player.trackIDs[1])
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        let reply = rig.send("status")
        #expect(rig.value("state", in: reply) == "play")
        #expect(rig.value("playlistlength", in: reply) == "3")
        #expect(rig.value("song", in: reply) == "1")
        #expect(rig.value("songid", in: reply) == String(rig.player.trackIDs[1]))
        #expect(rig.value("duration", in: reply) == "30.000")
        #expect(rig.value("nextsong", in: reply) == "2")
        #expect(reply.hasSuffix("OK\n"))
        _ = rig.send("pause 1")
        #expect(rig.player.status == .paused)
        #expect(rig.policy.events.last == .userPaused)
        #expect(rig.value("state", in: rig.send("status")) == "pause")
    }

    @Test func idleWakesOnAChangeFromAnyoneAndNoidleEndsIt() {
        let rig = Rig()
        #expect(rig.send("idle player mixer") == "")
        rig.player.pause()
        rig.player.play()
        #expect(String(decoding: rig.session.takeOutput(), as: UTF8.self) == "changed: player\nOK\n")
        #expect(rig.send("idle") == "", "nothing changed since the last reply")
        #expect(rig.send("noidle") == "OK\n")
        try? rig.player.setVolume(0.5)
        #expect(rig.send("idle mixer") == "changed: mixer\nOK\n", "a change between idles is kept for the next")
    }

    @Test func anythingButNoidleDuringIdleClosesTheConnection() {
        let rig = Rig()
        _ = rig.send("idle")
        _ = rig.send("status")
        #expect(rig.session.isClosing)
    }

    @Test func songIdsStayWithTheirEntriesAndTheVersionGrowsWithEachEdit() {
        let rig = Rig()
        let ids = rig.player.trackIDs
        let version = UInt32(rig.value("playlist", in: rig.send("status"))!)!
        _ = rig.send("deleteid \(ids[0])")
        let listing = rig.pairs(rig.send("playlistinfo")).filter { $0.0 == "Id" || $0.0 == "Pos" }.map(\.1)
        #expect(listing == ["0", String(ids[1]), "1", String(ids[2])])
        let after = UInt32(rig.value("playlist", in: rig.send("status"))!)!
        #expect(after > version)
        _ = rig.send("moveid \(ids[2]) 0")
        #expect(rig.player.trackIDs == [ids[2], ids[1]])
        let changes = rig.pairs(rig.send("plchangesposid \(after)")).map(\.1)
        #expect(changes == ["0", String(ids[2]), "1", String(ids[1])])
        #expect(rig.send("deleteid \(ids[0])") == "ACK [50@0] {deleteid} No such song\n")
    }

    /// An add the player takes at once answers in the same pass, and the lines after it run in order.
    @Test func addidAnswersWithTheNewEntrysIdAndPositionsFollow() {
        let rig = Rig()
        let reply = rig.send("command_list_begin", "addid http://example.invalid/9.ogg 0", "add http://example.invalid/10.ogg", "command_list_end")
        let ids = rig.player.trackIDs
        #expect(ids.count == 5)
        #expect(reply == "Id: \(ids[0])\nOK\n")
        #expect(rig.player.queue.entry(withID: ids[4])?.uri == "http://example.invalid/10.ogg")
        rig.player.goTo(id: ids[1])
        _ = rig.send("addid http://example.invalid/11.ogg +0")
        #expect(rig.player.queue.entry(atListIndex: 2)?.uri == "http://example.invalid/11.ogg", "+0: right after the current entry")
        #expect(rig.send("moveid \(ids[0]) +9223372036854775807") == "ACK [2@0] {moveid} Bad song index\n", "no overflow")
        #expect(rig.send("addid http://example.invalid/12.ogg -9223372036854775808") == "ACK [2@0] {addid} Bad song index\n")
        // As Debian's mpd answered python-mpd2 (the edges transcript): a target past the queue without the moved
        // songs is a number too large; a source past the queue is a bad index.
        let length = rig.player.trackIDs.count
        #expect(rig.send("move 0 40") == "ACK [2@0] {move} Number too large: 40\n")
        #expect(rig.send("move 0:2 \(length - 1)") == "ACK [2@0] {move} Number too large: \(length - 1)\n")
        #expect(rig.send("move 0:2 \(length - 2)") == "OK\n")
        #expect(rig.send("move 40 0") == "ACK [2@0] {move} Bad song index\n")
        #expect(rig.send("moveid \(ids[0]) 40") == "ACK [2@0] {moveid} Number too large: 40\n")
    }

    /// Consume: the entry playback moves away from leaves the queue (whoever moved it: MPD, MPRIS, the end of the
    /// track); oneshot does it once.
    @Test func consumeRemovesTheEntryLeftAndOneshotOnlyOnce() {
        let rig = Rig(tracks: 4)
        let ids = rig.player.trackIDs
        rig.player.goTo(id: ids[0])
        #expect(rig.send("consume 1") == "OK\n")
        #expect(rig.value("consume", in: rig.send("status")) == "1")
        rig.player.next()
        #expect(rig.player.trackIDs == Array(ids[1...]))
        _ = rig.send("consume oneshot")
        _ = rig.send("next")
        #expect(rig.player.trackIDs == Array(ids[2...]))
        #expect(rig.value("consume", in: rig.send("status")) == "0")
        rig.player.next()
        #expect(rig.player.trackIDs == Array(ids[2...]), "off again after once")
    }

    @Test func theTagTypesAskedForAreTheOnesListingsWrite() {
        let rig = Rig()
        #expect(MPDSongWriter.tagTypes.allSatisfy(rig.session.wantedTags.contains), "every tag until the client says otherwise")
        #expect(rig.send("tagtypes disable Title Genre") == "OK\n")
        #expect(!rig.session.wantedTags.contains("Title") && !rig.session.wantedTags.contains("Genre"))
        #expect(rig.session.wantedTags.contains("Artist") && rig.session.wantedTags.contains("MUSICBRAINZ_WORKID"))
        #expect(rig.send("tagtypes clear") == "OK\n")
        #expect(!MPDSongWriter.tagTypes.contains(where: rig.session.wantedTags.contains))
        #expect(rig.send("tagtypes enable Artist") == "OK\n")
        #expect(MPDSongWriter.tagTypes.filter(rig.session.wantedTags.contains) == ["Artist"])
        #expect(rig.send("tagtypes all") == "OK\n")
        #expect(MPDSongWriter.tagTypes.allSatisfy(rig.session.wantedTags.contains))
    }

    @Test func songsAreNamedRelativeToTheMusicFolder() {
        let writer = MPDSongWriter(musicFolder: "/music/")
        #expect(writer.name(of: MediaURI.file(path: "/music/A/01 b.ogg")) == "A/01 b.ogg")
        #expect(writer.name(of: MediaURI.file(path: "/elsewhere/c.ogg")) == "/elsewhere/c.ogg")
        #expect(writer.name(of: "http://example.invalid/s") == "http://example.invalid/s")
        #expect(writer.name(of: MediaURI.file(path: "/musicx/c.ogg")) == "/musicx/c.ogg", "a folder beside it, not inside")
        #expect(writer.name(of: MediaURI.file(path: "/music/\u{301}é/c.ogg")) == "\u{301}é/c.ogg", "the folder's bytes, then any character")
        #expect(MPDSongWriter(musicFolder: "/").name(of: MediaURI.file(path: "/a/b.ogg")) == "a/b.ogg")
        #expect(writer.name(ofPath: FilePath(escaped: "/music/A/01 b.ogg")) == "A/01 b.ogg")
        #expect(writer.uri(forName: "A/01 b.ogg") == MediaURI.file(path: "/music/A/01 b.ogg"))
        #expect(writer.uri(forName: "http://example.invalid/s") == "http://example.invalid/s")
    }

    @Test func commandsBeyondThePermissionsAreRefusedAndListedAsNotCommands() {
        let rig = Rig(permissions: [.read])
        #expect(rig.send("play") == "ACK [4@0] {play} you don't have permission for \"play\"\n")
        #expect(rig.send("notcommands").contains("command: play\n"))
        #expect(!rig.send("commands").contains("command: play\n"))
    }
}

/// The sound server's outputs as MPD's: enabling one moves Reprise's stream there; the one it plays to cannot be
/// disabled; ids stay with their outputs.
@Suite struct OutputCommandTests {
    final class TwoOutputs: MPDOutputs {
        var current = "speakers"
        var speakersPlugged = true
        var outputs: [(name: String, description: String, current: Bool)] {
            (speakersPlugged ? [("speakers", "Speakers", current == "speakers")] : []) + [("headphones", "Headphones", current == "headphones")]
        }
        var outputProblem = ""
        func setOutput(_ name: String) throws(PlayerError) { current = name }
    }

    @Test func enablingAnOutputMovesTheStreamAndTheCurrentOneStays() {
        let (player, _, _) = makePlayer(tracks: 1)
        let outputs = TwoOutputs()
        let bridge = MPDPlayerBridge(player: player, remote: RemoteControl(player: player, policy: RecordingPolicy()), library: nil, outputs: outputs, musicFolder: "/music")
        let session = MPDSession(commands: bridge.commands, permissions: .all)
        func send(_ line: String) -> String {
            session.receive(Array(line.utf8))
            return String(decoding: session.takeOutput(), as: UTF8.self)
        }
        #expect(send("outputs") == "outputid: 0\noutputname: Speakers\nplugin: pulse\noutputenabled: 1\n"
                + "outputid: 1\noutputname: Headphones\nplugin: pulse\noutputenabled: 0\nOK\n")
        #expect(send("enableoutput 1") == "OK\n")
        #expect(outputs.current == "headphones")
        #expect(send("disableoutput 1").hasPrefix("ACK [52@0] {disableoutput}"))
        #expect(send("toggleoutput 0") == "OK\n" && outputs.current == "speakers")
        #expect(send("enableoutput 7") == "ACK [50@0] {enableoutput} No such audio output\n")
        // An output that goes takes its id along; the others keep theirs, and it gets its own back.
        outputs.speakersPlugged = false
        #expect(send("outputs") == "outputid: 1\noutputname: Headphones\nplugin: pulse\noutputenabled: 0\nOK\n")
        #expect(send("enableoutput 0") == "ACK [50@0] {enableoutput} No such audio output\n")
        #expect(send("enableoutput 1") == "OK\n" && outputs.current == "headphones")
        outputs.speakersPlugged = true
        #expect(send("outputs").hasPrefix("outputid: 0\noutputname: Speakers\n"))
        // An output nothing consumes: MPD's `error` in status, and an attribute of the output in use.
        outputs.outputProblem = "Snapcast: nothing reads /tmp/fifo"
        #expect(send("status").contains("\nerror: Snapcast: nothing reads /tmp/fifo\n"))
        #expect(send("outputs").contains("outputname: Headphones\nplugin: pulse\noutputenabled: 1\nattribute: error=Snapcast: nothing reads /tmp/fifo\n"))
        // `clearerror` leaves it out of status (the output still says it) until another one comes.
        #expect(send("clearerror") == "OK\n")
        #expect(!send("status").contains("error:") && send("outputs").contains("attribute: error="))
        outputs.outputProblem = "Snapcast: the FIFO is full"
        #expect(send("status").contains("\nerror: Snapcast: the FIFO is full\n"))
        outputs.outputProblem = ""
        #expect(!send("status").contains("error:") && !send("outputs").contains("attribute"))
        outputs.outputProblem = "Snapcast: the FIFO is full"
        #expect(send("status").contains("\nerror: Snapcast: the FIFO is full\n"), "a problem that comes back is shown again")
    }
}

/// One mapping from the player's refusals to MPD's ACK codes, as MPD codes the same refusals.
@Suite struct PlayerErrorACKTests {
    @Test func eachRefusalHasMPDsCode() {
        #expect(MPDError(PlayerError.invalidArgument("bad")) == MPDError(.argument, "bad"))
        #expect(MPDError(PlayerError.unsupportedScheme("gopher")) == MPDError(.noExist, "gopher"))
        #expect(MPDError(PlayerError.unplayable("gone"), text: "No such song") == MPDError(.noExist, "No such song"))
        #expect(MPDError(PlayerError.busy("later")) == MPDError(.system, "later"))
    }

    @Test func aFileThatCannotBeReadIsNoSuchSong() {
        let (player, _, _) = makePlayer(tracks: 0)
        let bridge = MPDPlayerBridge(player: player, remote: RemoteControl(player: player, policy: RecordingPolicy()), library: nil,
                                     outputs: nil, musicFolder: "/music")
        let session = MPDSession(commands: bridge.commands, permissions: .all)
        session.receive(Array("add \"gopher://example.invalid/a.ogg\"".utf8))
        let reply = String(decoding: session.takeOutput(), as: UTF8.self)
        #expect(reply.hasPrefix("ACK [50@0] {add}"), "\(reply)")
    }
}
