import Foundation
import TestSupport

/// A program measured by the benchmark: Reprise, the bare GStreamer floor, or another MPRIS player.
struct Contender: Sendable {
    var name: String
    /// Its MPRIS bus name; nil for the floor, which has none.
    let busName: String?
    /// The command that plays `file`.
    let command: @Sendable (String) -> [String]
    /// Run as this user (VLC refuses root), through setpriv so the PID is the player's own.
    var user: String? = nil
    /// The X display it shows video on (nil: none, as for the audio figures).
    var display: String? = nil
    /// Added to its environment (an LD_PRELOAD shim, say).
    var environment: [String: String] = [:]

    static func reprise(binary: String, arguments: [String] = []) -> Contender {
        Contender(name: "Reprise", busName: "org.mpris.MediaPlayer2.reprise") { [binary] + arguments + [$0] }
    }

    static let gstreamerFloor = Contender(name: "gst-launch playbin (floor)", busName: nil) {
        ["gst-launch-1.0", "-q", "playbin", "uri=\(URL(fileURLWithPath: $0).absoluteString)"]
    }

    static let mpv = Contender(name: "mpv + mpv-mpris", busName: "org.mpris.MediaPlayer2.mpv") {
        ["mpv", "--no-video", "--no-terminal", "--ao=pulse", "--idle=no", $0]
    }

    static func vlc(user: String) -> Contender {
        Contender(name: "VLC", busName: "org.mpris.MediaPlayer2.vlc", command: {
            ["cvlc", "--no-video", "--aout=pulse", "--control=dbus", "--play-and-exit", $0]
        }, user: user)
    }

    /// Whether the programs it needs are installed.
    var isAvailable: Bool {
        guard let tool = command("x").first else { return false }
        if tool.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: tool) }
        guard (try? runCommand("sh", ["-c", "command -v \(tool)"]).status) == 0 else { return false }
        if name.hasPrefix("mpv") { return FileManager.default.fileExists(atPath: "/etc/mpv/scripts/mpris.so") }
        if let user { return (try? runCommand("id", ["-u", user]).status) == 0 }
        return true
    }

    /// Starts it playing `file` on `desktop`, logging to `log`.
    func start(_ file: String, on desktop: PrivateDesktop, log: String) throws -> Child {
        var arguments = command(file)
        var environment = desktop.environment
        if let display { environment["DISPLAY"] = display }
        environment.merge(self.environment) { $1 }
        if let user {
            let home = desktop.directory + "/home-\(user)"
            try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            _ = try? runCommand("chown", [user, home])
            environment["HOME"] = home
            environment["XDG_RUNTIME_DIR"] = home
            environment["XDG_CONFIG_HOME"] = home + "/.config"
            arguments = ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + arguments
        }
        let tool = arguments.removeFirst()
        return try Child.spawn(tool, arguments, environment: environment, stdout: log, stderr: log)
    }
}
