import CoreTestDoubles
import RepriseCore
import Testing
@testable import MPDProtocol

/// `rangeid`: an entry plays part of its medium, as a shorter song: `Range`, `Time` and `duration` show the part,
/// the engine is told where it starts and ends, positions and seeks count from its start; refused as MPD refuses.
@Suite struct RangeTests {
    @Test func aRangedEntryPlaysItsPartAsAShorterSong() {
        let rig = SessionTests.Rig(tracks: 3)
        let ids = rig.player.trackIDs
        rig.player.entryDescribed(id: ids[1], tags: nil, lengthMicroseconds: 30_000_000, artURL: nil)
        let before = rig.value("playlist", in: rig.send("status"))!
        #expect(rig.send("rangeid \(ids[1]) 1.5:10") == "OK\n")
        var song = rig.send("playlistid \(ids[1])")
        #expect(rig.value("Range", in: song) == "1.500-10.000")
        #expect(rig.value("Time", in: song) == "9")
        #expect(rig.value("duration", in: song) == "8.500")
        #expect(rig.pairs(rig.send("plchangesposid \(before)")).contains { $0 == ("Id", "\(ids[1])") })
        #expect(rig.send("rangeid \(ids[1]) 20:") == "OK\n")
        song = rig.send("playlistid \(ids[1])")
        #expect(rig.value("Range", in: song) == "20.000-")
        #expect(rig.value("duration", in: song) == "10.000")
        #expect(rig.send("rangeid \(ids[1]) 2:30") == "OK\n", "an end at the medium's end plays to the end")
        #expect(rig.value("Range", in: rig.send("playlistid \(ids[1])")) == "2.000-")

        rig.player.goTo(id: ids[1])
        #expect(rig.engine.loadedRange == PlayRange(startMicroseconds: 2_000_000, endMicroseconds: nil))
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        rig.engine.position = 7_000_000
        let status = rig.send("status")
        #expect(rig.value("elapsed", in: status) == "5.000")
        #expect(rig.value("duration", in: status) == "28.000")
        #expect(rig.player.announcedTrack?.lengthMicroseconds == 28_000_000, "MPRIS's length is the part's")
        #expect(rig.send("seekcur 10") == "OK\n")
        #expect(rig.engine.requests.last == .seek(12_000_000), "a seek counts from the range's start")
        #expect(rig.send("rangeid \(ids[1]) :") == "ACK [4@0] {rangeid} Cannot edit the current song\n")
        rig.player.stop()
        #expect(rig.send("rangeid \(ids[1]) :") == "OK\n", "stopped, the current entry can change")
        #expect(rig.value("Range", in: rig.send("playlistid \(ids[1])")) == nil)
        #expect(rig.value("duration", in: rig.send("playlistid \(ids[1])")) == "30.000")
    }

    @Test func rangesAreCheckedAsMPDChecksThem() {
        let rig = SessionTests.Rig(tracks: 2)
        let id = rig.player.trackIDs[0]
        rig.player.entryDescribed(id: id, tags: nil, lengthMicroseconds: 30_000_000, artURL: nil)
        for bad in ["5:3", "5:5", "x:", "5", "-1:", "1:-2", "nan:", "inf:", "1e3:", "99999999999:"] {
            #expect(rig.send("rangeid \(id) \(bad)") == "ACK [2@0] {rangeid} Bad range\n", "\(bad)")
        }
        #expect(rig.send("rangeid 999 1:2") == "ACK [50@0] {rangeid} No such song\n")
        #expect(rig.send("rangeid \(id) 31:") == "ACK [2@0] {rangeid} Invalid start offset\n")
        #expect(rig.send("rangeid x 1:2") == "ACK [2@0] {rangeid} Integer expected: x\n")
        #expect(rig.send("rangeid \(id) :20") == "OK\n")
        #expect(rig.value("Range", in: rig.send("playlistid \(id)")) == "0.000-20.000")
    }

    @Test func aRangedEntryIsNeitherHandedOverNorHandedTo() {
        let rig = SessionTests.Rig(tracks: 3)
        let ids = rig.player.trackIDs
        rig.player.goTo(id: ids[0])
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        #expect(rig.engine.preparedNext == rig.player.queue.entry(withID: ids[1])?.uri)
        #expect(rig.send("rangeid \(ids[1]) 1:2") == "OK\n")
        #expect(rig.engine.preparedNext == nil, "the next entry starts with a seek: loaded when this one ends")
        rig.player.engineDidReachEnd()
        #expect(rig.player.queue.current?.id == ids[1])
        #expect(rig.engine.loadedRange == PlayRange(startMicroseconds: 1_000_000, endMicroseconds: 2_000_000))
        rig.player.engineDidPreroll(lengthMicroseconds: 30_000_000, seekable: true)
        #expect(rig.engine.preparedNext == nil, "it ends where the pipeline was told to stop, then the next loads")
    }
}
