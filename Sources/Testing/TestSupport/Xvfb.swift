import Foundation
import Glibc

/// A private X server (Xvfb) on a display number the harness reserves with X's lock-file convention; ``stop()`` ends
/// it by PID and gives the number back.
///
/// Xvfb picking a number itself (`-displayfd` alone) neither honours nor writes X's lock (`/tmp/.Xn-lock`): it only
/// finds a number whose socket it can bind, so an X server whose abstract socket it cannot see (one in another network
/// namespace, or one that has not bound yet) could be given the same display. Here a number is taken only when its
/// lock can be created (naming this process; a lock naming a process that has ended is stale and taken over), and
/// Xvfb is then told that number; if it still cannot listen there, the next number is tried.
public final class XvfbServer {
    /// The display name, e.g. ":23", for `DISPLAY`.
    public let name: String
    private var server: Child
    /// The display's lock, until ``stop()`` removes it.
    private var lock: String?

    /// Where the numbers tried start: above those a desktop's own servers and compositors' XWayland take first.
    static let firstDisplay = 20, lastDisplay = 400

    public init(directory: String, width: Int, height: Int) throws {
        var number = Self.firstDisplay, failedStarts = 0
        while number <= Self.lastDisplay, failedStarts < 8 {
            guard let lock = Self.reserve(display: number) else { number += 1; continue }
            if let server = try Self.start(display: number, directory: directory, width: width, height: height) {
                self.server = server
                self.lock = lock
                name = ":\(number)"
                return
            }
            unlink(lock)
            number += 1
            failedStarts += 1
        }
        throw HarnessError(message: "Xvfb found no display it could serve (up to :\(number)): "
                                    + ((try? String(contentsOfFile: directory + "/xvfb.log", encoding: .utf8)) ?? ""))
    }

    /// Creates display `number`'s lock, naming this process (as X servers write theirs: the PID in ten columns); nil
    /// when a running process holds it.
    private static func reserve(display number: Int) -> String? {
        let path = "/tmp/.X\(number)-lock"
        for _ in 0..<2 {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o444)
            if descriptor >= 0 {
                let text = String(repeating: " ", count: max(0, 10 - String(getpid()).count)) + "\(getpid())\n"
                let written = text.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, text.utf8.count) }
                close(descriptor)
                if written == text.utf8.count { return path }
                unlink(path)
                return nil
            }
            guard errno == EEXIST else { return nil }
            // A lock naming a process that is gone is stale (its server was killed outright): taken over.
            let owner = (try? String(contentsOfFile: path, encoding: .utf8))
                .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard let owner, owner > 0, kill(owner, 0) != 0, errno == ESRCH else { return nil }
            unlink(path)
        }
        return nil
    }

    /// Xvfb on display `number`, once it accepts clients (`-displayfd`: it writes the number to descriptor 1 then);
    /// nil when it ended instead (it could not listen there). `-noreset`: an X server resets when its last client
    /// leaves, and a client connecting meanwhile is refused — a harness's `xdotool` looking for a window that has not
    /// come yet leaves just as the app starts (Cantata once failed so: "could not connect to display").
    private static func start(display number: Int, directory: String, width: Int, height: Int) throws -> Child? {
        let numberFile = directory + "/xvfb-display-\(UUID().uuidString)"
        var server = try Child.spawn("Xvfb", [":\(number)", "-displayfd", "1", "-screen", "0", "\(width)x\(height)x24",
                                              "-nolisten", "tcp", "-noreset"],
                                     environment: nil, stdout: numberFile, stderr: directory + "/xvfb.log")
        var told = ""
        _ = eventually(20) {
            told = ((try? String(contentsOfFile: numberFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !told.isEmpty || !server.isRunning()
        }
        guard told == String(number) else {
            if server.isRunning() { kill(server.pid, SIGKILL) }
            _ = server.wait()
            return nil
        }
        return server
    }

    /// SIGTERM first, SIGKILL if Xvfb has not gone within 5 s; then the display's lock is removed.
    public func stop() {
        server.terminate()
        if let lock { unlink(lock) }
        lock = nil
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
