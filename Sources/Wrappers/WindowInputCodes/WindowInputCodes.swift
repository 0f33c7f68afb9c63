import VideoInput

// X11's and xkbcommon's codes — the same keysym numbers, X11's button numbers (the Wayland shim gives its buttons
// these numbers too) — as the meanings both video windows report: written once for both.

extension VideoKey {
    /// A keysym (X11/keysymdef.h, xkbcommon-keysyms.h): Latin-1 characters are their own code points.
    public init(keysym: UInt) {
        switch keysym {
        case 0x20: self = .space
        case 0xff51: self = .left
        case 0xff52: self = .up
        case 0xff53: self = .right
        case 0xff54: self = .down
        case 0xff55: self = .pageUp
        case 0xff56: self = .pageDown
        case 0xff1b: self = .escape
        case 0xff09: self = .tab
        case 0xfe20: self = .shiftTab
        case 0xff0d, 0xff8d: self = .enter
        case 0x21...0x7e: self = .character(Character(Unicode.Scalar(UInt8(keysym))))
        default: self = .other
        }
    }
}

extension PointerButton {
    /// X11's numbering: 1 primary (or a touch), 2 middle, 3 secondary, 4 and 5 a wheel step up and down.
    public init(number: Int) {
        let numbered: [PointerButton] = [.primary, .middle, .secondary, .wheelUp, .wheelDown]
        self = (1...numbered.count).contains(number) ? numbered[number - 1] : .other
    }
}

/// Touch as the pointer's primary button, the same rule for both windows: the first finger down presses, its moves
/// move the pointer, its lifting releases where it last was and then the pointer leaves (``takePending()``: no finger
/// rests over the bar, so the controls hide as after a mouse leaves); other fingers meanwhile are let be; touches the
/// compositor takes back (a gesture) end as the pointer leaving.
public struct TouchAsPointer: Sendable {
    private var finger: (id: Int, x: Int, y: Int)?
    /// A lifted finger's leaving, reported after its release.
    private var leftPending = false

    /// What is due before the window's next event: the pointer leaving after a finger lifted.
    public mutating func takePending() -> VideoInput? {
        guard leftPending else { return nil }
        leftPending = false
        return .pointerLeft
    }

    public init() {}

    public mutating func down(id: Int, x: Int, y: Int, rootX: Int, rootY: Int) -> VideoInput? {
        guard finger == nil else { return nil }
        finger = (id, x, y)
        return .pressed(.primary, x: x, y: y, rootX: rootX, rootY: rootY)
    }

    public mutating func moved(id: Int, x: Int, y: Int) -> VideoInput? {
        guard finger?.id == id else { return nil }
        finger = (id, x, y)
        return .pointerMoved(x: x, y: y)
    }

    public mutating func up(id: Int) -> VideoInput? {
        guard let lifted = finger, lifted.id == id else { return nil }
        finger = nil
        leftPending = true
        return .released(.primary, x: lifted.x, y: lifted.y)
    }

    public mutating func cancelled() -> VideoInput? {
        guard finger != nil else { return nil }
        finger = nil
        return .pointerLeft
    }
}
