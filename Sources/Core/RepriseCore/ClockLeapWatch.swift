/// Tells when the clock a pipeline runs on has leapt far ahead of the time that passed: the sign of a sound output whose
/// clock went bad. libpulse's interpolated stream time (PulseAudio 15 and later, and pipewire-pulse through it) can read
/// out a time decades ahead right after the stream is corked, flushed and uncorked in quick succession (a pause right
/// behind a seek). GStreamer's audio clock never runs backwards, so it then stands still at that time: the pipeline
/// says PLAYING, no sound comes and the position does not move, until the stream is opened anew.
///
/// A working clock advances at the rate of the wall clock (the playback rate is applied to the stream, not the clock);
/// ``toleranceSeconds`` leaves room for a sound server's timing corrections and a busy machine.
public struct ClockLeapWatch: Sendable {
    public static let toleranceSeconds = 60.0
    private var last: (clockNanoseconds: UInt64, wallSeconds: Double)?

    public init() {}

    /// A watch for a clock that did not exist before `wallSeconds` (a new pipeline's audio sink, whose clock begins at
    /// 0): its very first reading is a leap already when it is further ahead than the time since then — libpulse can
    /// read out such a time at a stream's first start, and a clock that then stands still never leaps again.
    public init(clockBornAtWallSeconds wallSeconds: Double) {
        last = (0, wallSeconds)
    }

    /// Records a reading of the clock taken at `wallSeconds` (a monotonic clock); true when the clock has gone further
    /// ahead since the last reading than the time that passed, plus the tolerance.
    public mutating func hasLeapt(clockNanoseconds: UInt64, atWallSeconds wallSeconds: Double) -> Bool {
        defer { last = (clockNanoseconds, wallSeconds) }
        guard let last, clockNanoseconds > last.clockNanoseconds else { return false }
        let advanced = Double(clockNanoseconds - last.clockNanoseconds) / 1e9
        return advanced > max(0, wallSeconds - last.wallSeconds) + Self.toleranceSeconds
    }
}
