/// Input from a video window, the same whichever window gives it (X11's, Wayland's): keys as what they mean, the
/// pointer's moves, presses and releases of its buttons and wheel steps (a touch arrives as the primary button).
/// The core's video controls read it (`VideoControlsInput.handle(_:at:in:)`), plain keys included.
public enum VideoInput: Equatable, Sendable {
    case key(VideoKey)
    /// Over the window's content, in its logical pixels.
    case pointerMoved(x: Int, y: Int)
    /// At `x`, `y`; `rootX`, `rootY` where on the screen (X11's root window; a Wayland window knows no more than
    /// `x`, `y`), for a window move the window manager makes from that press.
    case pressed(PointerButton, x: Int, y: Int, rootX: Int, rootY: Int)
    case released(PointerButton, x: Int, y: Int)
    /// The pointer left the content.
    case pointerLeft
}

/// A key by what it means (the keyboard's layout applied).
public enum VideoKey: Equatable, Sendable {
    case space, left, right, up, down, pageUp, pageDown, escape, tab, shiftTab, enter
    /// A printable ASCII character.
    case character(Character)
    case other
}

/// A pointer button, or a step of the wheel.
public enum PointerButton: Equatable, Sendable {
    case primary, middle, secondary, wheelUp, wheelDown, other
}

/// What a video window reports: input, and what happened to the window itself.
public enum VideoWindowEvent: Equatable, Sendable {
    case input(VideoInput)
    case resized(width: Int, height: Int)
    /// Its content needs drawing again (X11).
    case exposed
    /// The user asked to close it.
    case closeRequested
}
