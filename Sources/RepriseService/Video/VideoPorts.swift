import GStreamerKit
import LoopKit
import RepriseCore
import X11Kit

// What the video controller talks to, as protocols: playbin and the X window in the service, fakes in the tests.

/// playbin's video side (``Playbin``): its streams, the sink's layout and frames.
protocol VideoPipeline: AnyObject {
    func enableVideo(onFrame: @escaping () -> Void) -> Bool
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

/// The window (``VideoWindow``).
protocol VideoSurface: AnyObject {
    var fileDescriptor: Int32 { get }
    var handle: UInt { get }
    var isLost: Bool { get }
    var title: String { get set }
    var isVisible: Bool { get set }
    var isFullscreen: Bool { get set }
    var size: (width: Int, height: Int) { get }
    func resize(width: Int, height: Int)
    var screenSize: (width: Int, height: Int) { get }
    func setPictureInPicture(_ on: Bool, frame: (x: Int, y: Int, width: Int, height: Int))
    func raise()
    func drawFrame(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int)
    func drawLoading(phase: Int)
    func nextEvent() -> VideoWindow.Event?
}

extension VideoWindow: VideoSurface {}

/// The loop as the video controller uses it (``EventLoop``): timers and the window's descriptor.
protocol VideoLoop: LoopTimers {
    /// Runs `handler` whenever `fd` is readable, until it returns false.
    func onReadable(_ fd: Int32, _ handler: @escaping () -> Bool)
}

extension EventLoop: VideoLoop {}
