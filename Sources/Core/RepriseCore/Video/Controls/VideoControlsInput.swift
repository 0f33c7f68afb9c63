/// What a person's input over the controls asks for; the video controller carries it out.
public enum VideoControlsAction: Equatable, Sendable {
    case togglePlayPause
    case seekBy(microseconds: Int64)
    case seekTo(microseconds: Int64)
    case toggleFullscreen, leaveFullscreen, toggleFitFill, togglePictureInPicture, leavePictureInPicture, close
    case skipInterstitial
    case setRate(Double)
    case chooseAudio(Int)
    case chooseSubtitles(Int?)
    case openMenu(ControlsMenu.Kind)
    /// The compositor or window manager moves the window with the pointer from the press at `rootX`, `rootY` on
    /// the screen (a press on Picture in Picture's picture).
    case beginWindowMove(rootX: Int, rootY: Int)
}

/// What a tap on the picture's centre did, shown over the picture for a moment.
public enum TapGlyph: Equatable, Sendable { case play, pause }

/// What the controls show and hold between events, and how pointer and key input becomes actions: press and release
/// on the same control activates it; a press on the scrubber drags it (the time under the pointer shown) and seeks
/// where it is let go; a double click on the picture toggles full screen; a single tap or click on the picture's
/// centre plays or pauses once the double-click interval has passed without a second (``tick(now:)``), leaving the
/// controls as they were and showing a glyph of what it did for a moment; the wheel over the picture seeks ±10 s;
/// in Picture in Picture a press on the picture moves the window; an open menu takes the next click, but the info
/// panel's text scrolls with the wheel, a drag on it or the arrow keys. Tab and Shift-Tab move a visible focus through
/// the controls, Enter and Space activate it, Escape closes a menu or drops the focus. Every event also counts for
/// ``ControlsVisibility``.
public struct VideoControlsInput: Sendable {
    /// The skip buttons' and ←/→'s step: the same as the media keys' skip actions.
    public static let skipStep = CustomActions.skipMicroseconds
    /// The double-click interval where the desktop sets none (GTK's default), and how far apart a double click's two
    /// clicks may be.
    public static let defaultDoubleClickSeconds = 0.4, doubleClickDistance = 8
    /// How long the glyph of a tap's play or pause shows.
    public static let tapGlyphSeconds = 0.6

    /// The desktop's double-click interval: two clicks within it are a double click, and a tap on the picture's
    /// centre waits it out before it plays or pauses.
    public var doubleClickSeconds = VideoControlsInput.defaultDoubleClickSeconds
    /// A wheel step or an arrow key scrolls the info panel's text this far (three lines).
    public static let infoScrollStep = 48

    public var visibility = ControlsVisibility()
    /// The menu open, if any.
    public private(set) var menu: ControlsMenu?
    /// The control Tab moved to (drawn with a focus ring).
    public private(set) var focused: OnScreenControl?
    /// The control pressed and not yet released.
    public private(set) var pressed: OnScreenControl?
    /// While the scrubber is dragged: where along it the pointer is (0…1).
    public private(set) var dragFraction: Double?
    private var lastClick: (x: Int, y: Int, at: Double)?
    /// A tap on the picture's centre waiting out the double-click interval.
    private var pendingTap: (x: Int, y: Int, at: Double)?
    /// The press down now is on the picture's centre: its release shows nothing either.
    private var pressedOnCentre = false
    /// Where and when motion last showed hidden controls: a touch through XWayland moves the pointer to where the
    /// finger lands just before the touch (``motionBeforeTapSeconds``).
    private var shownByMotion: (x: Int, y: Int, at: Double)?
    /// How soon before a tap at the same place a motion that showed the controls counts as the tap's own.
    public static let motionBeforeTapSeconds = 0.1
    /// What the last tap on the centre did, shown over the picture until `glyphUntil`.
    public private(set) var glyph: TapGlyph?
    private var glyphUntil: Double?
    /// While the info panel is dragged: where the press was, and the scroll then.
    private var panelDrag: (y: Int, scroll: Int)?

    public init() {}

    /// What the bar offers now: its layout, the scrubber, whether the skip button shows, and what menus list.
    public struct Context: Sendable {
        public var layout: VideoControlsLayout
        public var scrubber: VideoScrubber
        public var skipShown = false
        public var speeds = SpeedList()
        public var rate = 1.0
        public var audioTracks: [String] = [], currentAudio: Int?
        public var subtitleTracks: [String] = [], currentSubtitles: Int?
        /// The description's height, wrapped to the info panel's text width (``ControlsMenu/infoTextWidth(windowWidth:)``).
        public var infoTextHeight = 0

        public init(layout: VideoControlsLayout, scrubber: VideoScrubber) {
            self.layout = layout
            self.scrubber = scrubber
        }
    }

    /// The pointer moved to (`x`, `y`).
    public mutating func pointerMoved(x: Int, y: Int, at now: Double, in context: Context) {
        if visibility.interacted(at: now) { shownByMotion = (x, y, now) }
        if let drag = panelDrag { menu?.scroll(to: drag.scroll - (y - drag.y)) }
        visibility.pointerOverControlsChanged(context.layout.isOverControls(x: x, y: y) || menu?.rect.contains(x: x, y: y) == true, at: now)
        if pressed == .scrubber { dragFraction = context.layout.scrubberFraction(atX: x) }
    }

    /// The pointer left the window.
    public mutating func pointerLeft(at now: Double) {
        visibility.pointerOverControlsChanged(false, at: now)
    }

    /// A press of the primary button (or a touch) at `x`, `y` — `rootX`, `rootY` on the screen, where known.
    public mutating func pressed(x: Int, y: Int, rootX: Int? = nil, rootY: Int? = nil, at now: Double,
                                 in context: Context) -> [VideoControlsAction] {
        pressedOnCentre = false
        if let actions = tapOnCentre(x: x, y: y, at: now, in: context) { return actions }
        let wasHidden = visibility.interacted(at: now)
        // The info panel stays open under a press: dragging on it scrolls its text (a finger's way).
        if let open = menu, open.kind == .info, open.rect.contains(x: x, y: y) {
            panelDrag = (y, open.scroll)
            return []
        }
        if let open = menu {
            menu = nil
            visibility.menuChanged(open: false, at: now)
            guard let index = open.item(atX: x, y: y), let action = open.items[index].action else { return [] }
            return [action]
        }
        // A click on hidden controls only shows them; the skip button shows on its own and takes it.
        let hit = context.layout.control(atX: x, y: y, skipShown: context.skipShown)
        let control = wasHidden && context.layout.mode == .window && hit != .skipInterstitial ? nil : hit
        guard let control else {
            if context.layout.mode == .pictureInPicture { return [.beginWindowMove(rootX: rootX ?? x, rootY: rootY ?? y)] }
            if isDoubleClick(after: lastClick, x: x, y: y, at: now) {
                lastClick = nil
                return [.toggleFullscreen]
            }
            lastClick = (x, y, now)
            return []
        }
        lastClick = nil
        pressed = control
        if control == .scrubber { dragFraction = context.layout.scrubberFraction(atX: x) }
        return []
    }

    /// A press on the picture's centre (not on a control that shows, no menu open, in a window): the first waits out
    /// the double-click interval, a second within it toggles full screen. Hidden controls stay hidden. Nil for a press
    /// anywhere else.
    private mutating func tapOnCentre(x: Int, y: Int, at now: Double, in context: Context) -> [VideoControlsAction]? {
        let layout = context.layout
        guard menu == nil, let centre = layout.pictureCentre, centre.contains(x: x, y: y) else { return nil }
        if visibility.shown, let motion = shownByMotion, motion.x == x, motion.y == y, now - motion.at <= Self.motionBeforeTapSeconds {
            visibility.hide() // the pointer brought to the finger, not a person's motion
        }
        let hit = layout.control(atX: x, y: y, skipShown: context.skipShown)
        guard hit == nil || !visibility.shown && hit != .skipInterstitial else { return nil }
        if visibility.shown { visibility.interacted(at: now) }
        pressedOnCentre = true
        lastClick = nil
        if isDoubleClick(after: pendingTap, x: x, y: y, at: now) {
            pendingTap = nil
            return [.toggleFullscreen]
        }
        pendingTap = (x, y, now)
        return []
    }

    /// Whether a press at `x`, `y` at `now` is the second of a double click whose first was `first`.
    private func isDoubleClick(after first: (x: Int, y: Int, at: Double)?, x: Int, y: Int, at now: Double) -> Bool {
        guard let first else { return false }
        return now - first.at <= doubleClickSeconds && abs(x - first.x) <= Self.doubleClickDistance
            && abs(y - first.y) <= Self.doubleClickDistance
    }

    /// When ``tick(now:)`` has something to do next: a tap's interval ends, or its glyph goes (nil: nothing waits).
    public var nextDeadline: Double? {
        [pendingTap.map { $0.at + doubleClickSeconds }, glyphUntil].compactMap { $0 }.min()
    }

    /// The time has come (`now`): a tap on the centre whose double-click interval passed plays or pauses (a pause
    /// leaving hidden controls hidden), its glyph shown for ``tapGlyphSeconds``; a glyph whose time is up goes.
    public mutating func tick(now: Double) -> [VideoControlsAction] {
        if let until = glyphUntil, now >= until { (glyph, glyphUntil) = (nil, nil) }
        guard let tap = pendingTap, now >= tap.at + doubleClickSeconds else { return [] }
        pendingTap = nil
        let pausing = visibility.isPlaying
        if pausing { visibility.keepHiddenThroughPause(at: now) }
        (glyph, glyphUntil) = (pausing ? .pause : .play, now + Self.tapGlyphSeconds)
        return [.togglePlayPause]
    }

    /// The primary button came up at (`x`, `y`): the pressed control acts if the pointer is still on it (the
    /// scrubber wherever it is let go).
    public mutating func released(x: Int, y: Int, at now: Double, in context: Context) -> [VideoControlsAction] {
        if pressedOnCentre {
            pressedOnCentre = false
            if visibility.shown { visibility.interacted(at: now) }
            return []
        }
        visibility.interacted(at: now)
        defer { (pressed, dragFraction, panelDrag) = (nil, nil, nil) }
        guard let control = pressed else { return [] }
        if control == .scrubber {
            return context.scrubber.target(atFraction: context.layout.scrubberFraction(atX: x)).map { [.seekTo(microseconds: $0)] } ?? []
        }
        guard context.layout.control(atX: x, y: y, skipShown: context.skipShown) == control else { return [] }
        return activate(control, at: now, in: context)
    }

    /// The wheel turned `steps` notches (up: negative) over the window.
    public mutating func scrolled(steps: Int, x: Int, y: Int, at now: Double, in context: Context) -> [VideoControlsAction] {
        visibility.interacted(at: now)
        if let open = menu, open.kind == .info, open.rect.contains(x: x, y: y) {
            menu?.scroll(to: open.scroll + steps * Self.infoScrollStep)
            return []
        }
        guard steps != 0, menu == nil, !context.scrubber.refusesSeeks else { return [] }
        return [.seekBy(microseconds: steps < 0 ? Self.skipStep : -Self.skipStep)]
    }

    /// The keys the controls take; anything else only shows them (and does what it did before).
    /// `scrollUp` and `scrollDown` (the arrow keys) are taken only while the info panel is open.
    public enum Key: Sendable { case tab, shiftTab, activate, escape, scrollUp, scrollDown, other }

    /// A key: true when the controls took it (the window's own key handling leaves it alone).
    public mutating func key(_ key: Key, at now: Double, in context: Context) -> (taken: Bool, actions: [VideoControlsAction]) {
        visibility.interacted(at: now)
        let order = context.layout.focusOrder.filter { $0 != .scrubber }
        switch key {
        case .tab, .shiftTab:
            guard !order.isEmpty else { return (true, []) }
            let here = focused.flatMap { order.firstIndex(of: $0) }
            let step = key == .tab ? 1 : order.count - 1
            focused = order[here.map { ($0 + step) % order.count } ?? (key == .tab ? 0 : order.count - 1)]
            return (true, [])
        case .activate:
            guard let focused else { return (false, []) }
            return (true, activate(focused, at: now, in: context))
        case .escape:
            if menu != nil {
                menu = nil
                visibility.menuChanged(open: false, at: now)
                return (true, [])
            }
            guard focused != nil else { return (false, []) }
            focused = nil
            return (true, [])
        case .scrollUp, .scrollDown:
            guard let open = menu, open.kind == .info else { return (false, []) }
            menu?.scroll(to: open.scroll + (key == .scrollDown ? Self.infoScrollStep : -Self.infoScrollStep))
            return (true, [])
        case .other:
            return (false, [])
        }
    }

    /// What activating `control` does; a menu opens here.
    private mutating func activate(_ control: OnScreenControl, at now: Double, in context: Context) -> [VideoControlsAction] {
        let layout = context.layout
        switch control {
        case .playPause: return [.togglePlayPause]
        case .skipBack: return context.scrubber.refusesSeeks ? [] : [.seekBy(microseconds: -Self.skipStep)]
        case .skipForward: return context.scrubber.refusesSeeks ? [] : [.seekBy(microseconds: Self.skipStep)]
        case .scrubber: return []
        case .fitFill: return [.toggleFitFill]
        case .pictureInPicture: return [.togglePictureInPicture]
        case .fullscreen: return [.toggleFullscreen]
        case .skipInterstitial: return context.skipShown ? [.skipInterstitial] : []
        case .backToWindow: return [.leavePictureInPicture]
        case .close: return [.close]
        case .speed, .tracks, .info:
            guard let anchor = layout.rect(of: control) else { return [] }
            switch control {
            case .speed: menu = .speeds(context.speeds, current: context.rate, above: anchor, windowWidth: layout.width)
            case .tracks:
                menu = .tracks(audio: context.audioTracks, currentAudio: context.currentAudio, subtitles: context.subtitleTracks,
                               currentSubtitles: context.currentSubtitles, above: anchor, windowWidth: layout.width)
            default:
                let top = (layout.topBand.map { $0.y + $0.height } ?? 0) + VideoControlsLayout.gap
                menu = .info(textHeight: context.infoTextHeight, above: anchor, windowWidth: layout.width, top: top)
            }
            visibility.menuChanged(open: true, at: now)
            return [.openMenu(menu!.kind)]
        }
    }
}
