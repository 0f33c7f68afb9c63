/// A menu the bar opens above one of its buttons: the playback speeds, or the audio and subtitle tracks, each item
/// saying what choosing it does and whether it is the one in use; or the info panel with the description, as tall as
/// its text where the window has room and scrolled where it has not.
public struct ControlsMenu: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case speed, tracks, info }

    public struct Item: Equatable, Sendable {
        public var label: String
        public var action: VideoControlsAction?
        public var checked: Bool
        public init(label: String, action: VideoControlsAction?, checked: Bool = false) {
            (self.label, self.action, self.checked) = (label, action, checked)
        }
    }

    public static let itemHeight = 32, width = 200, infoWidth = 360
    /// The info panel's text sits this far inside its edges (left and right, top and bottom).
    public static let infoInsetX = 12, infoInsetY = 10
    /// The info panel is never shorter than this.
    public static let infoMinimumHeight = 40

    public let kind: Kind
    public let items: [Item]
    /// Where it is drawn: above its button, inside the window.
    public let rect: ControlRect
    /// The info panel's text height (its lines wrapped to ``infoTextWidth(windowWidth:)``); 0 for a menu.
    public let contentHeight: Int
    /// How far the info panel's text is scrolled up, 0…``scrollLimit``.
    public private(set) var scroll = 0

    public init(kind: Kind, items: [Item], above anchor: ControlRect, windowWidth: Int) {
        self.init(kind: kind, items: items, height: max(1, items.count) * Self.itemHeight, contentHeight: 0, above: anchor,
                  windowWidth: windowWidth)
    }

    private init(kind: Kind, items: [Item], height: Int, contentHeight: Int, above anchor: ControlRect, windowWidth: Int) {
        self.kind = kind
        self.items = items
        self.contentHeight = contentHeight
        let width = min(kind == .info ? Self.infoWidth : Self.width, max(1, windowWidth))
        let x = min(max(0, anchor.midX - width / 2), max(0, windowWidth - width))
        rect = ControlRect(x: x, y: max(0, anchor.y - height - VideoControlsLayout.gap), width: width, height: height)
    }

    /// The info panel above `anchor`: as tall as its text (`textHeight` pixels at ``infoTextWidth(windowWidth:)``), but
    /// not above `top` (below the title's band); a longer text scrolls.
    public static func info(textHeight: Int, above anchor: ControlRect, windowWidth: Int, top: Int) -> ControlsMenu {
        let room = max(Self.infoMinimumHeight, anchor.y - VideoControlsLayout.gap - top)
        let textHeight = max(0, textHeight)
        let height = max(Self.infoMinimumHeight, min(textHeight, room) + 2 * Self.infoInsetY)
        return ControlsMenu(kind: .info, items: [], height: min(height, room), contentHeight: textHeight, above: anchor,
                            windowWidth: windowWidth)
    }

    /// The width the info panel's text wraps to in a window `windowWidth` wide.
    public static func infoTextWidth(windowWidth: Int) -> Int { max(1, min(Self.infoWidth, max(1, windowWidth)) - 2 * Self.infoInsetX) }

    /// How far the info panel's text can scroll: what does not fit between its insets.
    public var scrollLimit: Int { max(0, contentHeight - (rect.height - 2 * Self.infoInsetY)) }

    /// Scrolls the info panel's text to `offset` (kept within 0…``scrollLimit``).
    public mutating func scroll(to offset: Int) { scroll = min(max(0, offset), scrollLimit) }

    /// The playback speeds, the one in use checked.
    public static func speeds(_ list: SpeedList, current rate: Double, above anchor: ControlRect, windowWidth: Int) -> ControlsMenu {
        ControlsMenu(kind: .speed, items: list.speeds.map {
            Item(label: speedLabel($0), action: .setRate($0), checked: abs($0 - rate) < 1e-9)
        }, above: anchor, windowWidth: windowWidth)
    }

    /// The audio tracks, then "Subtitles off" and the subtitle tracks; headings are items without an action.
    public static func tracks(audio: [String], currentAudio: Int?, subtitles: [String], currentSubtitles: Int?,
                              above anchor: ControlRect, windowWidth: Int) -> ControlsMenu {
        var items = [Item(label: "Audio", action: nil)]
        items += audio.enumerated().map { Item(label: $1, action: .chooseAudio($0), checked: $0 == currentAudio) }
        items.append(Item(label: "Subtitles", action: nil))
        items.append(Item(label: "Off", action: .chooseSubtitles(nil), checked: currentSubtitles == nil))
        items += subtitles.enumerated().map { Item(label: $1, action: .chooseSubtitles($0), checked: $0 == currentSubtitles) }
        return ControlsMenu(kind: .tracks, items: items, above: anchor, windowWidth: windowWidth)
    }

    /// `1×`, `1.25×`, `0.5×`.
    public static func speedLabel(_ rate: Double) -> String {
        let hundredths = Int((rate * 100).rounded())
        var text = "\(hundredths / 100)"
        if hundredths % 100 != 0 {
            var fraction = String(String(hundredths % 100 + 100).dropFirst())
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text + "×"
    }

    /// The item at (`x`, `y`), by index.
    public func item(atX x: Int, y: Int) -> Int? {
        guard rect.contains(x: x, y: y) else { return nil }
        let index = (y - rect.y) / Self.itemHeight
        return items.indices.contains(index) ? index : nil
    }
}
