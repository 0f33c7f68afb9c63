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

    @Test func theLibraryWithCoversAndTheQueueWithTimesAsWithMPD() throws {
        let session = try Session()
        defer { session.close() }
        let mpdSocket = try MPDTranscriptTests.startServers(session)
        var shots: [[UInt8]] = []
        for (index, socket) in [mpdSocket, MPDTests.socket(session)].enumerated() {
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
            // The library is listed (its artists' rows drawn) before anything is clicked.
            #expect(session.waitFor(60) { (try? Self.inkedPixels(display.screenPixels(), in: Self.panes[0])) ?? 0 > 2000 },
                    "\(session.output(ofLog: "cantata-\(index)"))")
            Thread.sleep(forTimeInterval: 2)
            for (x, y) in [(71, 77), (180, 113), (342, 686), (55, 28)] {   // open, select the album, queue it, play
                display.clickScreen(x: x, y: y)
                Thread.sleep(forTimeInterval: 1)
            }
            display.clickScreen(x: 1200, y: 750) // the pointer off the window: nothing hovered
            #expect(session.waitFor { (try? Self.colourfulPixels(display.screenPixels(), in: Self.albumCover)) ?? 0 > 200 },
                    "the album's cover in the library (\(index == 0 ? "mpd" : "Reprise"))")
            Thread.sleep(forTimeInterval: 2)
            shots.append(try display.screenPixels())
        }
        guard shots.count == 2 else { return }
        for pane in Self.panes {
            let differing = Self.differingPixels(shots[0], shots[1], in: pane)
            #expect(differing < pane.width * pane.height / 200, "\(differing) pixels of the pane at \(pane) differ from Cantata's with mpd")
        }
    }

    static func pixel(_ shot: [UInt8], _ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
        let offset = (y * VirtualDisplay.width + x) * 4
        return (shot[offset], shot[offset + 1], shot[offset + 2])
    }

    static func points(_ area: (x: Int, y: Int, width: Int, height: Int)) -> [(Int, Int)] {
        (area.y..<area.y + area.height).flatMap { y in (area.x..<area.x + area.width).map { (x: $0, y: y) } }
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
