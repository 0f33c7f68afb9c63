import Foundation
import Glibc
import SDBus
import TestSupport

/// A player showing video in a window titled `Bench Video`, at the picture's own size or fullscreen.
struct VideoContender {
    let contender: Contender
    /// Makes the window fullscreen once shown (nil: the command line already asked for it, or it is not fullscreen).
    var makeFullscreen: ((Bench, Contender) throws -> Void)?

    static let title = "Bench Video"

    static func reprise(binary: String, display: String, fullscreen: Bool) -> VideoContender {
        var contender = Contender.reprise(binary: binary)
        contender.display = display
        contender.environment["REPRISE_VIDEO_WINDOW"] = "x11" // its X11 window, whatever the session offers
        return VideoContender(contender: contender, makeFullscreen: fullscreen ? { bench, contender in
            try bench.bus.setProperty(destination: contender.busName!, path: "/org/mpris/MediaPlayer2",
                                      interface: "org.mpris.MediaPlayer2", name: "Fullscreen", .bool(true))
        } : nil)
    }

    /// Reprise's native Wayland window (waylandsink in a subsurface, scaled by the compositor), as a column of its own.
    static func repriseOnWayland(binary: String, waylandDisplay: String, fullscreen: Bool) -> VideoContender {
        var contender = Contender(name: "Reprise (Wayland)", busName: "org.mpris.MediaPlayer2.reprise") { [binary, $0] }
        contender.environment["WAYLAND_DISPLAY"] = waylandDisplay
        return VideoContender(contender: contender, makeFullscreen: reprise(binary: binary, display: "", fullscreen: fullscreen).makeFullscreen)
    }

    /// playbin drawing the frames with ximagesink, scaled in software to the screen when fullscreen.
    static func floor(display: String, fullscreen: Bool, screen: (Int, Int)) -> VideoContender {
        let scale = fullscreen ? " ! video/x-raw,width=\(screen.0),height=\(screen.1)" : ""
        var contender = Contender(name: "gst-launch playbin (floor)", busName: nil) {
            ["gst-launch-1.0", "-q", "playbin", "uri=\(URL(fileURLWithPath: $0).absoluteString)",
             "video-sink=videoconvert ! videoscale\(scale) ! ximagesink"]
        }
        contender.display = display
        return VideoContender(contender: contender)
    }

    /// mpv's software X11 output (like ximagesink), its MPRIS from mpv-mpris.
    static func mpv(display: String, fullscreen: Bool) -> VideoContender {
        var contender = Contender(name: Contender.mpv.name, busName: Contender.mpv.busName) {
            ["mpv", "--no-terminal", "--vo=x11", "--ao=pulse", "--idle=no", "--title=\(title)"] + (fullscreen ? ["--fs"] : []) + [$0]
        }
        contender.display = display
        return VideoContender(contender: contender)
    }

    /// VLC's plain X11 output (no OpenGL), run as `user`.
    static func vlc(user: String, display: String, fullscreen: Bool) -> VideoContender {
        let audio = Contender.vlc(user: user)
        var contender = Contender(name: audio.name, busName: audio.busName, command: {
            ["cvlc", "--vout=xcb_x11", "--aout=pulse", "--control=dbus", "--play-and-exit", "--video-title=\(title)"]
                + (fullscreen ? ["--fullscreen"] : []) + [$0]
        }, user: user)
        contender.display = display
        return VideoContender(contender: contender)
    }
}

extension Bench {
    /// Video on a private 1280×720 Xvfb, for Reprise and the peers installed: exec → window shown, footprint while a
    /// 640×360 video plays at its own size and fullscreen (against playbin drawing the same frames through
    /// ximagesink; `footprintRuns` each), and a Space key in the window → PropertiesChanged.
    func videoFigures(binary: String, peers: [Contender], runs: Int, footprintRuns: Int, seconds: Double) throws -> [Row] {
        let screen = (1280, 720)
        let display = try XvfbServer(directory: workDirectory, width: screen.0, height: screen.1)
        defer { display.stop() }
        let video = workDirectory + "/video.ogv"
        try generateVideo(at: video, width: 640, height: 360, seconds: 60, title: VideoContender.title)
        chmod(video, 0o644)
        func players(fullscreen: Bool) -> [VideoContender] {
            [.reprise(binary: binary, display: display.name, fullscreen: fullscreen)] + peers.compactMap { peer in
                if peer.name == Contender.mpv.name { return .mpv(display: display.name, fullscreen: fullscreen) }
                if let user = peer.user { return .vlc(user: user, display: display.name, fullscreen: fullscreen) }
                return nil
            }
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func xdotool(_ arguments: [String]) -> CommandResult? {
            try? runCommand("xdotool", arguments, environment: ["DISPLAY": display.name, "PATH": path])
        }
        // A window's title is its _NET_WM_NAME, else WM_NAME (VLC puts the video's title in the first only, which
        // `search --name` does not read): the visible windows are listed with their titles.
        func visibleTitles() -> [String] {
            (xdotool(["search", "--onlyvisible", "--name", ".", "getwindowname", "%@"])?.trimmed.split(separator: "\n") ?? []).map(String.init)
        }
        func isShown() -> Bool { visibleTitles().contains(VideoContender.title) }
        func visibleWindow() -> String? {
            let windows = xdotool(["search", "--onlyvisible", "--name", "."])?.trimmed.split(separator: "\n") ?? []
            return windows.first { xdotool(["getwindowname", String($0)])?.trimmed == VideoContender.title }.map(String.init)
        }

        var shownRow = Row(figure: "video: exec → window shown (xdotool polling)", unit: "ms")
        var keyRow = Row(figure: "video: Space in the window → PropertiesChanged (incl. xdotool's own start)", unit: "ms")
        for player in players(fullscreen: false) {
            let contender = player.contender
            var shown: [Double] = []
            for _ in 0..<runs {
                var running = try startPlaying(contender, video)
                if eventually(10, pollEvery: 0, isShown) {
                    shown.append((monotonicSeconds() - running.startedAt) * 1000)
                } else {
                    say("\(contender.name): no window titled \(VideoContender.title) shown; visible: \(visibleTitles())")
                }
                stop(&running)
            }
            shownRow.values[contender.name] = Statistics.median(shown)
            shownRow.spreads[contender.name] = Statistics.spread(shown)

            var keys: [Double] = []
            var running = try startPlaying(contender, video)
            if eventually(10, { visibleWindow() != nil }), let window = visibleWindow() {
                try watchStatusChanges(of: contender)
                for _ in 0..<max(10, runs * 3) {
                    pump(for: 0.25)
                    if let changed = timeStatusChange({ _ = xdotool(["key", "--window", window, "space"]) }) { keys.append(changed * 1000) }
                }
            }
            stop(&running)
            keyRow.values[contender.name] = Statistics.median(keys)
            keyRow.spreads[contender.name] = Statistics.spread(keys)
        }

        var rows = [shownRow]
        for fullscreen in [false, true] {
            let size = fullscreen ? "fullscreen 1280×720" : "640×360 at its own size"
            var rssRow = Row(figure: "video: RSS while playing, \(size)", unit: "MiB", floorKey: "floor")
            var cpuRow = Row(figure: "video: CPU while playing, \(size) (\(Int(seconds)) s)", unit: "%", floorKey: "floor")
            for player in [VideoContender.floor(display: display.name, fullscreen: fullscreen, screen: screen)] + players(fullscreen: fullscreen) {
                let key = player.contender.busName == nil ? "floor" : player.contender.name
                let results = try (0..<footprintRuns).map { _ in
                    try footprint(player.contender, video, seconds: seconds) { [self] in
                        guard let makeFullscreen = player.makeFullscreen else { return }
                        _ = eventually(10, isShown)
                        try makeFullscreen(self, player.contender)
                    }
                }
                rssRow.values[key] = Statistics.median(results.map(\.rss))
                rssRow.spreads[key] = Statistics.spread(results.map(\.rss))
                cpuRow.values[key] = Statistics.median(results.map(\.cpu))
                cpuRow.spreads[key] = Statistics.spread(results.map(\.cpu))
            }
            rows += [rssRow, cpuRow]
        }
        rows.append(keyRow)
        return rows
    }
}

extension Bench {
    /// Video under a headless sway (wlroots, pixman) at 1920×1080 and 3840×2160: a 1280×720 picture at its own size
    /// and fullscreen, CPU and RSS of the player's process (the compositor's own work not counted). Reprise's window
    /// is an X11 one there, through XWayland, its frames scaled on the CPU; mpv draws as a native Wayland client
    /// (`--vo=wlshm`, shared memory, scaled in software too), its MPRIS from mpv-mpris.
    func videoUnderSwayFigures(binary: String, withMPV: Bool, footprintRuns: Int, seconds: Double) throws -> [Row] {
        let video = workDirectory + "/video-720.ogv"
        try generateVideo(at: video, width: 1280, height: 720, seconds: 60, title: VideoContender.title)
        chmod(video, 0o644)
        var rows: [Row] = []
        for output in [(1920, 1080), (3840, 2160)] {
            let sway = try HeadlessSway(width: output.0, height: output.1)
            defer { sway.stop() }
            func shown() -> Bool { sway.windows().contains { $0.name == VideoContender.title } }
            if output.0 == 1920 { rows += try responsivenessUnderSway(sway, binary: binary, video: video, withMPV: withMPV, runs: footprintRuns * 3, shown: shown) }
            for fullscreen in [false, true] {
                let size = fullscreen ? "1280×720 fullscreen on \(output.0)×\(output.1)" : "1280×720 at its own size on \(output.0)×\(output.1)"
                var rssRow = Row(figure: "video under sway: RSS, \(size)", unit: "MiB")
                var cpuRow = Row(figure: "video under sway: CPU, \(size) (\(Int(seconds)) s)", unit: "%",
                                 note: "Reprise: its X11 window through XWayland, its Wayland window; mpv --vo=wlshm")
                var players: [VideoContender] = [.reprise(binary: binary, display: sway.xDisplay, fullscreen: fullscreen),
                                                 .repriseOnWayland(binary: binary, waylandDisplay: sway.waylandDisplay, fullscreen: fullscreen)]
                if withMPV {
                    var mpv = Contender(name: Contender.mpv.name, busName: Contender.mpv.busName) {
                        ["mpv", "--no-terminal", "--vo=wlshm", "--ao=pulse", "--idle=no", "--title=\(VideoContender.title)"]
                            + (fullscreen ? ["--fs"] : []) + [$0]
                    }
                    mpv.environment["WAYLAND_DISPLAY"] = sway.waylandDisplay
                    players.append(VideoContender(contender: mpv))
                }
                for player in players {
                    let results = try (0..<footprintRuns).map { _ in
                        try footprint(player.contender, video, seconds: seconds) { [self] in
                            if !eventually(10, shown) { say("\(player.contender.name): no window under sway: \(sway.windows())") }
                            try player.makeFullscreen?(self, player.contender)
                        }
                    }
                    let name = player.contender.name
                    rssRow.values[name] = Statistics.median(results.map(\.rss))
                    rssRow.spreads[name] = Statistics.spread(results.map(\.rss))
                    cpuRow.values[name] = Statistics.median(results.map(\.cpu))
                    cpuRow.spreads[name] = Statistics.spread(results.map(\.cpu))
                }
                rows += [rssRow, cpuRow]
            }
            if output.0 == 3840 { rows += try controlsUnderSway(sway, binary: binary, video: video, runs: footprintRuns, seconds: seconds) }
        }
        return rows
    }

    /// Reprise's Wayland window fullscreen (1280×720 on the 4K output) with its on-screen controls: CPU with them
    /// hidden and with the pointer (`wl-virtual-input`, beside this executable) moving over them at 100 Hz, and the
    /// time from the first motion to the bar on screen (grim polling a block of the pause icon, white only then).
    func controlsUnderSway(binary: String, runs: Int, seconds: Double) throws -> [Row] {
        let video = workDirectory + "/video-720.ogv"
        try generateVideo(at: video, width: 1280, height: 720, seconds: 60, title: VideoContender.title)
        chmod(video, 0o644)
        let sway = try HeadlessSway(width: 3840, height: 2160)
        defer { sway.stop() }
        return try controlsUnderSway(sway, binary: binary, video: video, runs: runs, seconds: seconds)
    }

    func controlsUnderSway(_ sway: HeadlessSway, binary: String, video: String, runs: Int, seconds: Double) throws -> [Row] {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("wl-virtual-input").path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            say("no \(tool): the controls' rows are left out")
            return []
        }
        let player = VideoContender.repriseOnWayland(binary: binary, waylandDisplay: sway.waylandDisplay, fullscreen: true)
        let name = player.contender.name, size = (width: 3840, height: 2160)
        let typing = ["WAYLAND_DISPLAY": sway.waylandDisplay, "PATH": "/usr/bin:/bin"]
        func barShown() -> Bool {
            let path = workDirectory + "/controls.ppm"
            guard (try? runCommand("grim", ["-t", "ppm", "-g", "22,\(size.height - 30) 4x4", path], environment: typing))?.status == 0,
                  let shot = FileManager.default.contents(atPath: path), shot.count >= 48 else { return false }
            return shot.suffix(48).allSatisfy { $0 > 200 }
        }
        var hiddenRow = Row(figure: "video controls under sway: CPU, 1280×720 fullscreen on 3840×2160, controls hidden (\(Int(seconds)) s)", unit: "%")
        var movingRow = Row(figure: "video controls under sway: CPU, the same with the pointer moving over the shown controls (100 Hz)", unit: "%",
                            note: "issue 44: at most 1.5× hidden")
        var appearRow = Row(figure: "video controls under sway: first motion → bar on screen (grim polling)", unit: "ms",
                            note: "a frame of the 25 fps picture is 40 ms")
        var captureRow = Row(figure: "video controls under sway: one grim capture of a 4×4 block at 3840×2160 (the polling's own time)", unit: "ms")
        var hidden: [Double] = [], moving: [Double] = [], appear: [Double] = [], capture: [Double] = []
        var trials = 0, withinFrame = 0
        for _ in 0..<runs {
            var running = try startPlaying(player.contender, video)
            defer { stop(&running) }
            guard eventually(10, { sway.windows().contains { $0.name == VideoContender.title } }) else {
                say("\(name): no window under sway: \(sway.windows())")
                continue
            }
            try player.makeFullscreen?(self, player.contender)
            guard eventually(10, { sway.windows().contains { $0.name == VideoContender.title && $0.fullscreen } }) else { continue }
            // The pointer exists first (its first entry shows the controls), then they hide again, unmoved.
            let pointer = try VirtualPointer(tool: tool, on: sway, width: size.width, height: size.height)
            defer { pointer.stop() }
            pointer.move(x: size.width / 2, y: size.height / 2)
            pump(for: 1)
            _ = eventually(10, { !barShown() })
            let pid = running.child.pid
            func cpu(_ body: () -> Void) -> Double {
                let before = ProcFS.cpuNanoseconds(pid), start = monotonicSeconds()
                body()
                return Double(ProcFS.cpuNanoseconds(pid) - before) / 1_000_000_000 / (monotonicSeconds() - start) * 100
            }
            hidden.append(cpu { Thread.sleep(forTimeInterval: seconds) })
            let polled = monotonicSeconds()
            _ = barShown()
            capture.append((monotonicSeconds() - polled) * 1000)
            // A capture asked one frame (40 ms) after a motion over the picture, the controls hidden before it.
            for trial in 0..<4 {
                guard eventually(10, { !barShown() }) else { break }
                pointer.move(x: size.width / 2 + 40 * (trial + 1), y: size.height / 2)
                Thread.sleep(forTimeInterval: 0.04)
                trials += 1
                if barShown() { withinFrame += 1 }
            }
            let moved = monotonicSeconds()
            pointer.move(x: size.width / 2, y: size.height - 24)
            if eventually(5, pollEvery: 0, barShown) { appear.append((monotonicSeconds() - moved) * 1000) }
            moving.append(cpu {
                let start = monotonicSeconds()
                var step = 0
                while monotonicSeconds() - start < seconds {
                    step += 1
                    pointer.move(x: size.width / 4 + (step * 7) % (size.width / 2), y: size.height - 24)
                    usleep(10_000)
                }
            })
        }
        func fill(_ row: inout Row, _ values: [Double]) {
            row.values[name] = Statistics.median(values)
            row.spreads[name] = Statistics.spread(values)
        }
        fill(&hiddenRow, hidden)
        fill(&movingRow, moving)
        fill(&appearRow, appear)
        fill(&captureRow, capture)
        var frameRow = Row(figure: "video controls under sway: captures asked 40 ms (a frame) after a motion that show the bar", unit: "% of trials",
                           note: "\(withinFrame) of \(trials)")
        frameRow.values[name] = trials > 0 ? Double(withinFrame) / Double(trials) * 100 : nil
        return [hiddenRow, movingRow, appearRow, captureRow, frameRow]
    }

    /// exec → window in sway's tree, and Space typed with wtype → PropertiesChanged, for each player under sway.
    /// wtype's keyboard exists only while it runs (headless sway has no other), and a client asks for it only once
    /// the seat announces it: a keeper (`wtype -s`, which types nothing for ten minutes) holds one for the run.
    func responsivenessUnderSway(_ sway: HeadlessSway, binary: String, video: String, withMPV: Bool, runs: Int,
                                 shown: @escaping () -> Bool) throws -> [Row] {
        var players: [Contender] = [VideoContender.reprise(binary: binary, display: sway.xDisplay, fullscreen: false).contender,
                                    VideoContender.repriseOnWayland(binary: binary, waylandDisplay: sway.waylandDisplay, fullscreen: false).contender]
        if withMPV {
            var mpv = Contender(name: Contender.mpv.name, busName: Contender.mpv.busName) {
                ["mpv", "--no-terminal", "--vo=wlshm", "--ao=pulse", "--idle=no", "--title=\(VideoContender.title)", $0]
            }
            mpv.environment["WAYLAND_DISPLAY"] = sway.waylandDisplay
            players.append(mpv)
        }
        let typing = ["WAYLAND_DISPLAY": sway.waylandDisplay, "PATH": "/usr/bin:/bin"]
        var keeper = try Child.spawn("wtype", ["-s", "600000"], environment: typing, stdout: "/dev/null", stderr: "/dev/null")
        defer { kill(keeper.pid, SIGKILL); _ = keeper.wait() }
        func frameShown() -> Bool { firstFrameShown(under: sway) }
        var frameRow = Row(figure: "video under sway: exec → first frame on screen (grim polling), 1920×1080", unit: "ms")
        var shownRow = Row(figure: "video under sway: exec → window in sway's tree (swaymsg polling), 1920×1080", unit: "ms")
        var keyRow = Row(figure: "video under sway: Space (wtype, incl. its own start) → PropertiesChanged", unit: "ms")
        for contender in players {
            var times: [Double] = [], frames: [Double] = [], keys: [Double] = []
            for _ in 0..<runs {
                var running = try startPlaying(contender, video)
                if eventually(10, pollEvery: 0, shown) { times.append((monotonicSeconds() - running.startedAt) * 1000) }
                stop(&running)
                running = try startPlaying(contender, video)
                if eventually(10, pollEvery: 0, frameShown) { frames.append((monotonicSeconds() - running.startedAt) * 1000) }
                stop(&running)
            }
            var running = try startPlaying(contender, video)
            if eventually(10, shown) {
                sway.message(["[title=\"\(VideoContender.title)\"] focus"])
                try watchStatusChanges(of: contender)
                for _ in 0..<max(10, runs * 3) {
                    pump(for: 0.25)
                    if let changed = timeStatusChange({ _ = try? runCommand("wtype", [" "], environment: typing) }) { keys.append(changed * 1000) }
                }
            } else {
                say("\(contender.name): no window under sway: \(sway.windows())")
            }
            stop(&running)
            frameRow.values[contender.name] = Statistics.median(frames)
            frameRow.spreads[contender.name] = Statistics.spread(frames)
            shownRow.values[contender.name] = Statistics.median(times)
            shownRow.spreads[contender.name] = Statistics.spread(times)
            keyRow.values[contender.name] = Statistics.median(keys)
            keyRow.spreads[contender.name] = Statistics.spread(keys)
        }
        return [shownRow, frameRow, keyRow]
    }

    /// Whether the first frame is on screen: a grim capture of a 4×4 block a quarter down the window's middle (the
    /// test pattern's bars there are lit; the window's own black is not).
    func firstFrameShown(under sway: HeadlessSway) -> Bool {
        let path = workDirectory + "/first-frame.ppm"
        guard let window = sway.windows().first(where: { $0.name == VideoContender.title }),
              (try? runCommand("grim", ["-t", "ppm", "-g", "\(window.x + window.width / 2),\(window.y + window.height / 4) 4x4", path],
                               environment: ["WAYLAND_DISPLAY": sway.waylandDisplay, "PATH": "/usr/bin:/bin"]))?.status == 0,
              let shot = FileManager.default.contents(atPath: path) else { return false }
        return shot.suffix(48).contains { $0 > 100 }
    }

    /// exec → first frame on screen under a 1920×1080 headless sway, Reprise's X11 and Wayland windows, and the same
    /// for `baseline` (an earlier build) when given: each trial of one is followed by the same trial of the others.
    func firstFrameUnderSway(binary: String, baseline: String?, runs: Int) throws -> [Row] {
        let video = workDirectory + "/video-720.ogv"
        try generateVideo(at: video, width: 1280, height: 720, seconds: 60, title: VideoContender.title)
        chmod(video, 0o644)
        let sway = try HeadlessSway(width: 1920, height: 1080)
        defer { sway.stop() }
        func players(_ binary: String, _ suffix: String) -> [Contender] {
            var x11 = VideoContender.reprise(binary: binary, display: sway.xDisplay, fullscreen: false).contender
            var wayland = VideoContender.repriseOnWayland(binary: binary, waylandDisplay: sway.waylandDisplay, fullscreen: false).contender
            x11.name = "Reprise (X11)" + suffix
            wayland.name += suffix
            return [x11, wayland]
        }
        let contenders = players(binary, "") + (baseline.map { players($0, " before") } ?? [])
        var frames: [String: [Double]] = [:]
        for _ in 0..<runs {
            for contender in contenders {
                var running = try startPlaying(contender, video)
                if eventually(10, pollEvery: 0, { firstFrameShown(under: sway) }) {
                    frames[contender.name, default: []].append((monotonicSeconds() - running.startedAt) * 1000)
                }
                stop(&running)
            }
        }
        var row = Row(figure: "video under sway: exec → first frame on screen (grim polling), 1920×1080, trials in turn", unit: "ms")
        for contender in contenders {
            row.values[contender.name] = Statistics.median(frames[contender.name] ?? [])
            row.spreads[contender.name] = Statistics.spread(frames[contender.name] ?? [])
        }
        return [row]
    }
}
