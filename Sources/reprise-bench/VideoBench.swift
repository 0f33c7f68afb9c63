import Foundation
import Glibc
import TestSupport

extension Bench {
    /// Video on a private Xvfb: exec → window shown, footprint while a 640×360 video plays (against playbin drawing
    /// the same frames into a window of its own through ximagesink), and a Space key in the window → PropertiesChanged.
    func videoFigures(binary: String, runs: Int, seconds: Double) throws -> [Row] {
        let display = try XvfbServer(directory: workDirectory, width: 1280, height: 720)
        defer { display.stop() }
        let video = workDirectory + "/video.ogv"
        try generateVideo(at: video, width: 640, height: 360, seconds: 60, title: "Bench Video")
        chmod(video, 0o644)
        var reprise = Contender.reprise(binary: binary)
        reprise.display = display.name
        var floor = Contender(name: "gst-launch playbin (floor)", busName: nil) {
            ["gst-launch-1.0", "-q", "playbin", "uri=\(URL(fileURLWithPath: $0).absoluteString)",
             "video-sink=videoconvert ! videoscale ! ximagesink"]
        }
        floor.display = display.name
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func xdotool(_ arguments: [String]) -> CommandResult? {
            try? runCommand("xdotool", arguments, environment: ["DISPLAY": display.name, "PATH": path])
        }
        func visibleWindow() -> String? {
            xdotool(["search", "--onlyvisible", "--name", "^Bench Video$"]).flatMap { $0.status == 0 ? $0.trimmed : nil }
        }

        var shown: [Double] = []
        for _ in 0..<runs {
            var running = try startPlaying(reprise, video)
            _ = eventually(10, pollEvery: 0) { visibleWindow() != nil }
            shown.append(monotonicSeconds() - running.startedAt)
            stop(&running)
        }

        var footprint: [String: (rss: Double, cpu: Double)] = [:]
        for contender in [floor, reprise] { footprint[contender.name] = try self.footprint(contender, video, seconds: seconds) }

        var keys: [Double] = []
        var running = try startPlaying(reprise, video)
        defer { stop(&running) }
        if eventually(10, { visibleWindow() != nil }), let window = visibleWindow()?.split(separator: "\n").first.map(String.init) {
            try watchStatusChanges(of: reprise)
            for _ in 0..<max(10, runs * 3) {
                pump(for: 0.25)
                if let changed = timeStatusChange({ _ = xdotool(["key", "--window", window, "space"]) }) { keys.append(changed) }
            }
        }

        var rows: [Row] = []
        var shownRow = Row(figure: "video: exec → window shown (xdotool polling)", unit: "ms")
        shownRow.values[reprise.name] = Statistics.median(shown).map { $0 * 1000 }
        var rssRow = Row(figure: "video: RSS while playing 640×360", unit: "MiB", floorKey: "floor")
        var cpuRow = Row(figure: "video: CPU while playing 640×360 (\(Int(seconds)) s)", unit: "%", floorKey: "floor")
        rssRow.values["floor"] = footprint[floor.name]?.rss
        cpuRow.values["floor"] = footprint[floor.name]?.cpu
        rssRow.values[reprise.name] = footprint[reprise.name]?.rss
        cpuRow.values[reprise.name] = footprint[reprise.name]?.cpu
        var keyRow = Row(figure: "video: Space in the window → PropertiesChanged (incl. xdotool's own start)", unit: "ms")
        keyRow.values[reprise.name] = Statistics.median(keys).map { $0 * 1000 }
        rows += [shownRow, rssRow, cpuRow, keyRow]
        return rows
    }
}
