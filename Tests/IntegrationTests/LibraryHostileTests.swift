import Foundation
import SDBus
import Testing
import TestSupport

/// The library's index and scanner against a hostile disk, with the real binary: a file replaced by a FIFO while the
/// first scan reads, an index locked by another process, a symbolic link where the index goes, a damaged row.
@Suite(.serialized) struct LibraryHostileTests {
    static let interface = LibraryTests.interface

    func count(_ session: Session, _ name: String = "Tracks") -> UInt32? {
        if case .uint32(let value)? = try? session.get(name, interface: Self.interface) { return value }
        return nil
    }

    func scanned(_ session: Session, tracks: UInt32, seconds: Double = 60) -> Bool {
        session.waitFor(seconds) { (try? session.get("Scanning", interface: Self.interface)) == .bool(false) && count(session) == tracks }
    }

    func sqlite(_ database: String, _ statements: String...) throws -> CommandResult {
        try runCommand("sqlite3", [database] + statements)
    }

    /// Files named in the order the scanner reads them; the last ones become FIFOs once the walk has listed them.
    @Test func aFileReplacedByAFIFOWhileTheFirstScanReadsIsSkipped() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeHomeFolder("Music/Many")
        try LibraryTests.tagged(music + "/track-000.ogg", title: "Tone", artist: "Tester", album: "Many", number: 1, genre: "Test")
        let names = (0..<1500).map { String(format: "track-%03d.ogg", $0) }
        for name in names.dropFirst() { try FileManager.default.copyItem(atPath: music + "/track-000.ogg", toPath: music + "/" + name) }
        try session.launch([])
        #expect(session.waitFor(30) { count(session, "ToScan") == 1500 })
        for name in names.suffix(100) {
            try FileManager.default.removeItem(atPath: music + "/" + name)
            #expect(mkfifo(music + "/" + name, 0o644) == 0)
        }
        // The scan finishes (no FIFO is opened: it would block). A file the scanner had read before the test turned
        // it into a FIFO is indexed (the scan can outrun the loop above on a busy machine); a rescan drops it.
        #expect(session.waitFor(60) {
            (try? session.get("Scanning", interface: Self.interface)) == .bool(false) && (1400...1500).contains(count(session) ?? 0)
        }, "\(count(session) ?? 0) tracks")
        if count(session) != 1400 { try session.call("Rescan", interface: Self.interface) }
        let scanning = String(describing: try? session.get("Scanning", interface: Self.interface))
        #expect(scanned(session, tracks: 1400), "scanning \(scanning), \(count(session) ?? 0) tracks")
        let found = try session.call("Search", [.string("tone"), .uint32(5)], interface: Self.interface)
        #expect(found.count == 3, "the worker answers")
    }

    /// Indexed files that become FIFOs are dropped at the next rescan, which opens none of them.
    @Test func indexedFilesThatBecameFIFOsAreDroppedAtTheNextRescan() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeHomeFolder("Music/Few")
        try LibraryTests.tagged(music + "/track-0.ogg", title: "Tone", artist: "Tester", album: "Few", number: 1, genre: "Test")
        for index in 1..<10 { try FileManager.default.copyItem(atPath: music + "/track-0.ogg", toPath: music + "/track-\(index).ogg") }
        try session.launch([])
        #expect(scanned(session, tracks: 10))
        for index in 7..<10 {
            try FileManager.default.removeItem(atPath: music + "/track-\(index).ogg")
            #expect(mkfifo(music + "/track-\(index).ogg", 0o644) == 0)
        }
        try session.call("Rescan", interface: Self.interface)
        #expect(scanned(session, tracks: 7), "\(count(session) ?? 0) tracks")
    }

    @Test func anIndexLockedByAnotherProcessIsKeptAndOpenedOnceFree() throws {
        let session = try Session()
        defer { session.close() }
        let home = session.home
        _ = try LibraryTests.musicFolder(in: home)
        let database = home + "/.local/share/reprise/library.db"
        let first = try session.launch([])
        #expect(scanned(session, tracks: 6))
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(first) == 0)

        // Another process holds the index exclusively for a while.
        let locker = try session.start("sqlite3", ["-cmd", ".timeout 5000", database, "PRAGMA locking_mode=EXCLUSIVE", "BEGIN EXCLUSIVE",
                                                   "SELECT count(*) FROM tracks", ".shell sleep 6", "COMMIT"], logName: "locker")
        #expect(session.waitFor { (try? sqlite(database, "SELECT count(*) FROM tracks"))?.errors.contains("locked") == true }, "\(session.output(ofLog: "locker"))")
        let pid = try session.launch([])
        #expect(session.waitFor { session.log(of: pid).contains("trying again in the background") }, "\(session.log(of: pid)) \(session.output(ofLog: "locker"))")
        #expect(session.waitFor(30) { !session.isRunning(locker) })
        #expect(scanned(session, tracks: 6), "\(session.log(of: pid))")
        #expect(!session.log(of: pid).contains("building the library again"))
        #expect(!FileManager.default.fileExists(atPath: database + ".broken"), "a busy index is not set aside")
        #expect(session.log(of: pid).contains("6 tracks (0 read, 0 gone)"), "nothing read again: \(session.log(of: pid))")
    }

    /// Makes the session's music folder and the folder the index goes in; returns the latter.
    static func musicAndIndexFolder(_ session: Session) throws -> String {
        _ = try LibraryTests.musicFolder(in: session.home)
        let data = session.home + "/.local/share/reprise"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        return data
    }

    @Test func aSymbolicLinkWhereTheIndexGoesIsNotFollowed() throws {
        let session = try Session()
        defer { session.close() }
        let data = try Self.musicAndIndexFolder(session)
        let target = session.directory + "/elsewhere.db"
        try FileManager.default.createSymbolicLink(atPath: data + "/library.db", withDestinationPath: target)
        let pid = try session.launch([])
        #expect(session.waitFor { session.log(of: pid).contains("symbolic link") }, "\(session.log(of: pid))")
        #expect(!FileManager.default.fileExists(atPath: target), "nothing created through the link")
        #expect(count(session) == 0)
        #expect(try session.call("Search", [.string("blue"), .uint32(5)], interface: Self.interface).count == 3, "still answers")
    }

    /// A FIFO (or anything else that is not a regular file) where the index goes is moved aside with a log line and
    /// the index built again: the library is whole for that run.
    @Test func aFIFOWhereTheIndexGoesIsMovedAsideAndTheLibraryBuilt() throws {
        let session = try Session()
        defer { session.close() }
        let data = try Self.musicAndIndexFolder(session)
        #expect(mkfifo(data + "/library.db", 0o600) == 0)
        let pid = try session.launch([])
        #expect(scanned(session, tracks: 6), "\(session.log(of: pid))")
        #expect(session.log(of: pid).contains("not a regular file"), "\(session.log(of: pid))")
        var aside = stat()
        #expect(lstat(data + "/library.db.broken", &aside) == 0 && aside.st_mode & S_IFMT == S_IFIFO, "the FIFO was moved aside")
    }

    /// A row edited outside Reprise (a track number past Int32) is listed, not trapped on.
    @Test func aDamagedRowIsListedByMediaServer2() throws {
        let session = try Session()
        defer { session.close() }
        let home = session.home
        _ = try LibraryTests.musicFolder(in: home)
        try session.launch([])
        #expect(scanned(session, tracks: 6))
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })
        let edit = try sqlite(home + "/.local/share/reprise/library.db", "UPDATE tracks SET track = 5000000000, disc = -9000000000")
        #expect(edit.status == 0, "\(edit.errors)")
        let pid = try session.launch([])
        #expect(scanned(session, tracks: 6))
        let name = "org.gnome.UPnP.MediaServer2.Reprise"
        let reply = try session.bus.call(destination: name, path: "/org/gnome/UPnP/MediaServer2/Reprise/Albums", interface: "org.gnome.UPnP.MediaContainer2",
                                         member: "ListChildren", [.uint32(0), .uint32(0), .strings(["*"])])
        guard case .array(_, let albums)? = reply.first, case .objectPath(let album)? = albums.first?.dictionary?["Path"] else {
            Issue.record("no albums: \(reply)"); return
        }
        let tracks = try session.bus.call(destination: name, path: album, interface: "org.gnome.UPnP.MediaContainer2",
                                          member: "ListChildren", [.uint32(0), .uint32(0), .strings(["*"])])
        guard case .array(_, let items)? = tracks.first else { Issue.record("no tracks"); return }
        #expect(!items.isEmpty && items.allSatisfy { $0.dictionary?["TrackNumber"] == .int32(-1) }, "\(items)")
        #expect(session.isRunning(pid))
    }
}
