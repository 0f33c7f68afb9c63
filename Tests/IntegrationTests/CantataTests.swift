import Foundation
import Glibc
import Testing
import TestSupport

/// Cantata, a desktop MPD client, under Xvfb against Debian's mpd and against Reprise on the same music folder, with
/// its music folder out of reach (as on another machine: covers come by `albumart`). After the same clicks — an
/// artist opened, its album queued and played — its library (the album with its cover) and its queue (the songs with
/// their times) look as they do with mpd. (Its traffic is MPDTranscripts/cantata.transcript, replayed too.)
@Suite(.serialized) struct CantataTests {
    /// The library's pane and the queue's, on Cantata's 1000×700 window at the screen's top left.
    static let panes = [(x: 62, y: 60, width: 317, height: 610), (x: 382, y: 60, width: 616, height: 610)]
    /// Where the first artist's album shows its cover once opened.
    static let albumCover = (x: 105, y: 98, width: 32, height: 32)

    /// The clicks, each with the area that shows it took effect: the first artist opened (its album's row appears), its
    /// album selected (the row highlighted), queued (the queue's rows appear), played (the playing song's icon).
    static let clicks: [(what: String, x: Int, y: Int, shows: (x: Int, y: Int, width: Int, height: Int))] = [
        ("open the first artist", 71, 77, panes[0]), ("select its album", 180, 113, panes[0]),
        ("queue it", 342, 686, panes[1]), ("play", 55, 28, panes[1]),
    ]

    @Test func theLibraryWithCoversAndTheQueueWithTimesAsWithMPD() throws {
        let session = try Session()
        defer { session.close() }
        let mpdSocket = try MPDTranscriptTests.startServers(session)
        var shots: [[UInt8]] = []
        for (index, socket) in [mpdSocket, MPDTests.socket(session)].enumerated() {
            let server = index == 0 ? "mpd" : "Reprise"
            let display = try VirtualDisplay(directory: session.directory)
            defer { display.stop() }
            let home = try session.makeFolder("cantata-\(index)")
            try FileManager.default.createDirectory(atPath: home + "/.config/cantata", withIntermediateDirectories: true)
            try "[General]\nversion=2.5.0\nmainWindowSize=@Size(1000 700)\n\n[Connection]\nhost=\(socket)\nport=6600\ndir=/nonexistent/\npasswd=\n"
                .write(toFile: home + "/.config/cantata/cantata.conf", atomically: true, encoding: .utf8)
            let cantata = try session.start("cantata", [], logName: "cantata-\(index)", extraEnvironment: [
                "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache", "DISPLAY": display.name,
                "QT_QPA_PLATFORM": "xcb",
            ])
            defer { kill(cantata, SIGTERM) }
            let described = { "\(server): \(Self.describe(display))\n\(session.output(ofLog: "cantata-\(index)"))" }
            // Cantata's window is mapped and its library listed (artists' rows on its white pane), and it has settled.
            guard session.waitFor(120, { !display.visibleWindows(class: "cantata").isEmpty
                                         && (try? Self.isListing(display.screenPixels(), in: Self.panes[0])) == true }),
                  Self.waitUntilStill(display) else {
                Issue.record("Cantata never listed the library: \(described())")
                return
            }
            for click in Self.clicks {
                let before = try display.screenPixels()
                display.clickScreen(x: click.x, y: click.y)
                #expect(session.waitFor(30) { (try? Self.differingPixels(before, display.screenPixels(), in: click.shows)) ?? 0 > 50 },
                        "\(click.what): nothing changed. \(described())")
                _ = Self.waitUntilStill(display)
            }
            display.clickScreen(x: 1200, y: 750) // the pointer off the window: nothing hovered
            #expect(session.waitFor(30) { (try? Self.colourfulPixels(display.screenPixels(), in: Self.albumCover)) ?? 0 > 200 },
                    "the album's cover in the library. \(described())")
            _ = Self.waitUntilStill(display)
            shots.append(try display.screenPixels())
        }
        guard shots.count == 2 else { return }
        for pane in Self.panes {
            let differing = Self.differingPixels(shots[0], shots[1], in: pane)
            #expect(differing < pane.width * pane.height / 200,
                    "\(differing) pixels of the pane at \(pane) differ from Cantata's with mpd (mpd: \(Self.describe(shots[0], pane)); Reprise: \(Self.describe(shots[1], pane)))")
        }
    }

    /// Waits until two screenshots a second apart are the same in both panes (the time shown as playing may tick).
    static func waitUntilStill(_ display: VirtualDisplay) -> Bool {
        var last = try? display.screenPixels()
        return eventually(30, pollEvery: 1) {
            guard let shot = try? display.screenPixels() else { return false }
            defer { last = shot }
            guard let previous = last else { return false }
            return panes.allSatisfy { differingPixels(previous, shot, in: $0) == 0 }
        }
    }

    /// A pane listing rows: mostly Cantata's white background, with text on it.
    static func isListing(_ shot: [UInt8], in pane: (x: Int, y: Int, width: Int, height: Int)) -> Bool {
        whitePixels(shot, in: pane) > pane.width * pane.height / 2 && inkedPixels(shot, in: pane) > 2000
    }

    /// What the screen shows, for a failure's message: the windows mapped and each pane's make-up.
    static func describe(_ display: VirtualDisplay) -> String {
        let windows = display.visibleWindows(title: ".*").map { "\($0) \"\(display.title(of: $0) ?? "")\" \(display.size(of: $0).map { "\($0.width)×\($0.height)" } ?? "")" }
        let shot = try? display.screenPixels()
        return "windows: \(windows); " + panes.map { pane in shot.map { describe($0, pane) } ?? "no screenshot" }.joined(separator: "; ")
    }

    static func describe(_ shot: [UInt8], _ pane: (x: Int, y: Int, width: Int, height: Int)) -> String {
        let count = pane.width * pane.height
        return "pane at \(pane.x),\(pane.y): \(whitePixels(shot, in: pane) * 100 / count)% white, \(inkedPixels(shot, in: pane) * 100 / count)% inked, "
            + "\(colourfulPixels(shot, in: pane) * 100 / count)% colourful"
    }

    static func pixel(_ shot: [UInt8], _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * VirtualDisplay.width + x) * 4
        return (shot[offset], shot[offset + 1], shot[offset + 2])
    }

    static func points(_ area: (x: Int, y: Int, width: Int, height: Int)) -> [(Int, Int)] {
        (area.y..<area.y + area.height).flatMap { y in (area.x..<area.x + area.width).map { (x: $0, y: y) } }
    }

    /// Pixels of Cantata's white background.
    static func whitePixels(_ shot: [UInt8], in area: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        points(area).count { let (r, g, b) = pixel(shot, $0.0, $0.1); return min(r, g, b) > 235 }
    }

    /// Pixels darker than Cantata's white background: text, icons, covers.
    static func inkedPixels(_ shot: [UInt8], in area: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        points(area).count { let (r, g, b) = pixel(shot, $0.0, $0.1); return min(r, g, b) < 160 }
    }

    /// Strongly coloured pixels: the colour bars of the generated cover.
    static func colourfulPixels(_ shot: [UInt8], in area: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        points(area).count { let (r, g, b) = pixel(shot, $0.0, $0.1); return Int(max(r, g, b)) - Int(min(r, g, b)) > 100 }
    }

    static func differingPixels(_ a: [UInt8], _ b: [UInt8], in area: (x: Int, y: Int, width: Int, height: Int)) -> Int {
        points(area).count { point in
            let (p, q) = (pixel(a, point.0, point.1), pixel(b, point.0, point.1))
            return abs(Int(p.0) - Int(q.0)) > 24 || abs(Int(p.1) - Int(q.1)) > 24 || abs(Int(p.2) - Int(q.2)) > 24
        }
    }
}
