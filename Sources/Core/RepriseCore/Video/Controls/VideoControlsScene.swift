/// Everything the controls' drawing shows at one moment: the window's painter turns it into pixels, nothing else
/// decides what is seen.
public struct VideoControlsScene: Equatable, Sendable {
    public var layout: VideoControlsLayout
    /// The bar, the title and any menu show (the skip button shows on its own).
    public var shown = false
    public var title = ""
    public var subtitle: String?
    public var playing = true
    public var fullscreen = false
    public var scrubber: VideoScrubber
    /// Where along the scrubber a drag is (0…1), its time shown above it.
    public var dragFraction: Double?
    public var focused: OnScreenControl?
    public var hovered: OnScreenControl?
    public var menu: ControlsMenu?
    /// The info panel's text (the sidecar's description).
    public var infoText: String?
    public var rate = 1.0
    public var skip = SkipButtonState.hidden
    /// A tap on the picture's centre just played or paused: its glyph shows over the picture (controls or not).
    public var glyph: TapGlyph?

    public init(layout: VideoControlsLayout, scrubber: VideoScrubber) {
        self.layout = layout
        self.scrubber = scrubber
    }
}

extension VideoControlsScene {
    /// The rows (logical pixels, ascending, apart) that anything is drawn on: the title's band and the bar with what
    /// rises above it (the time bubble of a drag, a menu or the info panel, the skip button); all of a Picture in
    /// Picture window. A window shows these strips alone, so a large window costs the strips' pixels, not its own.
    public var drawnRows: [Range<Int>] {
        let height = layout.height
        guard height > 0, layout.width > 0 else { return [] }
        if layout.mode == .pictureInPicture { return shown ? [0..<height] : [] }
        var strips: [Range<Int>] = []
        if shown, let band = layout.topBand, band.height > 0 { strips.append(band.y..<band.y + band.height) }
        var bottom: Int?
        if shown { bottom = min(layout.bar.y - Self.bubbleRise, menu?.rect.y ?? .max) }
        if skip != .hidden { bottom = min(bottom ?? .max, layout.skipButton.y) }
        if let bottom { strips.append(max(0, bottom)..<height) }
        if glyph != nil {
            let disc = layout.tapGlyph
            strips.append(max(0, disc.y)..<min(height, disc.y + disc.height))
        }
        // Strips that meet (a short window) are one.
        return strips.sorted { $0.lowerBound < $1.lowerBound }.reduce(into: []) { merged, strip in
            if let last = merged.last, strip.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, strip.upperBound)
            } else {
                merged.append(strip)
            }
        }
    }

    /// How far above the bar a drag's time bubble reaches.
    static let bubbleRise = 32

    /// Whether this scene draws what `other` drew: the same in everything, with the scrubber's progress on the same
    /// pixel of its width and the same time labels — playback moving on within a pixel and a second, or the pointer
    /// moving, repaints nothing.
    /// `ignoringPlayback`: where playback is (progress, times, buffered range) is left out too — what the pointer
    /// and keys change is repainted at once, playback moving on at the controls' own pace.
    public func drawsTheSame(as other: VideoControlsScene, ignoringPlayback: Bool = false) -> Bool {
        var mine = self
        mine.scrubber = other.scrubber
        guard mine == other else { return false }
        let (this, that) = (scrubber, other.scrubber)
        guard this.startMicroseconds == that.startMicroseconds, this.endMicroseconds == that.endMicroseconds,
              this.chapterTicks == that.chapterTicks, this.interstitialMarks == that.interstitialMarks,
              this.refusesSeeks == that.refusesSeeks else { return false }
        if ignoringPlayback { return true }
        let width = Double(layout.rect(of: .scrubber)?.width ?? 0)
        return this.buffered == that.buffered && (this.progress * width).rounded() == (that.progress * width).rounded()
            && this.labels == that.labels
    }
}

/// The interstitial skip button: hidden (no interstitial, or one that never allows skipping), counting down to the
/// moment it may be skipped, or ready.
public enum SkipButtonState: Equatable, Sendable {
    case hidden
    case countdown(seconds: Int)
    case ready

    /// For the interstitial playing at `position` of `schedule`.
    public init(schedule: InterstitialSchedule, position: Int64) {
        guard let left = schedule.timeUntilSkippable(at: position) else {
            self = .hidden
            return
        }
        self = left == 0 ? .ready : .countdown(seconds: Int((left + 999_999) / 1_000_000))
    }

    /// What the button says.
    public var label: String? {
        switch self {
        case .hidden: nil
        case .countdown(let seconds): "Skip in \(seconds)"
        case .ready: "Skip"
        }
    }
}
