import VideoInput

/// A video window's input, whichever window gives it, as actions: the one way in for the window's code, which then
/// only performs them. The controls take what is theirs first (``key(_:at:in:)``); the other keys are the
/// window's own: Space plays or pauses, ←/→ skip 10 s, f full screen, p Picture in Picture, Esc leaves either,
/// [ and ] a speed slower or faster, a fit or fill, s skips an interstitial.
extension VideoControlsInput {
    public mutating func handle(_ input: VideoInput, at now: Double, in context: Context) -> [VideoControlsAction] {
        switch input {
        case .key(let key): return keyPressed(key, at: now, in: context)
        case .pointerMoved(let x, let y):
            pointerMoved(x: x, y: y, at: now, in: context)
            return []
        case .pressed(.primary, let x, let y, let rootX, let rootY):
            return pressed(x: x, y: y, rootX: rootX, rootY: rootY, at: now, in: context)
        case .pressed(.wheelUp, let x, let y, _, _): return scrolled(steps: -1, x: x, y: y, at: now, in: context)
        case .pressed(.wheelDown, let x, let y, _, _): return scrolled(steps: 1, x: x, y: y, at: now, in: context)
        case .released(.primary, let x, let y): return released(x: x, y: y, at: now, in: context)
        case .pointerLeft:
            pointerLeft(at: now)
            return []
        case .pressed, .released: return []
        }
    }

    private mutating func keyPressed(_ key: VideoKey, at now: Double, in context: Context) -> [VideoControlsAction] {
        let asControls: Key = switch key {
        case .tab: .tab
        case .shiftTab: .shiftTab
        case .enter: .activate
        case .space where focused != nil: .activate
        case .escape where focused != nil || menu != nil: .escape
        case .up, .pageUp: .scrollUp
        case .down, .pageDown: .scrollDown
        default: .other
        }
        let (taken, actions) = self.key(asControls, at: now, in: context)
        return taken ? actions : Self.windowKey(key, in: context)
    }

    private static func windowKey(_ key: VideoKey, in context: Context) -> [VideoControlsAction] {
        switch key {
        case .space: [.togglePlayPause]
        case .left: [.seekBy(microseconds: -skipStep)]
        case .right: [.seekBy(microseconds: skipStep)]
        case .character("f"): [.toggleFullscreen]
        case .character("p"): [.togglePictureInPicture]
        case .escape: [context.layout.mode == .pictureInPicture ? .leavePictureInPicture : .leaveFullscreen]
        case .character("["): context.speeds.slower(than: context.rate).map { [.setRate($0)] } ?? []
        case .character("]"): context.speeds.faster(than: context.rate).map { [.setRate($0)] } ?? []
        case .character("a"): [.toggleFitFill]
        case .character("s"): [.skipInterstitial]
        default: []
        }
    }
}
