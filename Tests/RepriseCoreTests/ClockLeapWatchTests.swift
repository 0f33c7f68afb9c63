import RepriseCore
import Testing

/// A sound output's clock that leaps far ahead of the time that passed is told; one that keeps time is not.
@Suite struct ClockLeapWatchTests {
    /// What the watch says of each reading (clock nanoseconds, wall seconds) in turn.
    private func verdicts(_ readings: [(clock: UInt64, wall: Double)]) -> [Bool] {
        var watch = ClockLeapWatch()
        return readings.map { watch.hasLeapt(clockNanoseconds: $0.clock, atWallSeconds: $0.wall) }
    }

    @Test func aClockThatKeepsTimeIsNeverALeap() {
        // A minute and a half of playing, read every second, the clock a little fast, then slow, as sound cards are.
        let readings: [(clock: UInt64, wall: Double)] = (0..<90).map { second in
            let drift = second < 45 ? UInt64(second) * 2_000_000 : UInt64(90 - second) * 1_000_000
            return (7_000_000_000 + UInt64(second) * 1_000_000_000 + drift, 100 + Double(second))
        }
        #expect(verdicts(readings) == Array(repeating: false, count: 90))
    }

    @Test func aPauseOfAnyLengthIsNoLeap() {
        // Paused for two days: the clock stood still, then goes on from where it stood.
        #expect(verdicts([(5_000_000_000, 10), (5_000_000_000, 10 + 2 * 86_400), (6_000_000_000, 11 + 2 * 86_400)])
                == [false, false, false])
    }

    @Test func aClockDecadesAheadIsALeapOnce() {
        // What libpulse read out after a pause right behind a seek (4,088,126 h), 0.8 s later; it then stands still.
        let leapt: UInt64 = 14_717_255_233_508_425_728
        #expect(verdicts([(12_237_000_000, 50), (leapt, 50.8), (leapt, 51.8)]) == [false, true, false])
    }

    @Test func aLeapBeforeTheFirstReadingIsToldWhenTheClocksBirthIsKnown() {
        // The pipeline was made at 20 s; its stream's first start read out decades, and the clock stood there.
        let leapt: UInt64 = 14_717_255_233_508_425_728
        var watch = ClockLeapWatch(clockBornAtWallSeconds: 20)
        #expect([(leapt, 21.0), (leapt, 22.0)].map { watch.hasLeapt(clockNanoseconds: $0.0, atWallSeconds: $0.1) } == [true, false])
        // Unknown birth: the first reading is only where the readings begin.
        #expect(verdicts([(leapt, 21), (leapt, 22)]) == [false, false])
    }

    @Test func aPipelineMadeLongBeforeItPlaysIsNoLeap() {
        // Made at start-up, first played an hour later for 30 s, then read.
        var watch = ClockLeapWatch(clockBornAtWallSeconds: 5)
        #expect(watch.hasLeapt(clockNanoseconds: 30_000_000_000, atWallSeconds: 3635) == false)
        #expect(watch.hasLeapt(clockNanoseconds: 31_000_000_000, atWallSeconds: 3636) == false)
    }

    @Test func theToleranceIsAMinuteBeyondTheTimeThatPassed() {
        #expect(verdicts([(1_000_000_000, 0), (71_000_000_000, 10.5), (133_000_000_000, 11.5)]) == [false, false, true])
    }

    @Test func aClockGoingBackIsNoLeapAndTheReadingsGoOnFromTheLeap() {
        // After a leap the stream is opened anew and its clock goes on from the leapt time (GStreamer keeps it running
        // forward): that is no second leap.
        let leapt: UInt64 = 14_717_255_233_508_425_728
        #expect(verdicts([(900_000_000_000, 0), (1_000_000_000, 1), (leapt, 2), (leapt + 300_000_000, 3.5),
                          (leapt + 1_300_000_000, 4.5)]) == [false, false, true, false, false])
    }
}
