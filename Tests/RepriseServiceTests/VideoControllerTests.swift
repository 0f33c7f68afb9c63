import ControlsKit
import CoreTestDoubles
import GStreamerKit
import RepriseCore
import LoopKit
import Testing
import VideoInput
@testable import RepriseService

/// The video controller over a fake pipeline, window and loop: the window follows the media, layouts are applied
/// once per change, keys become player requests, frames are drawn only where they can be seen, and a display that
/// goes away turns video off.
@Suite struct VideoControllerTests {
    final class Rig {
        let player: Player
        let engine: ScriptedEngine
        let pipeline = FakeVideoPipeline()
        let window = FakeWindow()
        let loop = FakeVideoLoop()
        let controller: VideoController
        let policy = RecordingPolicy()
        var userActions: [PolicyEvent] { policy.events }
        var changes = 0

        init(withDisplay: Bool = true, output: VideoOutput = .frames) {
            (player, engine, _) = makePlayer(tracks: 2)
            let window = self.window
            window.videoOutput = output
            controller = VideoController(playbin: pipeline, player: player, remote: RemoteControl(player: player, policy: policy), streamEvents: StreamEvents(),
                                         speeds: SpeedList(), loop: loop, log: Log(verbose: false),
                                         makeWindow: { withDisplay ? window : nil })
            player.feed.listen(ChangeClosure { [unowned self] in if $0.aspects.contains(.video) { changes += 1 } })
            player.feed.listen(controller)
            controller.start()
            player.play()
        }

        /// A 4:3 stream with video prerolls.
        func videoStreamReady(width: Int = 320, height: Int = 240) {
            player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
            pipeline.videoStreamCount = 1
            pipeline.videoFormat = VideoFormat(width: width, height: height, displayAspectRatio: Double(width) / Double(height))
            controller.streamReady(subtitleURI: nil)
        }

        func deliver(_ events: VideoWindowEvent...) {
            window.events += events
            _ = loop.readable()
        }

        /// Input, as either window reports it.
        func deliver(_ inputs: VideoInput...) {
            window.events += inputs.map { .input($0) }
            _ = loop.readable()
        }
    }

    @Test func pictureInPictureTakesACornerAtThePicturesAspectAndGivesFullscreenBack() {
        let rig = Rig()
        rig.videoStreamReady(width: 640, height: 360)
        rig.controller.setFullscreen(true)
        rig.deliver(.key(.character("p")))
        #expect(rig.controller.isPictureInPicture && !rig.window.isFullscreen)
        // A quarter of 1920 is 480 wide; 16:9 makes it 270 high; 24 px from the right and bottom edges.
        let entered = rig.window.pictureInPicture.last
        #expect(entered?.on == true && entered.map { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] } == [1416, 786, 480, 270])
        #expect(rig.pipeline.layouts.last?.size == [480, 270], "the picture scaled for the small window")
        rig.deliver(.key(.escape))
        #expect(!rig.controller.isPictureInPicture && rig.window.isFullscreen, "fullscreen again, as before")
        #expect(rig.window.pictureInPicture.last?.on == false)
        // Stopping ends it without restoring anything; audio-only media cannot enter it.
        rig.controller.setPictureInPicture(true)
        rig.player.stop()
        #expect(!rig.controller.isPictureInPicture && !rig.window.isVisible)
        rig.controller.setPictureInPicture(true)
        #expect(!rig.controller.isPictureInPicture)
    }

    @Test func theWindowFollowsTheMediaAndOpensAtThePicturesShape() {
        let rig = Rig()
        #expect(rig.pipeline.videoEnabled)
        #expect(!rig.window.isVisible)
        rig.videoStreamReady()
        #expect(rig.window.isVisible)
        #expect(rig.window.title == rig.player.announcedTrack?.title)
        #expect(rig.window.resizes.last.map { [$0.width, $0.height] } == [320, 240])
        #expect(rig.pipeline.layouts.count == 1)
        rig.player.stop()
        #expect(!rig.window.isVisible)
    }

    @Test func streamsAreReadOnlyOnceThePipelineIsNotChangingState() {
        let rig = Rig()
        rig.pipeline.isChangingState = true
        rig.loop.holdOnce = true
        rig.videoStreamReady()
        #expect(!rig.window.isVisible, "nothing read from playbin while a state change is under way")
        rig.loop.runHeld()
        #expect(!rig.window.isVisible)
        rig.pipeline.isChangingState = false
        rig.loop.runHeld()
        #expect(rig.window.isVisible)
        // A look put off for a stream that another load replaced is dropped.
        rig.pipeline.isChangingState = true
        rig.controller.streamReady(subtitleURI: nil)
        rig.controller.streamWillLoad()
        rig.pipeline.isChangingState = false
        let changes = rig.changes
        rig.loop.runHeld()
        #expect(rig.changes == changes)
    }

    @Test func aResizeLaysThePictureOutOnceForFitAndFill() {
        let rig = Rig()
        rig.videoStreamReady()
        rig.window.size = (854, 480)
        rig.deliver(.resized(width: 854, height: 480))
        #expect(rig.pipeline.layouts.last?.size == [640, 480])
        let count = rig.pipeline.layouts.count
        rig.deliver(.exposed)
        #expect(rig.pipeline.layouts.count == count, "an unchanged layout is not applied again")
        rig.controller.setAspectMode(.fill)
        // Covers the window, cropped evenly (sizes even, for 4:2:0 chroma).
        #expect(rig.pipeline.layouts.last?.size == [854, 642])
        #expect(rig.pipeline.layouts.last?.crop == [0, 81, 0, 81])
    }

    /// On Wayland the compositor scales: the stream keeps its own size, fill crops it in its own pixels, and the
    /// picture goes to the whole window.
    @Test func onAWaylandSurfaceThePictureIsNotScaledButCroppedAndPlaced() {
        var pointee: UInt8 = 0
        withUnsafeMutablePointer(to: &pointee) { pointer in
            let rig = Rig(output: .waylandSurface(display: UnsafeMutableRawPointer(pointer), surface: UnsafeMutableRawPointer(pointer),
                                                  size: (320, 240)))
            #expect(rig.pipeline.outputs == ["wayland"])
            rig.videoStreamReady()
            rig.window.size = (854, 480)
            rig.deliver(.resized(width: 854, height: 480))
            #expect(rig.pipeline.layouts.last?.size == [0, 0] && rig.pipeline.layouts.last?.crop == [0, 0, 0, 0])
            #expect(rig.pipeline.renderRectangles.last == [0, 0, 854, 480])
            rig.controller.setAspectMode(.fill)
            // 854×642 scaled, 81 rows cut top and bottom: 81 × 240 / 642 = 30 rows of the 240-row stream.
            #expect(rig.pipeline.layouts.last?.size == [0, 0] && rig.pipeline.layouts.last?.crop == [0, 30, 0, 30])
        }
    }

    @Test func keysBecomePlayerRequestsThatThePolicyHears() {
        let rig = Rig()
        rig.videoStreamReady()
        rig.deliver(.key(.space))
        #expect(rig.player.status == .paused)
        #expect(rig.userActions == [.userPaused])
        rig.deliver(.key(.right))
        #expect(rig.engine.requests.last == .seek(CustomActions.skipMicroseconds))
        rig.deliver(.key(.character("f")))
        #expect(rig.window.isFullscreen)
        rig.deliver(.key(.escape))
        #expect(!rig.window.isFullscreen)
        rig.deliver(.key(.character("]")))
        #expect(rig.player.rate == 1.25)
        rig.deliver(.closeRequested)
        #expect(rig.player.status == .stopped)
        #expect(rig.userActions.last == .userStopped)
    }

    @Test func thePointerShowsTheControlsAndTheirClicksBecomePlayerRequests() {
        let rig = Rig()
        rig.videoStreamReady()
        rig.window.size = (640, 360)
        rig.deliver(.resized(width: 640, height: 360))
        #expect(rig.window.controlsShown.isEmpty, "nothing over the picture before the pointer moves")
        rig.deliver(.pointerMoved(x: 320, y: 180))
        let shown = rig.window.controlsShown.last.flatMap { $0 }
        #expect(shown?.width == 640 && shown?.height == 360)
        #expect(!rig.window.isPointerHidden)
        let painted = rig.window.controlsShown.count
        rig.deliver(.pointerMoved(x: 330, y: 185), .pointerMoved(x: 340, y: 190))
        #expect(rig.window.controlsShown.count == painted, "motion that changes nothing drawn paints nothing")
        let layout = VideoControlsLayout(width: 640, height: 360)
        let play = layout.rect(of: .playPause)!
        rig.deliver(.pressed(.primary, x: play.midX, y: play.midY, rootX: 0, rootY: 0), .released(.primary, x: play.midX, y: play.midY))
        #expect(rig.player.status == .paused && rig.userActions == [.userPaused], "the bar's left end pauses, as Space does")
        rig.deliver(.pressed(.wheelDown, x: 320, y: 180, rootX: 0, rootY: 0))
        #expect(rig.engine.requests.last == .seek(0), "the wheel seeks back 10 s (from 0: to 0)")
        let full = layout.rect(of: .fullscreen)!
        rig.deliver(.pressed(.primary, x: full.midX, y: full.midY, rootX: 0, rootY: 0), .released(.primary, x: full.midX, y: full.midY))
        #expect(rig.window.isFullscreen)
        rig.deliver(.key(.tab), .key(.enter))
        #expect(rig.player.status == .playing, "Tab focuses play/pause, Enter plays")
        rig.deliver(.key(.shiftTab), .key(.enter))
        #expect(!rig.window.isFullscreen, "Shift-Tab goes back round to full screen, Enter leaves it")
    }

    /// A tap on the picture's centre with the controls hidden: nothing until the desktop's double-click interval (read
    /// from the window as it shows) has passed, then a pause the audio policy hears, the controls still hidden and
    /// only the glyph drawn over the picture's middle, taken away after its moment.
    @Test func aTapOnTheCentrePausesOnceTheIntervalPassesAndShowsOnlyItsGlyph() throws {
        let rig = Rig()
        rig.window.desktopDoubleClickSeconds = 1.2
        rig.loop.holdOnce = true
        rig.videoStreamReady()
        #expect(rig.controller.controls.doubleClickSeconds == 1.2, "the desktop's interval, read as the window shows")
        rig.window.size = (640, 360)
        rig.deliver(.resized(width: 640, height: 360))
        rig.loop.runHeld()
        let layout = VideoControlsLayout(width: 640, height: 360)
        let centre = try #require(layout.pictureCentre)
        let painted = rig.window.controlsShown.count
        rig.deliver(.pressed(.primary, x: centre.midX, y: centre.midY, rootX: 0, rootY: 0), .released(.primary, x: centre.midX, y: centre.midY))
        #expect(rig.player.status == .playing && rig.window.controlsShown.count == painted, "nothing yet: a second tap may come")
        rig.loop.runHeld() // the interval is over
        #expect(rig.player.status == .paused && rig.userActions == [.userPaused])
        let glyph = try #require(rig.window.controlsShown.last.flatMap { $0 })
        let disc = layout.tapGlyph, play = try #require(layout.rect(of: .playPause))
        #expect(ControlsImage.alpha(glyph.pixel(x: disc.midX, y: disc.midY)) > 100, "the glyph over the picture's middle")
        #expect(ControlsImage.alpha(glyph.pixel(x: play.midX, y: play.midY)) == 0, "no bar: the controls stay hidden")
        #expect(rig.window.isPointerHidden)
        rig.loop.runHeld() // the glyph's moment is over
        #expect(rig.window.controlsShown.last.map { $0 == nil } == true, "the glyph taken away")
        #expect(rig.player.status == .paused)
    }

    /// At output scale 2 the controls are painted with twice the pixels each way (the window shows them at its
    /// logical size), and a press on Picture in Picture's picture hands the window to the compositor to move.
    @Test func controlsFollowTheWindowsScaleAndAPictureInPicturePressMovesTheWindow() {
        let rig = Rig()
        rig.videoStreamReady()
        rig.window.scale = 2
        rig.window.size = (640, 360)
        rig.deliver(.resized(width: 640, height: 360))
        rig.deliver(.pointerMoved(x: 320, y: 180))
        let shown = rig.window.controlsShown.last.flatMap { $0 }
        #expect(shown?.width == 1280 && shown?.height == 720 && shown?.scale == 2)
        rig.controller.setPictureInPicture(true)
        let small = rig.window.size
        rig.deliver(.pointerMoved(x: small.width / 2, y: small.height / 3),
                    VideoInput.pressed(.primary, x: small.width / 2, y: small.height / 3, rootX: 900, rootY: 500))
        #expect(rig.window.moves.map { [$0.x, $0.y] } == [[900, 500]], "the press's place goes with the move")
    }

    @Test func framesAreDrawnOnlyIntoAVisibleWindow() {
        let rig = Rig()
        rig.pipeline.onFrame?()
        #expect(rig.window.framesDrawn == 0, "hidden: nothing drawn")
        rig.videoStreamReady()
        let drawn = rig.window.framesDrawn // the layout drew the kept frame
        rig.pipeline.onFrame?()
        #expect(rig.window.framesDrawn == drawn + 1)
        rig.deliver(.exposed)
        #expect(rig.window.framesDrawn == drawn + 2, "an expose redraws the kept frame")
    }

    @Test func aDisplayThatGoesAwayTurnsVideoOffAndThePlayerPlaysOn() {
        let rig = Rig()
        rig.videoStreamReady()
        #expect(rig.controller.hasDisplay)
        let changes = rig.changes
        rig.window.isLost = true
        #expect(rig.loop.readable() == false, "the descriptor is no longer watched")
        #expect(!rig.controller.hasDisplay)
        #expect(rig.pipeline.videoDisabled)
        #expect(rig.changes > changes)
        #expect(rig.player.status == .playing)
        rig.pipeline.onFrame?()
        rig.controller.setFullscreen(true)
        #expect(!rig.window.isFullscreen)
    }

    @Test func withoutADisplayVideoIsNeverEnabled() {
        let rig = Rig(withDisplay: false)
        #expect(!rig.pipeline.videoEnabled)
        #expect(!rig.controller.hasDisplay)
        rig.videoStreamReady()
        #expect(rig.controller.hasVideo)
        #expect(rig.pipeline.layouts.isEmpty)
    }
}

// MARK: Fakes

final class FakeVideoPipeline: VideoPipeline {
    var onFrame: (() -> Void)?
    var videoEnabled = false
    var videoDisabled = false
    var videoStreamCount = 0
    var videoFormat: VideoFormat?
    private(set) var layouts: [(size: [Int], crop: [Int])] = []
    var audioStreams: [MediaStreamInfo] = []
    var subtitleStreams: [MediaStreamInfo] = []
    var currentAudioStream = 0
    var currentSubtitleStream = 0
    var showsSubtitles = true
    var positionNanoseconds: Int64? = 0
    private var pixels = [UInt8](repeating: 0, count: 16)

    private(set) var outputs: [String] = []
    private(set) var renderRectangles: [[Int]] = []
    func enableVideo(output: VideoOutput, onFrame: @escaping () -> Void) -> Bool {
        if case .waylandSurface = output { outputs.append("wayland") } else { outputs.append("frames") }
        videoEnabled = true
        self.onFrame = onFrame
        return true
    }
    func disableVideo() { videoDisabled = true }
    func setVideoRenderRectangle(x: Int, y: Int, width: Int, height: Int) { renderRectangles.append([x, y, width, height]) }
    func setVideoLayout(width: Int?, height: Int?, crop: (left: Int, top: Int, right: Int, bottom: Int)) {
        layouts.append(([width ?? 0, height ?? 0], [crop.left, crop.top, crop.right, crop.bottom]))
    }
    func withLatestVideoFrame(_ body: (VideoFrame) -> Void) {
        pixels.withUnsafeBytes { body(VideoFrame(pixels: $0.baseAddress!, width: 2, height: 2, stride: 8)) }
    }
    func forgetVideoFrame() {}
    func seek(toNanoseconds position: Int64, rate: Double) {}
    var isChangingState = false
}

final class FakeWindow: VideoSurface {
    /// Frames by default; a Wayland surface (pointers never dereferenced) for the waylandsink path.
    var videoOutput: VideoOutput = .frames
    let fileDescriptor: Int32 = 99
    let handle: UInt = 0x400001
    var isLost = false
    var title = ""
    var isVisible = false
    var isFullscreen = false
    var size: (width: Int, height: Int) = (320, 240)
    /// As X11 draws it: the window's size, at most the screen's.
    var drawnSize: (width: Int, height: Int) { (min(size.width, screenSize.width), min(size.height, screenSize.height)) }
    var events: [VideoWindowEvent] = []
    private(set) var resizes: [(width: Int, height: Int)] = []
    private(set) var framesDrawn = 0

    func resize(width: Int, height: Int) { resizes.append((width, height)) }
    var screenSize: (width: Int, height: Int) = (1920, 1080)
    private(set) var pictureInPicture: [(on: Bool, frame: (x: Int, y: Int, width: Int, height: Int))] = []
    func setPictureInPicture(_ on: Bool, frame: (x: Int, y: Int, width: Int, height: Int)) {
        pictureInPicture.append((on, frame))
        if on { size = (frame.width, frame.height) }
    }
    func raise() {}
    func drawFrame(pixels: UnsafeRawPointer, width: Int, height: Int, stride: Int) { framesDrawn += 1 }
    func drawLoading(phase: Int) {}
    func endLoading() {}
    func watchEvents(on loop: VideoLoop, _ handler: @escaping () -> Bool) { loop.onReadable(fileDescriptor, handler) }
    func nextEvent() -> VideoWindowEvent? { events.isEmpty ? nil : events.removeFirst() }
    /// The controls' images shown, in order (nil: taken away).
    private(set) var controlsShown: [ControlsImage?] = []
    func showControls(_ scene: VideoControlsScene?) { controlsShown.append(scene.map { ControlsPainter().paint($0, scale: scale) }) }
    var isPointerHidden = false
    var scale = 1
    /// The moves handed to the window manager: where the press was.
    private(set) var moves: [(x: Int, y: Int)] = []
    func beginMove(rootX: Int, rootY: Int, button: Int) { moves.append((rootX, rootY)) }
    var desktopDoubleClickSeconds: Double?
}

final class FakeVideoLoop: VideoLoop {
    private var watch: (() -> Bool)?
    @discardableResult func every(milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer { LoopTimer {} }
    /// When true, ``once(afterMilliseconds:_:)`` keeps its handler for ``runHeld()`` instead of running it at once.
    var holdOnce = false
    private var held: [() -> Void] = []
    @discardableResult func once(afterMilliseconds milliseconds: UInt32, _ handler: @escaping () -> Void) -> LoopTimer {
        if holdOnce { held.append(handler) } else { handler() }
        return LoopTimer {}
    }
    func runHeld() {
        let handlers = held
        held.removeAll()
        handlers.forEach { $0() }
    }
    func onReadable(_ fd: Int32, _ handler: @escaping () -> Bool) { watch = handler }
    /// The window's descriptor became readable; returns whether it is still watched.
    @discardableResult
    func readable() -> Bool {
        guard let watch else { return false }
        let keep = watch()
        if !keep { self.watch = nil }
        return keep
    }
}
