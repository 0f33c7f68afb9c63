import Foundation
import Testing
import TestSupport

/// Video in a native Wayland window under a real headless compositor (sway: wlroots' headless backend, pixman):
/// an xdg-shell toplevel with Reprise's app id (not an XWayland client), the keys typed with `wtype`, fullscreen
/// and Picture in Picture from sway's tree, and the picture itself from `grim` screenshots: the test pattern's bars,
/// the fit rule's black pillars, fill's cover, and the same picture at output scale 2 as at scale 1.
@Suite(.serialized) struct WaylandWindowTests {
    /// The seven bars across the top of videotestsrc's SMPTE pattern, left to right: which channels are lit.
    static let bars: [[Int]] = [[1, 1, 1], [1, 1, 0], [0, 1, 1], [0, 1, 0], [1, 0, 1], [1, 0, 0], [0, 0, 1]]

    @Test func aNativeWindowTakesKeysFullscreenPictureInPictureAndShowsThePictureSharp() throws {
        let (session, sway) = try sessionUnderSway(width: 1920, height: 1080)
        defer { session.close() }
        // 4:3, so fullscreen on a 16:9 output shows pillars when it fits and none when it fills.
        let pid = try Self.playClip(width: 480, height: 360, seconds: 60, title: "Wayland Clip", in: session, under: sway)
        var window: HeadlessSway.Window? { sway.windows().first { $0.name == "Wayland Clip" } }
        #expect(window?.shell == "xdg_shell" && window?.appID == "reprise", "a native Wayland window: \(String(describing: window))")
        #expect(session.log(of: pid).contains("waylandsink drawing into a Wayland window"))

        // Keys, typed into the focused window.
        sway.message(["[app_id=reprise] focus"])
        // wtype's keyboard exists only while it runs (headless sway has no other): it waits before typing, so the
        // window has the new keyboard (and its keymap and focus) when the key comes, and after, before it goes.
        let type = { (arguments: [String]) in
            _ = try? runCommand("wtype", ["-s", "400"] + arguments + ["-s", "200"], environment: ["WAYLAND_DISPLAY": sway.waylandDisplay])
        }
        type([" "])
        #expect(session.waitFor { session.status() == "Paused" })
        type([" "])
        #expect(session.waitFor { session.status() == "Playing" })
        type(["f"])
        #expect(session.waitFor { window?.fullscreen == true && window?.width == 1920 && window?.height == 1080 }, "\(sway.windows())")

        // Fit: a 1440×1080 picture between 240-pixel black pillars, the bars where they belong.
        let fitted = try #require(screenshot(sway, session), "grim took no screenshot")
        #expect(fitted.isBlack(x: 100, y: 300) && fitted.isBlack(x: 1820, y: 300), "pillars: \(fitted.rgb(x: 100, y: 300))")
        for (index, bar) in Self.bars.enumerated() {
            let x = 240 + (2 * index + 1) * 1440 / 14
            #expect(fitted.matches(x: x, y: 300, bar), "bar \(index) at \(x): \(fitted.rgb(x: x, y: 300))")
        }
        // Fill: the picture covers the screen (the bars stretch to its edges).
        type(["a"])
        var filled: Screenshot?
        #expect(session.waitFor {
            filled = screenshot(sway, session)
            return filled.map { $0.matches(x: 100, y: 300, Self.bars[0]) } == true
        }, "fill: \(String(describing: filled?.rgb(x: 100, y: 300)))")
        type(["a"])

        // At output scale 2 the compositor scales the same picture to the same pixels: as sharp as at scale 1.
        sway.message(["output", "HEADLESS-1", "scale", "2"])
        #expect(session.waitFor { window?.width == 960 && window?.height == 540 }, "\(sway.windows())")
        // A frame drawn while the compositor rescales may still have the old layout: the picture settles to this.
        var scaled: Screenshot?
        #expect(session.waitFor {
            scaled = screenshot(sway, session)
            return scaled.map { $0.width == 1920 && $0.meanDifference(from: fitted, rows: 100..<700) < 0.5 } == true
        }, "scale 2 against scale 1: \(String(describing: scaled.map { $0.meanDifference(from: fitted, rows: 100..<700) }))")
        sway.message(["output", "HEADLESS-1", "scale", "1"])

        // Picture in Picture: a quarter of the width at the picture's aspect, floating; Escape gives fullscreen back.
        // The sound plays on through both switches: never a silent stretch of 20 ms at the speakers.
        let recording = try session.startRecordingSpeakers()
        usleep(300_000)
        type(["p"])
        #expect(session.waitFor { window.map { [$0.width, $0.height] } == [480, 360] && window?.fullscreen == false },
                "\(sway.windows())")
        #expect(window?.floating == true)
        sway.message(["[app_id=reprise] focus"])
        type(["-k", "Escape"])
        #expect(session.waitFor { window?.fullscreen == true && window?.width == 1920 }, "\(sway.windows())")
        usleep(300_000)
        let heard = recording.finish().dropLast(2205).map { abs(Int($0)) } // the recorder's stop left out
        var longestQuiet = 0, run = 0
        for sample in heard {
            run = sample < 30 ? run + 1 : 0
            longestQuiet = max(longestQuiet, run)
        }
        #expect(heard.count > 44100 && longestQuiet < 882, "a gap of \(longestQuiet) samples across Picture in Picture")
        #expect(session.status() == "Playing")
        #expect(session.isRunning(pid), "\(session.log(of: pid))")
    }

    /// Picture in Picture toggled as fast as a client can ask (300 sets, true and false back to back, SetFullscreen
    /// every 7th) never makes the compositor disconnect Reprise: a request while the toplevel is unmapped and mapped
    /// again waits for the configure it needs (a buffer committed before it was a protocol error, "xdg_surface has
    /// never been configured", and the video was gone for the rest of the run; once the service aborted).
    @Test func pictureInPictureToggledFastKeepsTheWindowAndThePicture() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        let pid = try Self.playClip(width: 480, height: 360, seconds: 120, title: "Toggled Clip", in: session, under: sway)
        var window: HeadlessSway.Window? { sway.windows().first { $0.name == "Toggled Clip" } }
        let video = "app.reprise.Video1"
        for round in 0..<300 {
            _ = try? session.set("PictureInPicture", .bool(round % 2 == 0), interface: video)
            if round % 7 == 6 { _ = try? session.call("SetFullscreen", [.bool(round % 14 == 6)], interface: video) }
        }
        _ = try? session.set("PictureInPicture", .bool(false), interface: video)
        _ = try? session.call("SetFullscreen", [.bool(false)], interface: video)
        #expect(session.isRunning(pid), "\(session.log(of: pid).suffix(3000))")
        #expect(!session.log(of: pid).contains("lost the display"), "\(session.log(of: pid).suffix(3000))")
        #expect(session.waitFor { window?.fullscreen == false && window.map { [$0.width, $0.height] } == [480, 360] }, "\(sway.windows())")
        // The picture is still there: the test pattern's bars inside the window (where sway has it now: its
        // placement may still settle after the last toggle).
        var shot: Screenshot?, frame: HeadlessSway.Window?
        #expect(session.waitFor {
            guard let placed = window else { return false }
            frame = placed
            shot = screenshot(sway, session)
            let x = placed.x + placed.width / 14, y = placed.y + placed.height / 4
            return shot.map { $0.matches(x: x, y: y, Self.bars[0]) } == true
        }, "the picture after the toggles: \(String(describing: shot)) \(String(describing: frame))")
        #expect(session.status() == "Playing")
    }

    /// The compositor going away mid-video is survived as losing X is: the sound plays on, video is off from
    /// then on, and Reprise still answers and quits.
    @Test func losingTheCompositorIsSurvived() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        let pid = try Self.playClip(width: 320, height: 240, seconds: 60, title: "Lost Clip", in: session, under: sway)
        sway.stop()
        #expect(session.waitFor { session.log(of: pid).contains("lost the display") }, "\(session.log(of: pid))")
        #expect(session.isRunning(pid) && session.status() == "Playing")
        let position = session.position() ?? 0
        #expect(session.waitFor { (session.position() ?? 0) > position + 500_000 }, "the sound plays on: \(session.log(of: pid).suffix(3000))")
        #expect((try? session.get("CanSetFullscreen", interface: "org.mpris.MediaPlayer2"))?.boolValue == false)
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(pid) != nil, "Reprise quits: \(session.log(of: pid).suffix(2000))")
    }

    /// Network video that stalls shows the window black with the spinner in its middle (a subsurface above the
    /// sink's), then the picture once the data comes.
    @Test func bufferingNetworkVideoShowsTheSpinnerThenThePicture() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        let clip = session.directory + "/clip.ogv"
        try TestMedia.video(at: clip, width: 320, height: 240, seconds: 12, title: "Slow Clip")
        let server = try TrickleServer(serving: try Data(contentsOf: URL(fileURLWithPath: clip)), head: 24_000, stall: 5)
        defer { server.stop() }
        let pid = try session.launch([server.url], extraEnvironment: ["WAYLAND_DISPLAY": sway.waylandDisplay])
        let loading = { (try? session.get("Loading", interface: "app.reprise.Video1"))?.boolValue }
        #expect(session.waitFor { loading() == true }, "\(session.log(of: pid))")
        var window: HeadlessSway.Window? { sway.windows().first { $0.appID == "reprise" } }
        #expect(session.waitFor { window != nil }, "\(sway.windows())")
        // Lit pixels only in the window's middle third, and some there: the spinner on black.
        var lit: (inside: Int, outside: Int) = (0, 0)
        #expect(session.waitFor(4) {
            guard let frame = window, let shot = screenshot(sway, session) else { return false }
            lit = (0, 0)
            for y in stride(from: frame.y, to: frame.y + frame.height, by: 2) {
                for x in stride(from: frame.x, to: frame.x + frame.width, by: 2) where shot.rgb(x: x, y: y).contains(where: { $0 > 100 }) {
                    let middle = abs(x - (frame.x + frame.width / 2)) < frame.width / 6 && abs(y - (frame.y + frame.height / 2)) < frame.height / 6
                    if middle { lit.inside += 1 } else { lit.outside += 1 }
                }
            }
            return lit.inside > 0
        }, "no spinner: \(String(describing: window))")
        #expect(lit.outside == 0, "lit outside the middle: \(lit)")
        #expect(session.waitFor { loading() == false })
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) > 500_000 }, "\(session.log(of: pid))")
        #expect(session.waitFor { sway.windows().contains { $0.name == "Slow Clip" } }, "\(sway.windows()) \(session.log(of: pid).suffix(3000))")
        // The picture has the window again: the test pattern's first bar at its left.
        #expect(session.waitFor {
            guard let frame = window, let shot = screenshot(sway, session) else { return false }
            return shot.matches(x: frame.x + frame.width / 28, y: frame.y + frame.height / 4, Self.bars[0])
        }, "no picture after loading")
    }

    /// Subtitles are drawn into the picture before waylandsink: a black clip with a sidecar cue shows white text in
    /// its lower part, and none once subtitles are turned off.
    @Test func subtitlesShowInTheWaylandWindow() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        let clip = session.directory + "/dark.ogv"
        let made = try runCommand("gst-launch-1.0", [
            "-q", "videotestsrc", "pattern=black", "num-buffers=1500", "!", "video/x-raw,width=640,height=360,framerate=25/1", "!",
            "theoraenc", "!", "oggmux", "name=mux", "!", "filesink", "location=\(clip)",
            "audiotestsrc", "num-buffers=2600", "volume=0.05", "!", "audioconvert", "!", "vorbisenc", "!", "mux.",
        ])
        #expect(made.status == 0, "\(made.errors)")
        try TestMedia.subtitles(at: session.directory + "/dark.srt", count: 30) // a cue every 2 s, 1.9 s long
        let pid = try session.launch([clip], extraEnvironment: ["WAYLAND_DISPLAY": sway.waylandDisplay])
        var window: HeadlessSway.Window? { sway.windows().first { $0.appID == "reprise" } }
        #expect(session.waitFor { window.map { [$0.width, $0.height] } == [640, 360] }, "\(sway.windows()) \(session.log(of: pid))")
        /// White pixels in the window's lower half (the picture itself is black).
        func whiteBelowMiddle() -> Int {
            guard let frame = window, let shot = screenshot(sway, session) else { return -1 }
            var count = 0
            for y in stride(from: frame.y + frame.height / 2, to: frame.y + frame.height, by: 2) {
                for x in stride(from: frame.x, to: frame.x + frame.width, by: 2) where shot.rgb(x: x, y: y).allSatisfy({ $0 > 200 }) { count += 1 }
            }
            return count
        }
        #expect(session.waitFor { whiteBelowMiddle() > 50 }, "no subtitle text: \(whiteBelowMiddle()) white pixels")
        try session.call("SelectSubtitleTrack", [.int32(-1)], interface: "app.reprise.Video1")
        // Frames drawn with the text before may still be on their way to the screen (more of them on a busy machine).
        #expect(session.waitFor { whiteBelowMiddle() == 0 }, "subtitles still shown: \(whiteBelowMiddle()) white pixels")
        // Off: no text in five screenshots over two seconds (a cue would show in at least one).
        var seen: [Int] = []
        for _ in 0..<5 {
            seen.append(whiteBelowMiddle())
            usleep(400_000)
        }
        #expect(seen.allSatisfy { $0 == 0 }, "white pixels after subtitles were turned off: \(seen)")
    }

    /// Without waylandsink (GStreamer without plugins-bad) the Wayland session still shows video: in the X11 window,
    /// through XWayland.
    @Test func withoutWaylandsinkTheVideoGoesToTheX11Window() throws {
        let (session, sway) = try sessionUnderSway(width: 1280, height: 720)
        defer { session.close() }
        let clip = session.directory + "/clip.ogv"
        try generateVideo(at: clip, width: 320, height: 240, seconds: 30, title: "Fallback Clip")
        let pid = try session.launch([clip], extraEnvironment: [
            "WAYLAND_DISPLAY": sway.waylandDisplay, "DISPLAY": sway.xDisplay,
            "GST_PLUGIN_LOADING_WHITELIST": "gstreamer:gst-plugins-base:gst-plugins-good",
        ])
        #expect(session.waitFor { sway.windows().contains { $0.name == "Fallback Clip" } }, "\(sway.windows()) \(session.log(of: pid))")
        #expect(sway.windows().first { $0.name == "Fallback Clip" }?.shell == "xwayland", "\(sway.windows())")
        #expect(session.status() == "Playing")
    }

    /// The output as `grim` sees it (PPM), nil when it took none.
    static func screenshot(_ sway: HeadlessSway, _ session: Session) -> Screenshot? {
        let path = session.directory + "/shot.ppm"
        guard (try? runCommand("grim", ["-t", "ppm", path], environment: ["WAYLAND_DISPLAY": sway.waylandDisplay]))?.status == 0,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return Screenshot(ppm: data)
    }

    func screenshot(_ sway: HeadlessSway, _ session: Session) -> Screenshot? { Self.screenshot(sway, session) }

    /// Generates a clip of `width`×`height` titled `title`, plays it under `sway` and expects its window at the
    /// clip's size; returns Reprise's PID.
    static func playClip(width: Int, height: Int, seconds: Int, title: String, sidecar: String? = nil, in session: Session,
                          under sway: HeadlessSway) throws -> pid_t {
        let clip = session.directory + "/clip.ogv"
        try generateVideo(at: clip, width: width, height: height, seconds: seconds, title: title)
        if let sidecar { try sidecar.write(toFile: session.directory + "/clip.reprise.json", atomically: true, encoding: .utf8) }
        let pid = try session.launch([clip], extraEnvironment: ["WAYLAND_DISPLAY": sway.waylandDisplay])
        #expect(session.waitFor { sway.windows().contains { $0.name == title && [$0.width, $0.height] == [width, height] } },
                "\(sway.windows())\n\(session.log(of: pid))")
        return pid
    }
}

/// A binary PPM (P6, 8-bit) screenshot.
struct Screenshot: CustomStringConvertible {
    var description: String { "\(width)×\(height) screenshot" }

    let width: Int, height: Int
    private let pixels: [UInt8]

    init?(ppm data: Data) {
        let bytes = [UInt8](data)
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4, index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
                if !current.isEmpty { fields.append(current); current = "" }
            } else { current.append(Character(Unicode.Scalar(byte))) }
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              bytes.count - index >= width * height * 3 else { return nil }
        self.width = width
        self.height = height
        pixels = Array(bytes[index..<index + width * height * 3])
    }

    func rgb(x: Int, y: Int) -> [Int] {
        guard x >= 0, x < width, y >= 0, y < height else { return [] }
        let offset = (y * width + x) * 3
        return [Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2])]
    }

    /// Whether the channels lit at (x, y) are those of `lit` (1: above 160, 0: below 40).
    func matches(x: Int, y: Int, _ lit: [Int]) -> Bool {
        let found = rgb(x: x, y: y)
        return found.count == 3 && zip(found, lit).allSatisfy { $1 == 1 ? $0 > 160 : $0 < 40 }
    }

    func isBlack(x: Int, y: Int) -> Bool { rgb(x: x, y: y).count == 3 && rgb(x: x, y: y).allSatisfy { $0 < 16 } }

    /// The mean absolute difference of the channels over a rectangle (same-size pictures; 255 otherwise).
    func meanDifference(from other: Screenshot, x: Int, y: Int, width: Int, height: Int) -> Double {
        guard self.width == other.width, self.height == other.height, x >= 0, y >= 0, width > 0, height > 0,
              x + width <= self.width, y + height <= self.height else { return 255 }
        var total = 0
        for row in y..<y + height {
            for offset in (row * self.width + x) * 3..<(row * self.width + x + width) * 3 {
                total += abs(Int(pixels[offset]) - Int(other.pixels[offset]))
            }
        }
        return Double(total) / Double(width * height * 3)
    }

    /// How many of the rectangle's 2×2 blocks (from even coordinates) hold more than one colour: none in a picture
    /// enlarged twice from its own pixels, many along the edges of one drawn at twice the size.
    func unevenBlocks(x: Int, y: Int, width: Int, height: Int) -> Int {
        var count = 0
        for top in stride(from: y & ~1, to: y + height - 1, by: 2) {
            for left in stride(from: x & ~1, to: x + width - 1, by: 2) {
                let first = rgb(x: left, y: top)
                if [rgb(x: left + 1, y: top), rgb(x: left, y: top + 1), rgb(x: left + 1, y: top + 1)]
                    .contains(where: { zip($0, first).contains { abs($0 - $1) > 8 } }) { count += 1 }
            }
        }
        return count
    }

    /// The mean absolute difference of the channels over `rows` (same-size pictures; 255 otherwise).
    func meanDifference(from other: Screenshot, rows: Range<Int>) -> Double {
        guard width == other.width, height == other.height, rows.lowerBound >= 0, rows.upperBound <= height else { return 255 }
        var total = 0
        for offset in rows.lowerBound * width * 3..<rows.upperBound * width * 3 { total += abs(Int(pixels[offset]) - Int(other.pixels[offset])) }
        return Double(total) / Double(rows.count * width * 3)
    }
}
