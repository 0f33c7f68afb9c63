/// When the controls show: on pointer motion or a tap over the window, or any key; while playing they hide after
/// ``hideDelay`` seconds without any, and the pointer hides with them; while paused, while a menu is open or while
/// the pointer rests over the bar they stay. Pausing shows them, unless a tap on the picture's centre paused. Times are
/// the loop's monotonic seconds.
public struct ControlsVisibility: Equatable, Sendable {
    public static let hideDelay = 3.0

    public private(set) var shown = false
    /// The last interaction, or the end of what kept them (a pause, a menu, the pointer over the bar).
    private var lastActivity = -Double.infinity
    public private(set) var isPlaying = true
    public private(set) var menuOpen = false
    public private(set) var pointerOverControls = false

    public init() {}

    /// The pointer hides with the controls.
    public var pointerHidden: Bool { !shown }

    /// When they hide unless something happens before (nil: they are hidden, or something keeps them).
    public var hideDeadline: Double? {
        guard shown, isPlaying, !menuOpen, !pointerOverControls else { return nil }
        return lastActivity + Self.hideDelay
    }

    /// Pointer motion, a tap, a click, a scroll or a key at `now`: they show (true when they were hidden).
    @discardableResult
    public mutating func interacted(at now: Double) -> Bool {
        lastActivity = max(lastActivity, now)
        defer { shown = true }
        return !shown
    }

    /// They hide now (motion that showed them turned out to be a touch's own).
    public mutating func hide() { shown = false }

    /// The time has come (`now`): they hide when due. True when they changed.
    public mutating func tick(now: Double) -> Bool {
        guard let deadline = hideDeadline, now >= deadline else { return false }
        shown = false
        return true
    }

    /// Playback paused (they show and stay, unless the pause was a tap's: ``keepHiddenThroughPause(at:)``) or plays
    /// on (the delay starts over).
    public mutating func playbackChanged(playing: Bool, at now: Double) {
        guard playing != isPlaying else { return }
        isPlaying = playing
        if !playing, (hiddenThroughPauseUntil.map { now > $0 } ?? true) { shown = true }
        hiddenThroughPauseUntil = nil
        lastActivity = max(lastActivity, now)
    }

    /// A tap on the picture's centre is pausing: the pause that comes within ``tapPauseSeconds`` leaves them as they
    /// are (hidden, as a tap that plays or pauses leaves them).
    public mutating func keepHiddenThroughPause(at now: Double) {
        hiddenThroughPauseUntil = now + Self.tapPauseSeconds
    }

    /// How long after a tap its pause may come and still leave the controls hidden.
    public static let tapPauseSeconds = 2.0
    private var hiddenThroughPauseUntil: Double?

    /// A menu opened or closed (the delay starts over when it closes).
    public mutating func menuChanged(open: Bool, at now: Double) {
        guard open != menuOpen else { return }
        menuOpen = open
        lastActivity = max(lastActivity, now)
    }

    /// The pointer came over the bar or left it (or the window).
    public mutating func pointerOverControlsChanged(_ over: Bool, at now: Double) {
        guard over != pointerOverControls else { return }
        pointerOverControls = over
        lastActivity = max(lastActivity, now)
    }
}
