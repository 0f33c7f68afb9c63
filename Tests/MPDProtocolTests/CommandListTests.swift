import CoreTestDoubles
import RepriseCore
import Testing
@testable import MPDProtocol

/// Command lists at MPD's limits run as a loop (no recursion to overflow the stack, no copy of the list per line),
/// and the session's owner can pause any run between two commands and resume it where it stopped.
@Suite struct CommandListTests {
    /// An owner that pauses the run before every `every`th command and counts its pauses.
    final class PausingOwner: MPDSessionOwner {
        let every: Int
        var asked = 0, pauses = 0, outputs = 0
        init(every: Int) { self.every = every }
        func sessionHasOutput(_ session: MPDSession) { outputs += 1 }
        func sessionShouldPause(_ session: MPDSession) -> Bool {
            asked += 1
            guard asked % every == 0 else { return false }
            pauses += 1
            return true
        }
    }

    /// A list as long as MPD's 2 MiB limit lets `ping` be (419,430 commands) runs whole: one `OK`.
    @Test func aListAtMPDsSizeLimitRunsWhole() {
        let rig = SessionTests.Rig(tracks: 1)
        let count = (MPDSession.maximumCommandListBytes) / "ping\n".utf8.count
        rig.session.receive(Array("command_list_ok_begin".utf8))
        for _ in 0..<count { rig.session.receive(Array("ping".utf8)) }
        rig.session.receive(Array("command_list_end".utf8))
        let reply = rig.session.takeOutput()
        #expect(reply.count == count * "list_OK\n".utf8.count + 3)
        #expect(reply.suffix(3).elementsEqual("OK\n".utf8))
        #expect(rig.send("ping") == "OK\n", "the session goes on")
    }

    /// One byte past the limit closes the connection, as MPD closes it.
    @Test func aListPastTheLimitClosesTheSession() {
        let rig = SessionTests.Rig(tracks: 1)
        rig.session.receive(Array("command_list_begin".utf8))
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 1023)
        for _ in 0..<(MPDSession.maximumCommandListBytes / 1024) { rig.session.receive(line) }
        #expect(!rig.session.isClosing)
        rig.session.receive(Array("ping".utf8))
        #expect(rig.session.isClosing)
    }

    @Test func aPausedRunGoesOnWhereItStoppedAndLinesSentMeanwhileWait() {
        let rig = SessionTests.Rig(tracks: 3)
        let owner = PausingOwner(every: 4)
        rig.session.owner = owner
        for line in ["command_list_ok_begin", "setvol 10", "setvol 20", "setvol 30", "setvol 40", "setvol 50", "command_list_end", "getvol"] {
            rig.session.receive(Array(line.utf8))
        }
        #expect(rig.session.isPaused && rig.session.isBusy)
        #expect(rig.player.volume == 0.3, "three commands ran before the pause")
        #expect(String(decoding: rig.session.takeOutput(), as: UTF8.self) == "list_OK\nlist_OK\nlist_OK\n")
        rig.session.receive(Array("ping".utf8)) // waits behind the list
        rig.session.resume()
        #expect(rig.player.volume == 0.5)
        rig.session.resume() // paused again before ping (the 8th command asked about)
        #expect(!rig.session.isBusy)
        #expect(String(decoding: rig.session.takeOutput(), as: UTF8.self) == "list_OK\nlist_OK\nOK\nvolume: 50\nOK\nOK\n")
        #expect(owner.pauses == 2 && owner.outputs == 2)
    }

    @Test func anErrorInAPausedListStillNamesItsIndex() {
        let rig = SessionTests.Rig(tracks: 3)
        let owner = PausingOwner(every: 2)
        rig.session.owner = owner
        for line in ["command_list_begin", "ping", "ping", "setvol 150", "ping", "command_list_end"] { rig.session.receive(Array(line.utf8)) }
        while rig.session.isPaused { rig.session.resume() }
        #expect(String(decoding: rig.session.takeOutput(), as: UTF8.self) == "ACK [2@2] {setvol} Number too large: 150\n")
    }
}
