import Foundation
import TestSupport

/// A private X server (Xvfb, 1280×720) for the video tests, killed by PID in ``stop()``; with xdotool,
/// xwininfo and GStreamer's ximagesrc to find, measure and photograph windows.
final class VirtualDisplay {
    let name: String
    private let server: XvfbServer
    private let directory: String
    static let width = 1280, height = 720

    init(directory: String) throws {
        self.directory = directory
        server = try XvfbServer(directory: directory, width: Self.width, height: Self.height)
        name = server.name
    }

    func stop() { server.stop() }

    private func run(_ tool: String, _ arguments: [String]) -> CommandResult? {
        try? runCommand(tool, arguments, environment: ["DISPLAY": name, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"])
    }

    /// Ids of mapped windows whose title matches the regular expression `title`.
    func visibleWindows(title: String) -> [String] {
        guard let result = run("xdotool", ["search", "--onlyvisible", "--name", title]), result.status == 0 else { return [] }
        return result.output.split(separator: "\n").map(String.init)
    }

    /// Ids of mapped windows whose class matches the regular expression `windowClass`.
    func visibleWindows(class windowClass: String) -> [String] {
        guard let result = run("xdotool", ["search", "--onlyvisible", "--class", windowClass]), result.status == 0 else { return [] }
        return result.output.split(separator: "\n").map(String.init)
    }

    /// Mapped windows of class `reprise` (any title).
    func visibleRepriseWindows() -> [String] {
        guard let result = run("xdotool", ["search", "--onlyvisible", "--class", "reprise"]), result.status == 0 else { return [] }
        return result.output.split(separator: "\n").map(String.init)
    }

    func title(of window: String) -> String? {
        run("xdotool", ["getwindowname", window])?.trimmed
    }

    /// Width and height from xwininfo.
    func size(of window: String) -> (width: Int, height: Int)? {
        let values = windowInfo(window, "Width:", "Height:")
        return values.count == 2 ? (values[0], values[1]) : nil
    }

    /// Where the window's top left corner is on the screen (xwininfo's absolute position).
    func position(of window: String) -> (x: Int, y: Int)? {
        let values = windowInfo(window, "Absolute upper-left X:", "Absolute upper-left Y:")
        return values.count == 2 ? (values[0], values[1]) : nil
    }

    /// The numbers xwininfo gives for `keys`, in their order; empty when any is missing.
    private func windowInfo(_ window: String, _ keys: String...) -> [Int] {
        guard let info = run("xwininfo", ["-id", window])?.output else { return [] }
        let lines = info.split(separator: "\n")
        let values = keys.compactMap { key in
            lines.first { $0.contains(key) }.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        }
        return values.count == keys.count ? values : []
    }

    /// The window's property `name` as xprop prints it ("" when unset).
    func property(_ name: String, of window: String) -> String {
        run("xprop", ["-id", window, name])?.output ?? ""
    }

    /// Resizes the window as a user dragging its corner would.
    func resize(_ window: String, width: Int, height: Int) {
        _ = run("xdotool", ["windowsize", window, String(width), String(height)])
    }

    /// Sends a key (xdotool's name: space, Right, f, Escape, bracketright…) to the window.
    func press(_ key: String, in window: String) {
        _ = run("xdotool", ["key", "--window", window, key])
    }

    /// Moves the pointer to (`x`, `y`) in the window (XTest, as a mouse would).
    func movePointer(to window: String, x: Int, y: Int) {
        _ = run("xdotool", ["mousemove", "--window", window, String(x), String(y)])
    }

    /// Clicks the primary button at (`x`, `y`) in the window, `count` times in a row.
    func click(_ window: String, x: Int, y: Int, count: Int = 1) {
        _ = run("xdotool", ["mousemove", "--window", window, String(x), String(y), "click", "--repeat", String(count), "--delay", "80", "1"])
    }

    /// Clicks the primary button where the pointer is, without moving it: `count` times, `delayMilliseconds` apart.
    func clickInPlace(count: Int = 1, delayMilliseconds: Int = 80) {
        _ = run("xdotool", ["click", "--repeat", String(count), "--delay", String(delayMilliseconds), "1"])
    }

    /// Starts xsettingsd on this display with `settings` (its configuration's lines, `Net/DoubleClickTime 2000`) as
    /// the desktop's XSETTINGS manager, once it owns the selection; ended by PID with the display's session.
    func startSettingsManager(_ settings: [String], in session: Session) throws {
        let configuration = directory + "/xsettingsd.conf", log = directory + "/xsettingsd.log"
        try (settings.joined(separator: "\n") + "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
        var manager = try Child.spawn("xsettingsd", ["-c", configuration], environment: ["DISPLAY": name], stdout: log, stderr: log)
        session.onClose { manager.terminate() }
        guard session.waitFor(10, { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Took ownership of selection") }) else {
            throw HarnessError(message: "xsettingsd did not take the XSETTINGS selection: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }

    /// Turns the wheel a notch at (`x`, `y`) in the window: down (button 5) or up (button 4).
    func wheel(_ window: String, x: Int, y: Int, down: Bool) {
        _ = run("xdotool", ["mousemove", "--window", window, String(x), String(y), "click", down ? "5" : "4"])
    }

    /// How many pixels of the window's rectangle (`x`, `y`, `width`, `height`) are bright (over `level` in a channel).
    func brightPixels(_ window: String, x: Int, y: Int, width: Int, height: Int, level: UInt8 = 200) throws -> Int {
        try brightPixelsByRow(window, x: x, y: y, width: width, height: height, level: level).reduce(0, +)
    }

    /// How many pixels of each row of the window's rectangle are bright, top row first.
    func brightPixelsByRow(_ window: String, x: Int, y: Int, width: Int, height: Int, level: UInt8 = 200) throws -> [Int] {
        let (size, data) = try capture(window)
        return (max(0, y)..<min(size.height, y + height)).map { row in
            (max(0, x)..<min(size.width, x + width)).count { column in
                let offset = (row * size.width + column) * 4
                return max(data[offset], data[offset + 1], data[offset + 2]) > level
            }
        }
    }

    /// How many pixels of the screen's rectangle are bright: what a person sees, whatever the windows' sizes.
    func brightPixelsOnScreen(x: Int, y: Int, width: Int, height: Int, level: UInt8 = 200) throws -> Int {
        let (size, data) = try capture(nil)
        return (max(0, y)..<min(size.height, y + height)).reduce(0) { sum, row in
            sum + (max(0, x)..<min(size.width, x + width)).count { column in
                let offset = (row * size.width + column) * 4
                return max(data[offset], data[offset + 1], data[offset + 2]) > level
            }
        }
    }

    /// The screen's pixels, RGBx, row by row.
    func screenPixels() throws -> [UInt8] { try capture(nil).1 }

    /// Moves the pointer to (`x`, `y`) on the screen and clicks there.
    func clickScreen(x: Int, y: Int) {
        _ = run("xdotool", ["mousemove", String(x), String(y), "click", "1"])
    }

    /// Moves the window's top left corner to (`x`, `y`) on the screen.
    func move(_ window: String, x: Int, y: Int) {
        _ = run("xdotool", ["windowmove", window, String(x), String(y)])
    }

    /// The window's pixels (nil: the screen's), RGBx, as ximagesrc takes them.
    private func capture(_ window: String?) throws -> ((width: Int, height: Int), [UInt8]) {
        guard let size = window.map({ size(of: $0) }) ?? (Self.width, Self.height) else { throw HarnessError(message: "no window \(window ?? "")") }
        let file = directory + "/shot-\(UUID().uuidString).rgbx"
        defer { unlink(file) }
        let made = run("gst-launch-1.0", ["-q", "ximagesrc", "show-pointer=false"] + (window.map { ["xid=\($0)"] } ?? []) + ["num-buffers=1", "!",
                                          "videoconvert", "!", "video/x-raw,format=RGBx", "!", "filesink", "location=\(file)"])
        guard made?.status == 0, let data = FileManager.default.contents(atPath: file), data.count == size.width * size.height * 4 else {
            throw HarnessError(message: "ximagesrc failed: \(made?.errors ?? "")")
        }
        return (size, [UInt8](data))
    }

    /// A photograph of the window: the bounding box of its non-black pixels and their share of the window.
    struct Picture {
        var width: Int, height: Int
        var box: (left: Int, top: Int, right: Int, bottom: Int)?
        var litShare: Double
        var boxWidth: Int { box.map { $0.right - $0.left + 1 } ?? 0 }
        var boxHeight: Int { box.map { $0.bottom - $0.top + 1 } ?? 0 }
    }

    func photograph(_ window: String) throws -> Picture {
        let (size, data) = try capture(window)
        var picture = Picture(width: size.width, height: size.height, box: nil, litShare: 0)
        var lit = 0
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let offset = (y * size.width + x) * 4
                    guard max(bytes[offset], bytes[offset + 1], bytes[offset + 2]) > 40 else { continue }
                    lit += 1
                    if let box = picture.box {
                        picture.box = (min(box.left, x), min(box.top, y), max(box.right, x), max(box.bottom, y))
                    } else {
                        picture.box = (x, y, x, y)
                    }
                }
            }
        }
        picture.litShare = Double(lit) / Double(size.width * size.height)
        return picture
    }
}

extension TestMedia {
    /// An Ogg (Theora + Vorbis) video of SMPTE colour bars, `width`×`height`, tagged with `title`.
    static func video(at path: String, width: Int, height: Int, seconds: Int, title: String) throws {
        try generateVideo(at: path, width: width, height: height, seconds: seconds, title: title)
    }

    /// A SubRip file with `count` two-second cues (long enough for GStreamer's type finder, which wants 129 bytes).
    static func subtitles(at path: String, count: Int = 5) throws {
        let cues = (0..<count).map { n in
            "\(n + 1)\n00:00:\(String(format: "%02d", n * 2)),000 --> 00:00:\(String(format: "%02d", n * 2 + 1)),900\nSubtitle line number \(n + 1)\n"
        }
        try cues.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A Matroska video with two audio streams (English, French) and an embedded subtitle stream (German).
    static func multilingualVideo(at path: String, subtitles: String) throws {
        let made = try runCommand("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=250", "!", "video/x-raw,width=320,height=240,framerate=25/1", "!", "theoraenc", "!",
            "matroskamux", "name=mux", "!", "filesink", "location=\(path)",
            "audiotestsrc", "num-buffers=431", "volume=0.05", "!", "audioconvert", "!",
            "taginject", "tags=\"language-code=en,title=\\\"English\\\"\"", "!", "vorbisenc", "!", "mux.",
            "audiotestsrc", "num-buffers=431", "freq=660", "volume=0.05", "!", "audioconvert", "!",
            "taginject", "tags=\"language-code=fr,title=\\\"French\\\"\"", "!", "vorbisenc", "!", "mux.",
            "filesrc", "location=\(subtitles)", "!", "subparse", "!", "taginject", "tags=\"language-code=de\"", "!", "mux.",
        ])
        guard made.status == 0 else { throw HarnessError(message: "video generation failed: \(made.errors)") }
    }

    /// Eleven minutes of a tiny, one-frame-a-second video with quiet sound: long enough to be resumed.
    static func longVideo(at path: String, title: String) throws {
        let made = try runCommand("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=660", "!", "video/x-raw,width=64,height=48,framerate=1/1", "!", "theoraenc", "!",
            "oggmux", "name=mux", "!", "filesink", "location=\(path)",
            "audiotestsrc", "num-buffers=\(660 * 8000 / 1024)", "volume=0.01", "!", "audio/x-raw,rate=8000,channels=1", "!",
            "audioconvert", "!", "taginject", "tags=\"title=\\\"\(title)\\\"\"", "!", "vorbisenc", "!", "mux.",
        ])
        guard made.status == 0 else { throw HarnessError(message: "video generation failed: \(made.errors)") }
    }
}
