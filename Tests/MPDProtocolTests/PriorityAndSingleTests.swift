import RepriseCore
import Testing
@testable import MPDProtocol

/// `prio`/`prioid` (under random, higher priorities play first; `Prio` in the song, the playlist version bumped) and
/// `single oneshot` (the entry loops once, then the loop status is what it was).
@Suite struct PriorityAndSingleTests {
    @Test func underRandomTheEntriesWithAHigherPriorityPlayFirst() {
        let rig = SessionTests.Rig(tracks: 8)
        let ids = rig.player.trackIDs
        rig.player.goTo(id: ids[0])
        #expect(rig.send("random 1") == "OK\n")
        let before = rig.value("playlist", in: rig.send("status"))
        #expect(rig.send("prio 200 5:7") == "OK\n")
        #expect(rig.send("prioid 100 \(ids[2])") == "OK\n")
        let order = rig.player.queue.playOrder.map(\.id)
        #expect(order.first == ids[0], "the current entry stays where it is")
        #expect(Set(order[1...2]) == [ids[5], ids[6]])
        #expect(order[3] == ids[2])
        #expect(rig.value("playlist", in: rig.send("status")) != before)
        let song = rig.send("playlistid \(ids[5])")
        #expect(rig.value("Prio", in: song) == "200")
        #expect(rig.value("Prio", in: rig.send("playlistid \(ids[1])")) == nil, "priority 0 is not printed")
        #expect(rig.pairs(rig.send("plchangesposid \(before!)")).filter { $0.0 == "Id" }.map(\.1).sorted()
            == [ids[2], ids[5], ids[6]].map(String.init).sorted())
        rig.player.next()
        #expect([ids[5], ids[6]].contains(rig.player.queue.current?.id ?? -1))
    }

    @Test func prioritiesAreCheckedAndOutsideRandomChangeNothingAudible() {
        let rig = SessionTests.Rig(tracks: 3)
        let order = rig.player.queue.playOrder.map(\.id)
        #expect(rig.send("prio 256 0") == "ACK [2@0] {prio} Priority out of range: 256\n")
        #expect(rig.send("prio -1 0") == "ACK [2@0] {prio} Priority out of range: -1\n")
        #expect(rig.send("prio 10 3") == "ACK [2@0] {prio} Bad song index\n")
        #expect(rig.send("prioid 10 999") == "ACK [50@0] {prioid} No such song\n")
        #expect(rig.send("prio 10").hasPrefix("ACK [2@0] {prio}"))
        #expect(rig.send("prio 10 2") == "OK\n")
        #expect(rig.player.queue.playOrder.map(\.id) == order)
        #expect(rig.send("random 1") == "OK\n")
        #expect(rig.player.queue.playOrder.map(\.id)[1] == rig.player.trackIDs[2], "turning random on applies them")
    }

    /// MPD's single: `single 1` with `repeat 0` is "stop after this song" and reads `single: 1` (it once read 0, as
    /// Reprise mapped single to its Track loop); with `repeat 1` the song repeats; oneshot is off after its song.
    @Test func singleIsMPDsModeWhateverRepeatSays() {
        let rig = SessionTests.Rig(tracks: 3)
        let ids = rig.player.trackIDs
        rig.player.goTo(id: ids[0])
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        #expect(rig.send("single 1", "repeat 0") == "OK\nOK\n")
        var status = rig.send("status")
        #expect(rig.value("single", in: status) == "1" && rig.value("repeat", in: status) == "0")
        #expect(rig.value("nextsong", in: status) == "1", "MPD names the next song; it is not begun")
        #expect(rig.player.loopStatus == LoopStatus.none)
        rig.player.engineDidReachEnd()
        status = rig.send("status")
        #expect(rig.value("state", in: status) == "stop" && rig.value("song", in: status) == "0")
        #expect(rig.send("play", "repeat 1") == "OK\nOK\n")
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        #expect(rig.player.loopStatus == .track && rig.value("nextsong", in: rig.send("status")) == "0")
        rig.player.engineDidReachEnd()
        #expect(rig.player.queue.current?.id == ids[0] && rig.player.status == .playing, "repeated")
        #expect(rig.send("single oneshot") == "OK\n")
        rig.player.engineDidReachEnd()
        status = rig.send("status")
        #expect(rig.value("single", in: status) == "0" && rig.value("repeat", in: status) == "1")
        #expect(rig.player.queue.current?.id == ids[0], "played once more, then the queue repeats")
    }
}
