import Testing
@testable import RepriseCore

/// Route changes from fabricated sink information (null sinks have no ports to unplug).
@Suite struct OutputTrackerTests {
    let speakers = Output(index: 0, name: "speakers", description: "Speakers", portAvailable: true)
    let headphones = Output(index: 1, name: "headphones", description: "Headphones", portAvailable: true)

    @Test func unpluggingTheJackOfTheOutputInUseLosesIt() {
        var tracker = OutputTracker()
        _ = tracker.outputChanged(speakers)
        tracker.streamIsOn(0)
        #expect(tracker.outputChanged(Output(index: 0, name: "speakers", description: "Speakers", portAvailable: nil)) == nil)
        #expect(tracker.outputChanged(Output(index: 0, name: "speakers", description: "Speakers", portAvailable: false)) == .outputLost)
        // Reported once, not again on the next unrelated change of the same sink.
        #expect(tracker.outputChanged(Output(index: 0, name: "speakers", description: "Speakers!", portAvailable: false)) == nil)
        // Another sink's jack does not matter.
        #expect(tracker.outputChanged(Output(index: 1, name: "headphones", description: "", portAvailable: false)) == nil)
    }

    @Test func removingTheOutputInUseLosesItEvenAfterPulseMovedTheStream() {
        var tracker = OutputTracker()
        _ = tracker.outputChanged(speakers)
        _ = tracker.outputChanged(headphones)
        tracker.streamIsOn(1)
        tracker.streamIsOn(0) // moved to the fallback first…
        #expect(tracker.outputRemoved(1) == .outputLost) // …then the removal is reported
        #expect(tracker.outputRemoved(5) == nil)
    }

    @Test func aNewDefaultIsFollowedUnlessTheUserChose() {
        var tracker = OutputTracker()
        _ = tracker.outputChanged(speakers)
        #expect(tracker.defaultChanged(to: "speakers") == (nil, nil))
        tracker.streamIsOn(0)
        _ = tracker.outputChanged(headphones)
        let follow = tracker.defaultChanged(to: "headphones")
        #expect(follow.moveTo == "headphones" && follow.event == .outputAdded)
        tracker.streamIsOn(1)
        #expect(tracker.choose("speakers") == "speakers")
        tracker.streamIsOn(0)
        #expect(tracker.defaultChanged(to: "headphones").moveTo == nil)
        // The chosen output vanishing forgets the choice.
        #expect(tracker.outputRemoved(0) == .outputLost)
        #expect(tracker.chosenName == nil)
    }

    @Test func aDefaultChangedByARemovalIsNoNewDevice() {
        var tracker = OutputTracker()
        _ = tracker.outputChanged(speakers)
        _ = tracker.outputChanged(headphones)
        _ = tracker.defaultChanged(to: "speakers")
        tracker.streamIsOn(0)
        // PulseAudio moved the stream itself before Reprise heard of the new default: still a new device.
        tracker.streamIsOn(1)
        #expect(tracker.defaultChanged(to: "headphones") == (nil, .outputAdded))
        tracker.streamIsOn(0)
        #expect(tracker.outputRemoved(1) == .outputLost)
        #expect(tracker.defaultChanged(to: "speakers") == (nil, nil))
    }
}
