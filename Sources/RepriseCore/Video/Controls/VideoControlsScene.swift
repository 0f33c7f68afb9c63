/// Everything the controls' drawing shows at one moment: the window's painter turns it into pixels, nothing else
/// decides what is seen.
public struct VideoControlsScene: Sendable {
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

    public init(layout: VideoControlsLayout, scrubber: VideoScrubber) {
        self.layout = layout
        self.scrubber = scrubber
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
