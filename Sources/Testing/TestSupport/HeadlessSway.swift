import Foundation
import Glibc

/// A headless sway (wlroots' headless backend, the pixman renderer, no input devices) with XWayland, in a folder of
/// its own; run as `nobody` when the tests run as root (sway refuses root), with root's X clients let in by `xhost`.
/// Windows are read from `swaymsg -t get_tree`; ``stop()`` kills it by PID.
public final class HeadlessSway {
    public struct Window: Sendable {
        public let name: String
        /// `xdg_shell` for a native Wayland client, `xwayland` for an X11 one.
        public let shell: String
        public let appID: String?
        public let windowClass: String?
        /// The window's content (without sway's border), on the output.
        public let x: Int, y: Int, width: Int, height: Int
        public let fullscreen: Bool
        public let floating: Bool
    }

    private let folder: String
    private let socketFolder: String
    private var child: Child
    /// The X display sway's XWayland serves (for `DISPLAY`).
    public private(set) var xDisplay = ""
    /// The Wayland socket's full path (for `WAYLAND_DISPLAY`).
    public var waylandDisplay: String {
        let name = ((try? FileManager.default.contentsOfDirectory(atPath: socketFolder)) ?? [])
            .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } ?? "wayland-1"
        return socketFolder + "/" + name
    }

    public init(width: Int, height: Int) throws {
        folder = NSTemporaryDirectory() + "reprise-sway-" + UUID().uuidString
        socketFolder = folder + "/run"
        try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(folder, 0o755)
        let config = folder + "/config"
        try """
            xwayland enable
            output HEADLESS-1 mode \(width)x\(height)
            for_window [class="reprise"] floating enable
            for_window [app_id="reprise"] floating enable
            """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        let environment = ["XDG_RUNTIME_DIR=\(socketFolder)", "WLR_BACKENDS=headless", "WLR_RENDERER=pixman",
                           "WLR_LIBINPUT_NO_DEVICES=1", "PATH=/usr/bin:/bin"]
        let asRoot = getuid() == 0
        if asRoot, let nobody = getpwnam("nobody") { chown(socketFolder, nobody.pointee.pw_uid, nobody.pointee.pw_gid) }
        let command = (asRoot ? ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "env", "-i"] : ["-i"]) + environment
            + ["sway", "-c", config]
        child = try Child.spawn(asRoot ? "setpriv" : "env", command, environment: nil, stdout: folder + "/sway.log",
                                stderr: folder + "/sway.log")
        guard eventually(20, { self.socket != nil && self.message(["-t", "get_outputs"])?.status == 0 }) else {
            let log = log
            stop()
            throw HarnessError(message: "sway did not start: \(log)")
        }
        // XWayland starts with its first client, and sway names its display once it is ready: ask sway to run one
        // that lets this user in, again until it has.
        let displayFile = socketFolder + "/display"
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        var lastAsked = 0.0
        guard eventually(30, {
            if monotonicSeconds() - lastAsked > 1 {
                lastAsked = monotonicSeconds()
                self.message(["exec", "xhost +si:localuser:\(user) > \(displayFile).log 2>&1 && echo $DISPLAY > \(displayFile)"])
            }
            self.xDisplay = ((try? String(contentsOfFile: displayFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            return !self.xDisplay.isEmpty
        }) else {
            let log = log + ((try? String(contentsOfFile: displayFile + ".log", encoding: .utf8)) ?? "")
            stop()
            throw HarnessError(message: "sway's XWayland did not let this user in: \(log)")
        }
    }

    public var log: String { (try? String(contentsOfFile: folder + "/sway.log", encoding: .utf8)) ?? "" }

    private var socket: String? {
        ((try? FileManager.default.contentsOfDirectory(atPath: socketFolder)) ?? []).first { $0.hasPrefix("sway-ipc.") }
            .map { socketFolder + "/" + $0 }
    }

    /// Runs `swaymsg` on this sway.
    @discardableResult
    public func message(_ arguments: [String]) -> CommandResult? {
        guard let socket else { return nil }
        return try? runCommand("swaymsg", ["-s", socket] + arguments)
    }

    /// Every window in sway's tree, tiled or floating.
    public func windows() -> [Window] {
        guard let result = message(["-t", "get_tree"]), result.status == 0,
              let tree = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else { return [] }
        var found: [Window] = []
        func walk(_ node: [String: Any]) {
            let children = (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? [])
            for child in children {
                if let shell = child["shell"] as? String, let rect = child["rect"] as? [String: Int],
                   let content = child["window_rect"] as? [String: Int] {
                    found.append(Window(name: child["name"] as? String ?? "", shell: shell, appID: child["app_id"] as? String,
                                        windowClass: (child["window_properties"] as? [String: Any])?["class"] as? String,
                                        // Sway's title bar is in neither window_rect's y nor deco_rect (both 0 for a
                                        // floating window with a title): the content ends a side border above the
                                        // container's bottom.
                                        x: (rect["x"] ?? 0) + (content["x"] ?? 0),
                                        y: (rect["y"] ?? 0) + (rect["height"] ?? 0) - (content["height"] ?? 0) - (content["x"] ?? 0),
                                        width: content["width"] ?? 0, height: content["height"] ?? 0,
                                        fullscreen: (child["fullscreen_mode"] as? Int ?? 0) != 0,
                                        floating: child["type"] as? String == "floating_con"))
                }
                walk(child)
            }
        }
        walk(tree)
        return found
    }

    /// Ends sway by PID: SIGTERM first, so that it ends its XWayland and removes the X lock and socket it made in
    /// /tmp (a stale lock lets two X servers take one display); SIGKILL if it has not gone within 5 s.
    public func stop() {
        child.terminate()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
