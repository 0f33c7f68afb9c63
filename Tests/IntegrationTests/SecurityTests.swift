import Foundation
import SDBus
import Testing
import TestSupport

/// What a media player must not open, and what it writes being private to the user.
@Suite(.serialized) struct SecurityTests {

    @Test func onlyAdvertisedSchemesAndRegularFilesAreOpened() throws {
        let session = try Session()
        defer { session.close() }
        let fifo = session.directory + "/pipe.ogg"
        #expect(mkfifo(fifo, 0o600) == 0)
        let socketPath = session.directory + "/socket.ogg"
        let listener = listeningUnixSocket(at: socketPath)
        #expect(listener >= 0)
        defer { close(listener) }

        let service = try session.launch([media.first, "/dev/zero", fifo, socketPath, "v4l2:///dev/video0"]) { session.status() == "Playing" && session.title() == "First Light" }
        let log = session.log(of: service)
        #expect(log.contains("/dev/zero is not a regular file") && log.contains("pipe.ogg is not a regular file"))
        #expect(log.contains("socket.ogg is not a regular file") && log.contains("scheme 'v4l2' is not supported"))
        func trackCount() -> Int {
            guard case .array(_, let ids)? = try? session.get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList") else { return -1 }
            return ids.count
        }
        #expect(trackCount() == 1)
        let refused = ["v4l2:///dev/video0", "pulse://alsa_input.monitor", "alsa://hw:0", "fd://0", "appsrc://",
                       "data:audio/ogg;base64,AAAA", "rtsp://camera/stream", "smb://server/share/a.ogg", "file:///dev/zero",
                       "file:///dev/snd/pcmC0D0c", TestMedia.uri(fifo), TestMedia.uri(socketPath), "file:///etc", "not a uri", ""]
        for uri in refused {
            let openError = session.dbusError { try session.call("OpenUri", [.string(uri)]) }
            #expect(openError != nil, "OpenUri accepted \(uri)")
            let addError = session.dbusError {
                try session.call("AddTrack", [.string(uri), .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"), .bool(true)],
                                 interface: "org.mpris.MediaPlayer2.TrackList")
            }
            #expect(addError != nil, "AddTrack accepted \(uri)")
        }
        #expect(trackCount() == 1)
        #expect(session.title() == "First Light", "\(session.metadata())")
        #expect(session.status() == "Playing")
        #expect(try session.get("SupportedUriSchemes", interface: "org.mpris.MediaPlayer2") == .strings(["file", "http", "https"]))
    }

    @Test func whatRepriseWritesIsPrivate() throws {
        let session = try Session()
        defer { session.close() }
        let other = try session.startStream(role: "music")
        _ = other
        let home = session.home
        // A music folder (empty), so that the library opens its index.
        try FileManager.default.createDirectory(atPath: home + "/Music", withIntermediateDirectories: true)
        let service = try session.launch(["--options", "duckOthers", media.covered]) { session.metadata()["mpris:artUrl"] != nil }
        #expect(session.waitFor { FileManager.default.fileExists(atPath: home + "/.local/share/reprise/library.db") })
        let changed = home + "/.local/state/reprise/changed-streams"
        #expect(session.waitFor { FileManager.default.fileExists(atPath: changed) })
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(service) == 0)
        func mode(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int }
        for directory in [home + "/.local/state/reprise", home + "/.cache/reprise", home + "/.cache/reprise/art",
                          home + "/.local/share/reprise"] {
            #expect(mode(directory) == 0o700, "\(directory)")
        }
        #expect(mode(home + "/.local/state/reprise/state") == 0o600)
        #expect(mode(home + "/.local/share/reprise/library.db") == 0o600, "the music library's index")
        let art = try FileManager.default.contentsOfDirectory(atPath: home + "/.cache/reprise/art")
        #expect(!art.isEmpty && art.allSatisfy { mode(home + "/.cache/reprise/art/" + $0) == 0o600 })
        // Nothing written outside the XDG directories (under the private home: .local/state, .local/share/reprise and
        // .cache only).
        let written = try FileManager.default.subpathsOfDirectory(atPath: home).filter {
            !$0.hasPrefix(".local/state") && !$0.hasPrefix(".cache") && !$0.hasPrefix(".local/share/reprise")
        }
        // (PulseAudio keeps its cookie in ~/.config/pulse; Music is the test's own folder.)
        #expect(written.allSatisfy { [".local", ".local/share", ".config", "Music"].contains($0) || $0.hasPrefix(".config/pulse") },
                "\(written)")
    }

    @Test func neverTouchesTheSystemBusAndListensOnlyAsTheMPDServerOnLoopback() throws {
        let session = try Session()
        defer { session.close() }
        // A stand-in system bus that records whether anyone connects to it.
        let systemBus = session.directory + "/system_bus_socket"
        let listener = listeningUnixSocket(at: systemBus)
        #expect(listener >= 0)
        defer { close(listener) }
        let service = try session.launch([media.covered, media.first],
                                         extraEnvironment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + systemBus])
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["mpris:artUrl"] != nil })
        try session.call("Next")
        _ = try session.call("ListOutputs", interface: "app.reprise.AudioSession1")
        try session.call("Pause")
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(accept(listener, nil, nil) == -1 && errno == EAGAIN, "Reprise connected to the system bus")

        // It listens only as the MPD server: its Unix socket in the runtime folder and TCP on loopback.
        let inodes = Set(((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(service)/fd")) ?? []).compactMap { fd -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(service)/fd/\(fd)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
        #expect(!inodes.isEmpty)
        let unix = procText("/proc/net/unix")
        for line in unix.split(separator: "\n").dropFirst() {
            // Num RefCount Protocol Flags Type St Inode Path; flag 00010000 is a listening socket.
            let fields = line.split(separator: " ")
            guard fields.count >= 7, inodes.contains(String(fields[6])) else { continue }
            let mpdSocket = fields.count >= 8 && fields[7] == MPDTests.socket(session)
            #expect(fields[3] != "00010000" || mpdSocket, "Reprise listens on \(line)")
        }
        for table in ["tcp", "tcp6", "udp", "udp6"] {
            let text = procText("/proc/net/" + table)
            for line in text.split(separator: "\n").dropFirst() {
                // sl local_address rem_address st … inode: only a listening (0A) socket on 127.0.0.1 (0100007F).
                let fields = line.split(separator: " ")
                guard fields.count >= 10, inodes.contains(String(fields[9])) else { continue }
                #expect(table == "tcp" && fields[1].hasPrefix("0100007F:") && fields[3] == "0A", "Reprise has an \(table) socket: \(line)")
            }
        }
    }
}

/// A non-blocking Unix stream socket listening at `path` (not inherited by children); -1 on failure.
func listeningUnixSocket(at path: String) -> Int32 {
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard listener >= 0, bound == 0, listen(listener, 8) == 0 else {
        close(listener)
        return -1
    }
    return listener
}
