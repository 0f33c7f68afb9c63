/// A menu the bar opens above one of its buttons: the playback speeds, or the audio and subtitle tracks; each item
/// says what choosing it does and whether it is the one in use.
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

    public static let itemHeight = 32, width = 200, infoWidth = 360, infoHeight = 160

    public let kind: Kind
    public let items: [Item]
    /// Where it is drawn: above its button, inside the window.
    public let rect: ControlRect

    public init(kind: Kind, items: [Item], above anchor: ControlRect, windowWidth: Int) {
        self.kind = kind
        self.items = items
        let width = min(kind == .info ? Self.infoWidth : Self.width, max(1, windowWidth))
        let height = kind == .info ? Self.infoHeight : max(1, items.count) * Self.itemHeight
        let x = min(max(0, anchor.midX - width / 2), max(0, windowWidth - width))
        rect = ControlRect(x: x, y: max(0, anchor.y - height - VideoControlsLayout.gap), width: width, height: height)
    }

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
