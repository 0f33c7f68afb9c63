/// A control drawn over the video picture.
public enum OnScreenControl: Hashable, Sendable {
    case playPause, skipBack, skipForward, scrubber, speed, tracks, fitFill, pictureInPicture, info, fullscreen
    /// Over the picture's lower right while an interstitial may be skipped.
    case skipInterstitial
    /// Picture in Picture's own: back to the full window, and close.
    case backToWindow, close
}

/// A rectangle in window coordinates (logical pixels: the drawing multiplies them by the output's scale).
public struct ControlRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
    public var midX: Int { x + width / 2 }
    public var midY: Int { y + height / 2 }
}

/// Where the controls sit in a window of `width`×`height`: the title along the top; a bar along the bottom with
/// play/pause at its left end, −10 s and +10 s, the elapsed time, the scrubber across the middle, the remaining time,
/// then speed, tracks, fit/fill, Picture in Picture, info and full screen at its right end. A narrow window drops
/// info, fit/fill, tracks and speed (in that order) so the scrubber keeps room, a very small one the skips, the
/// times and Picture in Picture too. In Picture in Picture only play/pause
/// (the middle), back to the window (top left) and close (top right). Hit tests and the scrubber's mapping are here.
public struct VideoControlsLayout: Equatable, Sendable {
    public enum Mode: Sendable { case window, pictureInPicture }

    /// Sizes in logical pixels.
    public static let barHeight = 48, button = 40, gap = 4, margin = 8, timeLabel = 64, topBandHeight = 56
    public static let smallestScrubber = 80
    /// The skip button's size and the gap to the bar above which it sits.
    public static let skipSize = (width: 128, height: 40)

    public let width: Int, height: Int, mode: Mode
    /// The band of the title and subtitle (nil in Picture in Picture).
    public private(set) var topBand: ControlRect?
    /// The bottom bar (in Picture in Picture: the whole window).
    public private(set) var bar: ControlRect
    /// The buttons, left to right (the focus order, with the scrubber in its place).
    public private(set) var buttons: [(control: OnScreenControl, rect: ControlRect)] = []
    public private(set) var elapsedLabel: ControlRect?
    public private(set) var remainingLabel: ControlRect?
    /// Where the skip button goes when it shows.
    public let skipButton: ControlRect

    public init(width: Int, height: Int, mode: Mode = .window) {
        let width = max(1, width), height = max(1, height)
        (self.width, self.height, self.mode) = (width, height, mode)
        let b = Self.button, gap = Self.gap, margin = Self.margin
        skipButton = ControlRect(x: width - margin - Self.skipSize.width, y: height - Self.barHeight - margin - Self.skipSize.height,
                                 width: Self.skipSize.width, height: Self.skipSize.height)
        if mode == .pictureInPicture {
            bar = ControlRect(x: 0, y: 0, width: width, height: height)
            buttons = [(.backToWindow, ControlRect(x: margin, y: margin, width: b, height: b)),
                       (.playPause, ControlRect(x: width / 2 - b / 2, y: height / 2 - b / 2, width: b, height: b)),
                       (.close, ControlRect(x: width - margin - b, y: margin, width: b, height: b))]
            return
        }
        topBand = ControlRect(x: 0, y: 0, width: width, height: min(Self.topBandHeight, height / 3))
        bar = ControlRect(x: 0, y: max(0, height - Self.barHeight), width: width, height: min(Self.barHeight, height))
        let y = bar.y + (bar.height - b) / 2
        var leading: [OnScreenControl] = [.playPause, .skipBack, .skipForward]
        var trailing: [OnScreenControl] = [.speed, .tracks, .fitFill, .pictureInPicture, .info, .fullscreen]
        var labelled = true
        func scrubberRoom() -> Int {
            width - 2 * margin - (leading.count + trailing.count) * (b + gap) - (labelled ? 2 * (Self.timeLabel + gap) : 0)
        }
        // Least needed first (an empty group: the times); in a very small window at last only play/pause, the
        // scrubber and full screen.
        let optional: [[OnScreenControl]] = [[.info], [.fitFill], [.tracks], [.speed], [.skipBack, .skipForward], [], [.pictureInPicture]]
        for group in optional where scrubberRoom() < Self.smallestScrubber {
            if group.isEmpty { labelled = false }
            leading.removeAll(where: group.contains)
            trailing.removeAll(where: group.contains)
        }
        var x = margin
        for control in leading {
            buttons.append((control, ControlRect(x: x, y: y, width: b, height: b)))
            x += b + gap
        }
        let scrubberWidth = max(0, scrubberRoom())
        if labelled {
            elapsedLabel = ControlRect(x: x, y: y, width: Self.timeLabel, height: b)
            x += Self.timeLabel + gap
        }
        buttons.append((.scrubber, ControlRect(x: x, y: y, width: scrubberWidth, height: b)))
        x += scrubberWidth + gap
        if labelled {
            remainingLabel = ControlRect(x: x, y: y, width: Self.timeLabel, height: b)
            x += Self.timeLabel + gap
        }
        for control in trailing {
            buttons.append((control, ControlRect(x: x, y: y, width: b, height: b)))
            x += b + gap
        }
    }

    public static func == (a: VideoControlsLayout, b: VideoControlsLayout) -> Bool {
        a.width == b.width && a.height == b.height && a.mode == b.mode
    }

    /// The rectangle of `control`, when it is laid out (the skip button's whether or not it shows).
    public func rect(of control: OnScreenControl) -> ControlRect? {
        control == .skipInterstitial ? skipButton : buttons.first { $0.control == control }?.rect
    }

    /// The controls in the order Tab moves through them.
    public var focusOrder: [OnScreenControl] { buttons.map(\.control) }

    /// The control at (`x`, `y`), the skip button counted only when it shows; nil over the bare picture.
    public func control(atX x: Int, y: Int, skipShown: Bool = false) -> OnScreenControl? {
        if skipShown, skipButton.contains(x: x, y: y) { return .skipInterstitial }
        return buttons.first { $0.rect.contains(x: x, y: y) }?.control
    }

    /// The picture's centre, where a tap plays or pauses (the middle half of the window each way), in a window; none
    /// in Picture in Picture, where a press on the picture moves the window.
    public var pictureCentre: ControlRect? {
        mode == .window ? ControlRect(x: width / 4, y: height / 4, width: width / 2, height: height / 2) : nil
    }

    /// Where a tap's glyph shows: a disc in the middle of the window.
    public var tapGlyph: ControlRect {
        let side = Self.tapGlyphSide
        return ControlRect(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
    }

    public static let tapGlyphSide = 80

    /// Whether (`x`, `y`) is over the bar (or the top band), where the controls stay while the pointer rests.
    public func isOverControls(x: Int, y: Int) -> Bool {
        mode == .window && (bar.contains(x: x, y: y) || topBand?.contains(x: x, y: y) == true)
    }

    /// How far along the scrubber `x` is, 0…1 (clamped: a drag may leave the scrubber).
    public func scrubberFraction(atX x: Int) -> Double {
        guard let track = rect(of: .scrubber), track.width > 1 else { return 0 }
        return min(1, max(0, Double(x - track.x) / Double(track.width - 1)))
    }

    /// The window `x` of a scrubber `fraction` (0…1).
    public func scrubberX(forFraction fraction: Double) -> Int {
        guard let track = rect(of: .scrubber) else { return 0 }
        let clamped = fraction.isFinite ? min(1, max(0, fraction)) : 0
        return track.x + Int((clamped * Double(max(0, track.width - 1))).rounded())
    }
}
