import CWayland
import VideoInput
import WindowInputCodes

/// A Wayland toplevel for video on its own connection: an xdg-shell window (through libdecor: the compositor's
/// decorations where it offers them, a frame libdecor draws where not) whose surface GStreamer's waylandsink draws
/// into as a subsurface, scaled by the compositor. Created hidden. Use from the event loop's thread only:
/// ``watch(_:)`` says when to call ``takeEvent()`` until it returns nil. When the compositor goes away the process
/// survives: ``isLost`` turns true and the window does nothing any more.
public final class WaylandVideoWindow {
    private let window: OpaquePointer
    /// Which finger is the pointer.
    private var touch = TouchAsPointer()

    /// Connects to `$WAYLAND_DISPLAY`; nil without a compositor. `appID` names the desktop entry.
    public init?(width: Int = 854, height: Int = 480, appID: String = "reprise") {
        guard let made = rp_wl_window_open(Int32(width), Int32(height), appID) else { return nil }
        window = made
    }

    deinit { rp_wl_window_close(window) }

    public var fileDescriptor: Int32 { rp_wl_window_fd(window) }
    /// The `wl_display` and the window's `wl_surface`, for the video sink.
    public var display: UnsafeMutableRawPointer { rp_wl_window_display(window) }
    public var surface: UnsafeMutableRawPointer { rp_wl_window_surface(window) }
    public var isLost: Bool { rp_wl_window_is_lost(window) }

    public var title: String = "" {
        didSet { if title != oldValue { rp_wl_window_set_title(window, title) } }
    }

    public var isVisible = false {
        didSet { if isVisible != oldValue { rp_wl_window_set_visible(window, isVisible) } }
    }

    public var isFullscreen = false {
        didSet { if isFullscreen != oldValue { rp_wl_window_set_fullscreen(window, isFullscreen) } }
    }

    /// Picture in Picture: mapped again undecorated at a fixed `width`×`height`; off: as before. Where it goes is
    /// the compositor's choice (Wayland lets no client place itself or stay above others).
    public func setPictureInPicture(_ on: Bool, width: Int, height: Int) {
        rp_wl_window_set_picture_in_picture(window, on, Int32(width), Int32(height))
    }

    /// The output's size in logical pixels.
    public var screenSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        rp_wl_window_get_screen_size(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// The content size in logical pixels, as last configured.
    public var size: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        rp_wl_window_get_size(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// The output's integer scale.
    public var scale: Int { Int(rp_wl_window_scale(window)) }

    /// Takes the loading screen (``drawDots(_:)``) away.
    public func clearDots() { rp_wl_window_clear_dots(window) }

    /// A loading screen above the video, black with grey dots (the spinner): centres, diameters and levels in
    /// logical pixels.
    public func drawDots(_ dots: [(x: Int, y: Int, diameter: Int, level: UInt8)]) {
        let cDots = dots.map { rp_wl_dot(x: Int32(clamping: $0.x), y: Int32(clamping: $0.y), diameter: Int32(clamping: $0.diameter), level: $0.level) }
        cDots.withUnsafeBufferPointer { rp_wl_window_draw_dots(window, $0.baseAddress, Int32($0.count)) }
    }

    /// How many strips ``setOverlay(layer:_:width:height:y:scale:)`` shows at once.
    public static let overlayLayers = Int(RP_WL_CONTROLS_LAYERS)

    /// Shows strip `layer` (premultiplied ARGB `pixels`, the content's width times `scale` wide, from logical row
    /// `y`) above the video and the spinner; nil takes it away. Strips take no input: the pointer stays the window's.
    public func setOverlay(layer: Int, _ pixels: [UInt32]?, width: Int, height: Int, y: Int, scale: Int) {
        guard let pixels, pixels.count == width * height else {
            rp_wl_window_set_overlay(window, Int32(layer), nil, 0, 0, 0, 1)
            return
        }
        pixels.withUnsafeBufferPointer {
            rp_wl_window_set_overlay(window, Int32(layer), $0.baseAddress, Int32(width), Int32(height), Int32(y), Int32(scale))
        }
    }

    /// The pointer hidden over the content.
    public var isPointerHidden = false {
        didSet { if isPointerHidden != oldValue { rp_wl_window_set_cursor_hidden(window, isPointerHidden) } }
    }

    /// Lets the compositor move the window with the pointer whose button (or the finger) went down last.
    public func beginMove() { rp_wl_window_begin_move(window) }

    private final class WatchHandler {
        let handler: () -> Bool
        init(_ handler: @escaping () -> Bool) { self.handler = handler }
    }

    /// Asks for a content size; ``Event/resized(width:height:)`` follows once it has it.
    public func resize(width: Int, height: Int) { rp_wl_window_resize(window, Int32(width), Int32(height)) }

    /// Runs `handler` on the loop (the default GLib main context) whenever events may wait, until it returns false:
    /// then call ``takeEvent()`` until it returns nil. The connection is read here, with a prepared read held while
    /// the loop polls, so waylandsink's thread reading it too never leaves the window's events unseen.
    public func watch(_ handler: @escaping () -> Bool) {
        let box = Unmanaged.passRetained(WatchHandler(handler)).toOpaque() // the process's life
        rp_wl_window_watch(window, { data in
            Unmanaged<WatchHandler>.fromOpaque(data!).takeUnretainedValue().handler()
        }, box)
    }

    /// The next pending event, or nil when none waits (never blocks).
    public func takeEvent() -> VideoWindowEvent? {
        if let pending = touch.takePending() { return .input(pending) }
        var event = rp_wl_event()
        while rp_wl_window_next_event(window, &event) {
            if let taken = translated(event) { return taken }
        }
        return nil
    }

    private func translated(_ event: rp_wl_event) -> VideoWindowEvent? {
        let x = Int(event.x), y = Int(event.y), button = PointerButton(number: Int(event.button))
        switch event.kind {
        case RP_WL_EVENT_KEY: return .input(.key(VideoKey(keysym: UInt(event.keysym))))
        case RP_WL_EVENT_RESIZED: return .resized(width: Int(event.width), height: Int(event.height))
        case RP_WL_EVENT_POINTER: return .input(.pointerMoved(x: x, y: y))
        // Wayland gives no screen coordinates: the compositor moves the window from its own press.
        case RP_WL_EVENT_PRESS: return .input(.pressed(button, x: x, y: y, rootX: x, rootY: y))
        case RP_WL_EVENT_RELEASE: return .input(.released(button, x: x, y: y))
        case RP_WL_EVENT_LEAVE: return .input(.pointerLeft)
        case RP_WL_EVENT_TOUCH_DOWN: return touch.down(id: Int(event.touch), x: x, y: y, rootX: x, rootY: y).map { .input($0) }
        case RP_WL_EVENT_TOUCH_MOTION: return touch.moved(id: Int(event.touch), x: x, y: y).map { .input($0) }
        case RP_WL_EVENT_TOUCH_UP: return touch.up(id: Int(event.touch)).map { .input($0) }
        case RP_WL_EVENT_TOUCH_CANCEL: return touch.cancelled().map { .input($0) }
        default: return .closeRequested
        }
    }
}
