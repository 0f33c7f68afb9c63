import Foundation
import Glibc

/// A headless KWin (`kwin_wayland --virtual`, QPainter compositing) with XWayland, in a folder of its own (its
/// runtime directory, home and configuration), for what headless sway cannot deliver: touch. Its fake input
/// (`org_kde_kwin_fake_input`, let in by `KWIN_WAYLAND_NO_PERMISSION_CHECKS`) reaches Wayland clients as wl_touch
/// and X11 clients, through XWayland, as XInput 2 touch events. ``stop()`` ends it by PID.
public final class HeadlessKWin: VirtualInputTarget {
    private let folder: String
    private let runtimeFolder: String
    private var child: Child
    /// The X display KWin's XWayland serves (for `DISPLAY`).
    public private(set) var xDisplay = ""
    /// The Wayland socket's full path (for `WAYLAND_DISPLAY`).
    public var waylandDisplay: String { runtimeFolder + "/wayland-reprise" }
    public var log: String { (try? String(contentsOfFile: folder + "/kwin.log", encoding: .utf8)) ?? "" }

    private static let installed = "/usr/bin/kwin_wayland"

    public init(width: Int, height: Int) throws {
        folder = NSTemporaryDirectory() + "reprise-kwin-" + UUID().uuidString
        runtimeFolder = folder + "/run"
        try FileManager.default.createDirectory(atPath: runtimeFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createDirectory(atPath: folder + "/home", withIntermediateDirectories: true)
        // Debian gives kwin_wayland a file capability (cap_sys_resource) that a container's bounding set may lack,
        // and then exec fails; a copy carries none.
        let binary = folder + "/kwin_wayland"
        try FileManager.default.copyItem(atPath: Self.installed, toPath: binary)
        // XWayland puts its socket there, and does not make the folder.
        if !FileManager.default.fileExists(atPath: "/tmp/.X11-unix") {
            mkdir("/tmp/.X11-unix", 0o1777)
            chmod("/tmp/.X11-unix", 0o1777)
        }
        let displayFile = folder + "/display"
        let environment = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtimeFolder, "HOME": folder + "/home",
                           "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1", "KWIN_COMPOSE": "Q"]
        // KWin starts its command-line applications once XWayland is up, with DISPLAY set: the one here says it.
        child = try Child.spawn(binary, ["--virtual", "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities",
                                         "--xwayland", "--socket", "wayland-reprise",
                                         "--width", String(width), "--height", String(height),
                                         "sh -c 'echo $DISPLAY > \(displayFile).new && mv \(displayFile).new \(displayFile)'"],
                                environment: environment, stdout: folder + "/kwin.log", stderr: folder + "/kwin.log")
        guard eventually(30, {
            xDisplay = ((try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !xDisplay.isEmpty || !child.isRunning()
        }), !xDisplay.isEmpty else {
            let log = log
            stop()
            throw HarnessError(message: "KWin did not start with XWayland: \(log.suffix(2000))")
        }
    }

    /// Ends KWin by PID: SIGTERM first, so that it ends its XWayland, which then removes its lock and socket in
    /// /tmp; SIGKILL if it has not gone within 5 s.
    public func stop() {
        child.terminate()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
