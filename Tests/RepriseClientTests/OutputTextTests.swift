import RepriseCore
import SDBus
import Testing
@testable import RepriseClient

/// What the verbs and the terminal view print: times, gains, the sleep timer, numbers another player reports.
@Suite struct OutputTextTests {
    @Test(arguments: [(Int64(0), "0:00"), (9_000_000, "0:09"), (95_000_000, "1:35"), (3_600_000_000, "1:00:00"),
                      (3_725_000_000, "1:02:05"), (-5, "0:00")])
    func clockText(_ microseconds: Int64, _ text: String) {
        #expect(clock(microseconds) == text)
    }

    @Test func aClockNeverShowsMoreThanAHundredYears() {
        #expect(clock(.max) == clock(ReportedNumbers.longest))
    }

    @Test func sleepTexts() {
        #expect(sleepText(timer: "off", remaining: 5) == "off")
        #expect(sleepText(timer: "duration", remaining: 1_798_000_000) == "pausing in 29:58")
        #expect(sleepText(timer: "end-of-track", remaining: 190_000_000) == "pausing at the end of this track (in 3:10)")
        #expect(sleepText(timer: "end-of-chapter", remaining: -1) == "pausing at the end of this chapter (in ?)")
    }

    @Test func decibelsWithOneDecimalAndASign() {
        #expect(ReportedNumbers.decibels(3) == "+3.0 dB")
        #expect(ReportedNumbers.decibels(-6.54) == "-6.5 dB")
        #expect(ReportedNumbers.decibels(0) == "0.0 dB")
        #expect(ReportedNumbers.decibels(.nan) == "0.0 dB")
    }

    @Test func equalizerGainsSigned() {
        #expect(EqualizerCommand.signed(6) == "+6")
        #expect(EqualizerCommand.signed(-4.5) == "-4.5")
        #expect(EqualizerCommand.signed(0) == "0")
    }

    @Test func numbersFromABrokenPlayerAreMadeSafe() {
        #expect(ReportedNumbers.volume(.nan) == nil && ReportedNumbers.volume(-1) == 0 && ReportedNumbers.volume(1e9) == 100)
        #expect(ReportedNumbers.rate(.infinity) == 1 && ReportedNumbers.rate(0) == 1 && ReportedNumbers.rate(2) == 2)
        #expect(ReportedNumbers.microseconds(nil) == 0 && ReportedNumbers.microseconds(-3) == 0)
        #expect(ReportedNumbers.finite(-2000) == 0 && ReportedNumbers.finite(-3) == -3)
    }

    @Test func theViewExtrapolatesThePositionWhilePlayingAndStopsAtTheLength() {
        var state = NowPlayingState()
        state.status = "Playing"
        state.position = 10_000_000
        state.positionTime = 100
        state.rate = 2
        state.metadata = ["mpris:length": .int64(20_000_000)]
        #expect(state.position(at: 102) == 14_000_000)
        #expect(state.position(at: 200) == 20_000_000)
        state.status = "Paused"
        #expect(state.position(at: 200) == 10_000_000)
    }

    @Test func theViewCountsTheSleepTimerDownWhilePlaying() {
        var state = NowPlayingState()
        #expect(state.sleepLine(at: 0) == nil)
        state.sleepTimer = "duration"
        state.sleepRemaining = 60_000_000
        state.sleepTime = 10
        state.status = "Playing"
        #expect(state.sleepLine(at: 40) == "pausing in 0:30")
        state.status = "Paused"
        #expect(state.sleepLine(at: 40) == "pausing in 1:00")
    }

    @Test func theBarsLabels() {
        var state = NowPlayingState()
        state.status = "Playing"
        #expect(state.label(of: ControlLayout.playPause) == "❚❚ Pause")
        state.status = "Paused"
        #expect(state.label(of: ControlLayout.playPause) == "▶ Play")
        #expect(state.label(of: ControlLayout.next) == "Next ▶|")
    }

    @Test func theViewReadsTheCustomActionsAndTheLayout() {
        var state = NowPlayingState()
        state.applyControls([
            "Actions": .array(elementSignature: "(sssb)", [.structure([.string("skip-back"), .string("−10 s"), .string(""), .bool(true)])]),
            "Layout": .structure([.strings(["previous", "skip-back"]), .strings(["more"])]),
        ])
        #expect(state.actions.count == 1 && state.actions[0].id == "skip-back" && state.actions[0].enabled)
        #expect(state.bottomRow == ["previous", "skip-back"] && state.expandedRow == ["more"])
        #expect(state.label(of: "skip-back") == "−10 s")
    }
}
