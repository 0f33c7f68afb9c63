import ControlsKit
import GStreamerKit
import LoopKit
import Glibc
import PosixFiles
import RepriseCore
import VideoInput
import WaylandKit
import X11Kit

// What the video controller talks to, as protocols: playbin and the X window in the service, fakes in the tests.

/// playbin's video side (``Playbin``): its streams, the sink's layout and frames.
protocol VideoPipeline: AnyObject {
    func enableVideo(output: VideoOutput, onFrame: @escaping () -> Void) -> Bool
    /// Where in a Wayland surface the picture goes.
    func setVideoRenderRectangle(x: Int, y: Int, width: Int, height: Int)
    func disableVideo()
    var videoStreamCount: Int { get }
    var videoFormat: VideoFormat? { get }
    func setVideoLayout(width: Int?, height: Int?, crop: (left: Int, top: Int, right: Int, bottom: Int))
    func withLatestVideoFrame(_ body: (VideoFrame) -> Void)
    func forgetVideoFrame()
    var audioStreams: [MediaStreamInfo] { get }
    var subtitleStreams: [MediaStreamInfo] { get }
    var currentAudioStream: Int { get set }
    var currentSubtitleStream: Int { get set }
    var showsSubtitles: Bool { get set }
    var positionNanoseconds: Int64? { get }
    func seek(toNanoseconds position: Int64, rate: Double)
    /// Requests to the pipeline are under way: its stream properties are read once they are done.
    var isChangingState: Bool { get }
}

extension Playbin: VideoPipeline {}

/// The window: ``VideoWindow`` on X11 (Reprise draws the frames), ``WaylandVideoWindow`` on Wayland (waylandsink
/// draws them into a subsurface).
protocol VideoSurface: AnyObject {
    /// Where the pipeline's video goes.
    var videoOutput: VideoOutput { get }
    var fileDescriptor: Int32 { get }
    var handle: UInt { get }
    var isLost: Bool { get }
    var title: String { get set }
    var isVisible: Bool { get set }
    var isFullscreen: Bool { get set }
    var size: (width: Int, height: Int) { get }
    /// The part of the window that pictures and controls are laid out in: X11 draws a window larger than the screen
    /// at the size that can be seen; a Wayland compositor sizes the window to what it shows.
    var drawnSize: (width: Int, height: Int) { get }
    func resize(width: Int, height: Int)
    var screenSize: (width: Int, height: Int) { get }
    func setPictureInPicture(_ on: Bool, frame: (x: Int, y: Int, width: Int, height: Int))
    func raise()
    func drawFrame(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int)
    func drawLoading(phase: Int)
    /// Loading is over: the picture shows again.
    func endLoading()
    /// Runs `handler` on `loop` whenever events may wait, until it returns false.
    func watchEvents(on loop: VideoLoop, _ handler: @escaping () -> Bool)
    func nextEvent() -> VideoWindowEvent?
    /// Shows the controls over the picture from now on, painted by the window at its scale (nil: none).
    func showControls(_ scene: VideoControlsScene?)
    /// The pointer hidden over the window (with the controls).
    var isPointerHidden: Bool { get set }
    /// The integer scale the window's own pixels are drawn at (the output's on Wayland; 1 on X11).
    var scale: Int { get }
    /// The desktop's double-click interval, in seconds (nil: the desktop sets none the window can read).
    var desktopDoubleClickSeconds: Double? { get }
    /// Hands the window to the window manager to move with the pointer whose press was at `rootX`, `rootY`
    /// (X11's root coordinates; Wayland's compositor knows where its own press was).
    func beginMove(rootX: Int, rootY: Int, button: Int)
}

extension VideoWindow: VideoSurface {
    var videoOutput: VideoOutput { .frames }
    func drawLoading(phase: Int) { drawDots(spinnerDots(size: size, phase: phase)) }
    /// The next frame drawn covers the spinner.
    func endLoading() {}
    func watchEvents(on loop: VideoLoop, _ handler: @escaping () -> Bool) { loop.onReadable(fileDescriptor, handler) }
    /// Blended over each frame: only the strips drawn on (the title's band, the bar with what rises above it), at
    /// the window's pixels, so a large window paints and sends a few rows, not its area.
    func showControls(_ scene: VideoControlsScene?) {
        let strips = scene?.drawnRows ?? []
        for strip in 0..<VideoWindow.overlayStrips {
            guard let scene, strip < strips.count else {
                setOverlay(strip: strip, nil, width: 0, height: 0, y: 0)
                continue
            }
            let image = ControlsPainter().paint(scene, scale: 1, rows: strips[strip])
            setOverlay(strip: strip, image.pixels, width: image.width, height: image.height, y: image.y)
        }
    }
    /// X11 draws the controls at the window's pixels.
    var scale: Int { 1 }
    /// The XSETTINGS manager's `Net/DoubleClickTime` (GNOME's, KDE's or xsettingsd's).
    var desktopDoubleClickSeconds: Double? { XSettings(bytes: desktopSettingsBytes).doubleClickSeconds }
}

/// The spinner's dots for a window of `size` (``LoadingSpinner``, shared by both windows).
private func spinnerDots(size: (width: Int, height: Int), phase: Int) -> [(x: Int, y: Int, diameter: Int, level: UInt8)] {
    LoadingSpinner.dots(width: size.width, height: size.height, phase: phase).map { ($0.x, $0.y, $0.diameter, $0.level) }
}

extension WaylandVideoWindow: VideoSurface {
    var videoOutput: VideoOutput { .waylandSurface(display: display, surface: surface, size: size) }
    var handle: UInt { UInt(bitPattern: surface) }
    var drawnSize: (width: Int, height: Int) { size }

    func setPictureInPicture(_ on: Bool, frame: (x: Int, y: Int, width: Int, height: Int)) {
        setPictureInPicture(on, width: frame.width, height: frame.height)
    }

    /// Wayland lets a client raise itself only with an activation token (xdg-activation) it has not got.
    func raise() {}
    /// waylandsink draws the frames.
    func drawFrame(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) {}
    /// Above waylandsink's subsurfaces.
    func drawLoading(phase: Int) { drawDots(spinnerDots(size: size, phase: phase)) }
    func endLoading() { clearDots() }
    /// Subsurfaces above waylandsink's and the spinner's, at the output's scale: only the strips drawn on (the
    /// title's band, the bar and what rises above it), so a 4K window paints and composites a few rows, not 4K.
    func showControls(_ scene: VideoControlsScene?) {
        let strips = scene?.drawnRows ?? []
        for layer in 0..<WaylandVideoWindow.overlayLayers {
            guard let scene, layer < strips.count else {
                setOverlay(layer: layer, nil, width: 0, height: 0, y: 0, scale: 1)
                continue
            }
            let image = ControlsPainter().paint(scene, scale: scale, rows: strips[layer])
            setOverlay(layer: layer, image.pixels, width: image.width, height: image.height, y: image.y, scale: image.scale)
        }
    }
    /// xdg_toplevel.move with the last press's serial.
    func beginMove(rootX: Int, rootY: Int, button: Int) { beginMove() }
    /// Under KDE Plasma, `DoubleClickInterval` in kdeglobals (the system's, then the user's), as Qt applications read
    /// it; nil under other desktops (GNOME keeps its interval in GSettings, not read yet).
    var desktopDoubleClickSeconds: Double? {
        let desktop = getenv("XDG_CURRENT_DESKTOP").map { String(cString: $0) } ?? ""
        guard desktop.split(separator: ":").contains("KDE") else { return nil }
        let files = PosixFileSystem()
        let texts = ["/etc/xdg/kdeglobals", XDGDirectories.configHome + "/kdeglobals"].compactMap {
            files.contents(of: $0, limit: 1 << 20).map { String(decoding: $0, as: UTF8.self) }
        }
        return KDEGlobals(files: texts).doubleClickSeconds
    }
    /// Its own GLib source on the loop's main context (see ``WaylandVideoWindow/watch(_:)``).
    func watchEvents(on loop: VideoLoop, _ handler: @escaping () -> Bool) { watch(handler) }

    func nextEvent() -> VideoWindowEvent? { takeEvent() }
}

/// The video window for this session: a native Wayland window when `$WAYLAND_DISPLAY` names a compositor and
/// GStreamer has waylandsink (plugins-bad), else an X11 window when `$DISPLAY` names a server (XWayland included),
/// else none. `REPRISE_VIDEO_WINDOW=x11` (or `wayland`) asks for one kind only.
func openVideoWindow() -> VideoSurface? {
    let asked = getenv("REPRISE_VIDEO_WINDOW").map { String(cString: $0) }
    if asked != "x11", GStreamer.hasElement("waylandsink"), let window = WaylandVideoWindow() { return window }
    if asked != "wayland", let window = VideoWindow() { return window }
    return nil
}

/// The loop as the video controller uses it (``EventLoop``): timers and the window's descriptor.
protocol VideoLoop: LoopTimers {
    /// Runs `handler` whenever `fd` is readable, until it returns false.
    func onReadable(_ fd: Int32, _ handler: @escaping () -> Bool)
}

extension EventLoop: VideoLoop {}
