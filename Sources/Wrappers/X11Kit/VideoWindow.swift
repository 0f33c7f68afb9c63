import CX11
import VideoInput
import WindowInputCodes

/// A top-level X11 window for video, on its own display connection (the only one in the process). Created hidden;
/// frames are drawn into it with ``drawFrame(pixels:width:height:stride:)``. Use from the event loop's thread only:
/// read ``fileDescriptor`` and call ``nextEvent()`` until it returns nil whenever it is readable. When the X server
/// goes away the process survives: ``isLost`` turns true and the window does nothing any more.
public final class VideoWindow {
    private let window: OpaquePointer
    /// Which finger is the pointer.
    private var touch = TouchAsPointer()

    /// Opens the display named by `$DISPLAY` (or `displayName`); nil when there is none.
    public init?(displayName: String? = nil, width: Int = 854, height: Int = 480, className: String = "reprise") {
        guard let made = rp_window_open(displayName, Int32(width), Int32(height), className) else { return nil }
        window = made
    }

    deinit { rp_window_close(window) }

    /// Readable when events wait.
    public var fileDescriptor: Int32 { rp_window_fd(window) }
    /// The X window id.
    public var handle: UInt { rp_window_xid(window) }

    /// The connection to the X server broke: the window is gone for good.
    public var isLost: Bool { rp_window_is_lost(window) }

    /// Draws 32-bit BGRx pixels (`stride` bytes a row) in the middle of the window, black around them.
    public func drawFrame(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {
        rp_window_draw_frame(window, pixels.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(stride))
    }

    public var title: String = "" {
        didSet { if title != oldValue { rp_window_set_title(window, title) } }
    }

    public var isVisible = false {
        didSet { if isVisible != oldValue { rp_window_set_visible(window, isVisible) } }
    }

    public var isFullscreen = false {
        didSet { if isFullscreen != oldValue { rp_window_set_fullscreen(window, isFullscreen) } }
    }

    /// Picture in Picture: undecorated, above other windows and on every desktop, at `frame`; off: the
    /// decorations, states, place and size it had before.
    public func setPictureInPicture(_ on: Bool, frame: (x: Int, y: Int, width: Int, height: Int)) {
        rp_window_set_picture_in_picture(window, on, Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height))
    }

    /// The screen's size.
    public var screenSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        rp_window_get_screen_size(window, &width, &height)
        return (Int(width), Int(height))
    }

    public func raise() { rp_window_raise(window) }

    /// The XSETTINGS manager's settings as their bytes (empty when none runs, or they are larger than 64 KiB).
    public var desktopSettingsBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        let length = bytes.withUnsafeMutableBufferPointer { rp_window_xsettings(window, $0.baseAddress, $0.count) }
        return length > 0 ? Array(bytes.prefix(length)) : []
    }

    /// The window's size as last configured.
    public var size: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        rp_window_get_size(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// Asks for a new size; ``Event/resized(width:height:)`` follows once it has it.
    public func resize(width: Int, height: Int) { rp_window_resize(window, Int32(width), Int32(height)) }

    /// Black with grey dots (the loading spinner): centres, diameters and levels in window pixels.
    public func drawDots(_ dots: [(x: Int, y: Int, diameter: Int, level: UInt8)]) {
        let cDots = dots.map { rp_dot(x: Int32(clamping: $0.x), y: Int32(clamping: $0.y), diameter: Int32(clamping: $0.diameter), level: $0.level) }
        cDots.withUnsafeBufferPointer { rp_window_draw_dots(window, $0.baseAddress, Int32($0.count)) }
    }

    /// How many strips of controls ``setOverlay(strip:_:width:height:y:)`` draws at once.
    public static let overlayStrips = Int(RP_WINDOW_OVERLAY_STRIPS)

    /// Strip `strip` of the controls to draw over the frames from now on (premultiplied ARGB pixels, as wide as
    /// ``drawnSize``, put at row `y`), or none.
    public func setOverlay(strip: Int, _ pixels: [UInt32]?, width: Int, height: Int, y: Int) {
        guard let pixels, pixels.count == width * height, let width32 = Int32(exactly: width), let height32 = Int32(exactly: height),
              let y32 = Int32(exactly: y) else {
            return rp_window_set_overlay(window, Int32(strip), nil, 0, 0, 0)
        }
        pixels.withUnsafeBufferPointer { rp_window_set_overlay(window, Int32(strip), $0.baseAddress, width32, height32, y32) }
    }

    /// The part of the window drawn on: its size, at most the screen's (a larger window shows its top left part).
    public var drawnSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        rp_window_get_drawn_size(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// The pointer hidden over the window (it hides with the controls).
    public var isPointerHidden = false {
        didSet { if isPointerHidden != oldValue { rp_window_set_cursor_hidden(window, isPointerHidden) } }
    }

    /// The window manager moves the window with the pointer, from a press of `button` at (`rootX`, `rootY`).
    public func beginMove(rootX: Int, rootY: Int, button: Int) {
        rp_window_begin_move(window, Int32(clamping: rootX), Int32(clamping: rootY), Int32(clamping: button))
    }

    /// The next pending event, or nil when none waits (never blocks).
    public func nextEvent() -> VideoWindowEvent? {
        if let pending = touch.takePending() { return .input(pending) }
        var event = rp_window_event()
        while rp_window_next_event(window, &event) {
            if let taken = translated(event) { return taken }
        }
        return nil
    }

    private func translated(_ event: rp_window_event) -> VideoWindowEvent? {
        let x = Int(event.x), y = Int(event.y), button = PointerButton(number: Int(event.button))
        switch event.kind {
        case RP_WINDOW_EVENT_KEY: return .input(.key(VideoKey(keysym: event.keysym)))
        case RP_WINDOW_EVENT_RESIZED: return .resized(width: Int(event.width), height: Int(event.height))
        case RP_WINDOW_EVENT_EXPOSED: return .exposed
        case RP_WINDOW_EVENT_POINTER: return .input(.pointerMoved(x: x, y: y))
        case RP_WINDOW_EVENT_PRESS: return .input(.pressed(button, x: x, y: y, rootX: Int(event.root_x), rootY: Int(event.root_y)))
        case RP_WINDOW_EVENT_RELEASE: return .input(.released(button, x: x, y: y))
        case RP_WINDOW_EVENT_LEAVE: return .input(.pointerLeft)
        case RP_WINDOW_EVENT_TOUCH_DOWN:
            return touch.down(id: Int(event.touch), x: x, y: y, rootX: Int(event.root_x), rootY: Int(event.root_y)).map { .input($0) }
        case RP_WINDOW_EVENT_TOUCH_MOTION: return touch.moved(id: Int(event.touch), x: x, y: y).map { .input($0) }
        case RP_WINDOW_EVENT_TOUCH_UP: return touch.up(id: Int(event.touch)).map { .input($0) }
        default: return .closeRequested
        }
    }
}
