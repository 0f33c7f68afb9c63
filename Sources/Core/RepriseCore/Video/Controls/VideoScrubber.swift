/// What the scrubber shows and where a click or drag on it seeks: the media's progress, the part buffered (network
/// media), chapter ticks and the interstitials marked — or, while an interstitial plays, that interstitial's own
/// progress, refusing the seeks its restrictions forbid. Fractions are 0…1 of the scrubber's width.
public struct VideoScrubber: Equatable, Sendable {
    /// The span the scrubber covers: the media, or the interstitial playing.
    public let startMicroseconds: Int64, endMicroseconds: Int64
    /// Where playback is (µs of the media).
    public let positionMicroseconds: Int64
    public let progress: Double
    /// The buffered range (nil: local media, or unknown).
    public let buffered: ClosedRange<Double>?
    /// Chapter starts (none while an interstitial plays).
    public let chapterTicks: [Double]
    /// Interstitials still to be watched (none while one plays).
    public let interstitialMarks: [ClosedRange<Double>]
    /// Seeking by the scrubber is refused (an interstitial that forbids it plays; or the media cannot seek).
    public let refusesSeeks: Bool

    /// - Parameters:
    ///   - lengthMicroseconds: the media's length (nil or 0: a live stream, nothing to scrub).
    ///   - bufferedPercent: how much of network media is buffered ahead (nil: not network media).
    public init(positionMicroseconds: Int64, lengthMicroseconds: Int64?, canSeek: Bool, chapters: ChapterList = .empty,
                schedule: InterstitialSchedule = InterstitialSchedule(), bufferedPercent: Int? = nil) {
        self.positionMicroseconds = positionMicroseconds
        let length = max(0, lengthMicroseconds ?? 0)
        if let index = schedule.active(at: positionMicroseconds) {
            let interstitial = schedule.interstitials[index]
            startMicroseconds = interstitial.startMicroseconds
            endMicroseconds = max(interstitial.startMicroseconds, interstitial.endMicroseconds)
            refusesSeeks = !canSeek || interstitial.forbidsSeekingWithin
            chapterTicks = []
            interstitialMarks = []
            buffered = nil
        } else {
            startMicroseconds = 0
            endMicroseconds = length
            refusesSeeks = !canSeek || length == 0
            func fraction(_ microseconds: Int64) -> Double { length > 0 ? min(1, max(0, Double(microseconds) / Double(length))) : 0 }
            chapterTicks = chapters.chapters.map { fraction($0.startMicroseconds) }.filter { $0 > 0 }
            interstitialMarks = schedule.interstitials.indices.filter { !schedule.watched.contains($0) }.map {
                fraction(schedule.interstitials[$0].startMicroseconds)...fraction(max(schedule.interstitials[$0].startMicroseconds,
                                                                                       schedule.interstitials[$0].endMicroseconds))
            }
            buffered = bufferedPercent.map { Double(min(100, max(0, $0))) / 100 }.map { 0...$0 }
        }
        let span = endMicroseconds - startMicroseconds
        progress = span > 0 ? min(1, max(0, Double(positionMicroseconds - startMicroseconds) / Double(span))) : 0
    }

    /// Where a click or drag at `fraction` seeks (µs of the media); nil when seeking is refused.
    public func target(atFraction fraction: Double) -> Int64? {
        guard !refusesSeeks, endMicroseconds > startMicroseconds, fraction.isFinite else { return nil }
        let clamped = min(1, max(0, fraction))
        return startMicroseconds + Int64((clamped * Double(endMicroseconds - startMicroseconds)).rounded())
    }

    /// The time labels at the scrubber's ends: elapsed, and what remains (`-0:42`), of the span shown.
    public var labels: (elapsed: String, remaining: String) {
        let span = endMicroseconds - startMicroseconds
        guard span > 0 else { return (Self.clock(positionMicroseconds), "") }
        let elapsed = min(span, max(0, positionMicroseconds - startMicroseconds))
        return (Self.clock(elapsed), "-" + Self.clock(span - elapsed))
    }

    /// `m:ss`, or `h:mm:ss` from an hour; whole seconds, rounded down.
    public static func clock(_ microseconds: Int64) -> String {
        let seconds = max(0, microseconds) / 1_000_000
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if seconds >= 3600 { return "\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60))" }
        return "\(seconds / 60):\(two(seconds % 60))"
    }
}
