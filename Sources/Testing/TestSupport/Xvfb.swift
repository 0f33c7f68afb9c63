import Foundation
import Glibc

/// A private X server (Xvfb) on a display number it picks itself; ``stop()`` ends it by PID.
public final class XvfbServer {
    /// The display name, e.g. ":3", for `DISPLAY`.
    public let name: String
    private var server: Child

    public init(directory: String, width: Int, height: Int) throws {
        let numberFile = directory + "/xvfb-display-\(UUID().uuidString)"
        // -displayfd: Xvfb picks a free display number and writes it to descriptor 1 once it accepts clients.
        var server = try Child.spawn("Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
                                     environment: nil, stdout: numberFile, stderr: directory + "/xvfb.log")
        var number = ""
        _ = eventually(20) {
            number = ((try? String(contentsOfFile: numberFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !number.isEmpty || !server.isRunning()
        }
        guard !number.isEmpty else {
            if server.isRunning() { kill(server.pid, SIGKILL); _ = server.wait() }
            throw HarnessError(message: "Xvfb did not start: \((try? String(contentsOfFile: directory + "/xvfb.log", encoding: .utf8)) ?? "")")
        }
        self.server = server
        name = ":" + number
    }

    /// SIGTERM first, so that Xvfb removes its lock (`/tmp/.Xn-lock`) and socket; SIGKILL if it has not gone within
    /// 5 s. A server killed outright leaves a stale lock, and the next X servers started beside each other (another
    /// Xvfb, KWin's or sway's XWayland, each taking a stale lock over on its own) could both take that display: a
    /// client then reached the other one and could not connect.
    public func stop() {
        server.terminate()
    }
}

/// An Ogg (Theora + Vorbis) video of SMPTE colour bars, `width`×`height` at 25 frames a second, tagged with `title`.
public func generateVideo(at path: String, width: Int, height: Int, seconds: Int, title: String) throws {
    let frames = seconds * 25, samples = seconds * 44_100 / 1024 + 1
    let made = try runCommand("gst-launch-1.0", [
        "-q", "videotestsrc", "num-buffers=\(frames)", "!", "video/x-raw,width=\(width),height=\(height),framerate=25/1", "!",
        "theoraenc", "!", "oggmux", "name=mux", "!", "filesink", "location=\(path)",
        "audiotestsrc", "num-buffers=\(samples)", "volume=0.05", "!", "audioconvert", "!",
        "taginject", "tags=\"title=\\\"\(title)\\\"\"", "!", "vorbisenc", "!", "mux.",
    ])
    guard made.status == 0 else { throw HarnessError(message: "video generation failed: \(made.errors)") }
}
