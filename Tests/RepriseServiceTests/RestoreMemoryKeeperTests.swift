import PulseKit
import Testing
@testable import RepriseService

@Suite struct RestoreMemoryKeeperTests {
    static let game = SinkInputInfo(index: 7, sink: 0, processID: 5000, role: "game", applicationName: "app",
                                    volumes: [50_000, 50_000], muted: false, corked: false)

    /// The group is the one the server named on the stream where it named one (an app may name its own, as
    /// Reprise does), else stream-restore's own rule: role, then application.
    @Test func aStreamsGroupIsTheOneTheServerNamed() {
        #expect(RestoreMemoryKeeper.group(of: Self.game) == "sink-input-by-media-role:game")
        let named = SinkInputInfo(index: 8, sink: 0, processID: 5001, role: "music", applicationName: "Other",
                                  volumes: [65_536], muted: false, corked: false,
                                  restoreGroup: "sink-input-by-application-id:other")
        #expect(RestoreMemoryKeeper.group(of: named) == "sink-input-by-application-id:other")
        let roleless = SinkInputInfo(index: 9, sink: 0, processID: 5002, role: nil, applicationName: "Tool",
                                     volumes: [65_536], muted: false, corked: false)
        #expect(RestoreMemoryKeeper.group(of: roleless) == "sink-input-by-application-name:Tool")
    }

    /// A second round of ducking begins while the first is put back, and the answer to its read of the database
    /// (which the server took while the first round's restore was remembered) arrives after the first round wrote
    /// the old entries back: the second round must still end with the entries as they were before either.
    @Test func aRoundWhoseReadArrivesLateStillPutsBackWhatWasBeforeTheFirst() {
        let server = FakeSoundServer()
        server.report(.sinkInputChanged(Self.game, isNew: true))
        let keeper = RestoreMemoryKeeper(server: server)
        let group = RestoreMemoryKeeper.group(of: Self.game)
        #expect(server.remembered?[group] == nil, "the server never remembered this role")

        keeper.willChange([Self.game])
        server.setSinkInputVolume(7, [25_000, 25_000])
        server.setSinkInputVolume(7, [50_000, 50_000]) // the restore, which the server learns
        keeper.allRestored()
        #expect(server.remembered?[group] != nil)
        // Ducking again before the put-back is done: its read sees the learned entry, and its answer is late.
        server.holdReads = true
        keeper.willChange([Self.game])
        server.holdReads = false
        server.confirm() // the first round reads, removes the learned entry and finishes
        #expect(server.remembered?[group] == nil)
        server.answerReads()
        server.setSinkInputVolume(7, [25_000, 25_000])
        server.setSinkInputVolume(7, [50_000, 50_000])
        keeper.allRestored()
        server.confirm()
        #expect(server.remembered?[group] == nil, "remembered: \(String(describing: server.remembered?[group]))")
    }

    /// A second round begins and ends (duck, restore) while the first is still being put back: its read saw the
    /// entry the first round's restore taught the server. Neither round may leave that entry behind (seen on a stock
    /// PulseAudio: a call pauses Reprise, others are put back, it resumes and ducks again, a short sound ends…).
    @Test func aRoundThatEndsWhileAnEarlierOneIsPutBackLeavesNothingBehind() {
        let server = FakeSoundServer()
        server.report(.sinkInputChanged(Self.game, isNew: true))
        let keeper = RestoreMemoryKeeper(server: server)
        let group = RestoreMemoryKeeper.group(of: Self.game)

        keeper.willChange([Self.game])
        server.setSinkInputVolume(7, [25_000, 25_000])
        server.setSinkInputVolume(7, [50_000, 50_000])
        keeper.allRestored()
        // The second round, whole, before the server has answered the first round's put-back.
        keeper.willChange([Self.game])
        server.setSinkInputVolume(7, [25_000, 25_000])
        server.setSinkInputVolume(7, [50_000, 50_000])
        var finished = false
        keeper.allRestored { finished = true }
        server.confirm()
        #expect(finished)
        #expect(server.remembered?[group] == nil, "remembered: \(String(describing: server.remembered?[group]))")
    }
}
