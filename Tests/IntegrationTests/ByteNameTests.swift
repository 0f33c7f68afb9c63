import Foundation
import BusInterfaces
import Glibc
import SDBus
import Testing
import TestSupport

/// Paths are bytes: Latin-1 names (not UTF-8) are found in folders, play, show lossily, come back after a restart,
/// and are reachable as arguments and as percent-encoded URIs.
@Suite(.serialized) struct ByteNameTests {
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    /// Creates `name` (raw bytes) under `directory` as a copy of `source`, or as a directory when `source` is nil.
    /// ~/Music/Été/café.ogg, both names in Latin-1 bytes: the music folder and the song's percent-encoded URI.
    func latin1Song(in session: Session) throws -> (music: String, song: String) {
        let music = try session.makeHomeFolder("Music")
        _ = make(music, [0xC9] + Array("t".utf8) + [0xE9], copyOf: nil)                                   // Été/
        let song = make(music, [0xC9] + Array("t".utf8) + [0xE9] + Array("/caf".utf8) + [0xE9] + Array(".ogg".utf8), copyOf: media.first)
        return (music, song)
    }

    func make(_ directory: String, _ name: [UInt8], copyOf source: String?) -> String {
        var path = Array(directory.utf8) + [UInt8(ascii: "/")] + name
        let percent = path.map { $0 < 0x80 && $0 != UInt8(ascii: "%") ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        path.append(0)
        path.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cPath in
                if let source {
                    let data = FileManager.default.contents(atPath: source)!
                    let fd = open(cPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                } else {
                    mkdir(cPath, 0o755)
                }
            }
        }
        return "file://" + percent
    }

    @Test func latin1NamesAreFoundPlayedShownAndKept() throws {
        let session = try Session()
        defer { session.close() }
        let root = try session.makeFolder("collection")
        let cafe = make(root, Array("caf".utf8) + [0xE9] + Array(".ogg".utf8), copyOf: media.untagged)   // café.ogg in Latin-1
        _ = make(root, [0xC9] + Array("t".utf8) + [0xE9], copyOf: nil)                                   // Été/
        let summer = make(root, [0xC9] + Array("t".utf8) + [0xE9] + Array("/1.ogg".utf8), copyOf: media.first)
        #expect(cafe.hasSuffix("caf%E9.ogg") && summer.contains("%C9t%E9/1.ogg"))
        let service = try session.launch([root])
        #expect(session.waitFor { session.queuedURLs().count == 2 }, "\(session.queuedURLs()) \(session.log(of: service))")
        #expect(Set(session.queuedURLs()) == [cafe, summer])
        #expect(session.waitFor { session.status() == "Playing" })
        // The untagged one is titled from its name, shown lossily.
        let tracks = try session.get("Tracks", interface: Self.trackList)
        let metadata = try session.call("GetTracksMetadata", [tracks], interface: Self.trackList)
        #expect(session.waitFor {
            "\(String(describing: try? session.call("GetTracksMetadata", [tracks], interface: Self.trackList)))".contains("caf\u{FFFD}")
        }, "\(metadata)")
        // A percent-encoded URI reaches it too; and after a restart the queue is still whole.
        try session.call("OpenUri", [.string(cafe)])
        #expect(session.waitFor { session.metadata()["xesam:url"]?.stringValue == cafe && session.status() == "Playing" })
        kill(service, SIGTERM)
        _ = session.waitForExit(service)
        let again = try session.launch([])
        #expect(session.waitFor { session.queuedURLs().count == 3 }, "\(session.log(of: again))")
        kill(again, SIGTERM)
        _ = session.waitForExit(again)
        // As an argument (raw bytes in argv).
        let shell = "exec \"$0\" \"$(printf '%s/caf\\351.ogg' \"$1\")\""
        let byArgument = try session.start("sh", ["-c", shell, repriseBinary, root], logName: "argv")
        #expect(session.waitFor { session.metadata()["xesam:url"]?.stringValue == cafe }, "\(session.output(ofLog: "argv"))")
        kill(byArgument, SIGTERM)
    }

    /// Through the library too: a Latin-1 folder and file are indexed, found, listed with their exact bytes
    /// (percent-encoded URIs, in Library1 and MediaServer2) and played from there.
    @Test func latin1NamesThroughTheLibrary() throws {
        let session = try Session()
        defer { session.close() }
        let (music, song) = try latin1Song(in: session)
        let service = try session.launch([])
        let library = LibraryTests.interface
        #expect(session.waitFor(30) {
            (try? session.get("Scanning", interface: library)) == .bool(false) && (try? session.get("Tracks", interface: library)) == .uint32(1)
        }, "\(session.log(of: service))")
        let found = try session.call("Search", [.string("first light"), .uint32(10)], interface: library)
        #expect("\(found)".contains(song), "\(found)")
        let listed = try session.call("Tracks", [.string("folder"), .string(music + "/\u{10FFC9}t\u{10FFE9}")], interface: library)
        #expect("\(listed)".contains(song), "\(listed)")
        // MediaServer2: the item carries the same URI.
        let items = try session.bus.call(destination: RepriseObjects.busName, path: RepriseObjects.mediaServerRoot,
                                         interface: "org.gnome.UPnP.MediaContainer2", member: "SearchObjects",
                                         [.string("Type = \"music\""), .uint32(0), .uint32(0), .strings(["URLs"])])
        #expect("\(items)".contains(song), "\(items)")
        try session.call("Play", [.string("search"), .string("first light"), .bool(false)], interface: library)
        #expect(session.waitFor { session.metadata()["xesam:url"]?.stringValue == song && session.status() == "Playing" },
                "\(session.metadata())")
    }

    /// An MPD client reads only valid UTF-8 (python-mpd2 would raise on the whole listing otherwise): a Latin-1 name's
    /// bytes come as the private-use characters U+10FF00 + byte (`listall`, `lsinfo`, `listfiles`, `find`), and that
    /// name sent back adds and plays the file (as do its raw bytes): MPRIS plays the file of that name.
    @Test func latin1NamesRoundTripThroughMPD() throws {
        let session = try Session()
        defer { session.close() }
        let (music, song) = try latin1Song(in: session)
        try MPDTests.configure(session, library: music)
        let service = try session.launch([])
        #expect(session.waitFor(30) { (try? session.get("Tracks", interface: LibraryTests.interface)) == .uint32(1) },
                "\(session.log(of: service))")
        let script = session.directory + "/bytes.py"
        try Self.bytesClient.write(toFile: script, atomically: true, encoding: .utf8)
        let run = try runCommand("/usr/bin/python3", [script, MPDTests.socket(session)], environment: session.environment)
        #expect(run.status == 0 && run.output.contains("round trip"), "\(run.output)\(run.errors)")
        #expect(session.waitFor { session.metadata()["xesam:url"]?.stringValue == song && session.status() == "Playing" },
                "\(session.metadata())")
    }

    /// Lists the Latin-1 song, every reply strictly UTF-8, and plays it by the name it was listed under.
    static let bytesClient = #"""
    import socket, sys
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    f = s.makefile("rb")
    assert f.readline().startswith(b"OK MPD ")
    def ask(command):
        s.sendall(command + b"\n")
        lines = []
        while True:
            line = f.readline()
            lines.append(line)
            if line == b"OK\n" or line.startswith(b"ACK "):
                reply = b"".join(lines)
                reply.decode("utf-8")  # strict: raises on a byte that is not UTF-8
                return reply
    folder = "\U0010ffc9t\U0010ffe9".encode()
    name = folder + "/caf\U0010ffe9.ogg".encode()
    ask(b"listallinfo")
    listed = ask(b"listall")
    assert b"file: " + name + b"\n" in listed, listed
    assert b"directory: " + folder + b"\n" in ask(b"lsinfo"), ask(b"lsinfo")
    assert b"file: " + "caf\U0010ffe9.ogg".encode() + b"\n" in ask(b'listfiles "' + folder + b'"'), ask(b'listfiles "' + folder + b'"')
    assert b"file: " + name + b"\n" in ask(b'find "(base \'' + folder + b'\')"')
    assert ask(b"clear") == b"OK\n"
    assert ask(b'add "' + name + b'"') == b"OK\n"
    assert b"file: " + name + b"\n" in ask(b"playlistinfo"), ask(b"playlistinfo")
    assert ask(b'add "\xc9t\xe9/caf\xe9.ogg"') == b"OK\n"  # its raw bytes name it too
    assert ask(b"playlist").count(name) == 2, ask(b"playlist")
    assert ask(b"play 0") == b"OK\n"
    print("round trip")
    """#

    /// A file whose name starts with a dash is played, not taken for an unknown option.
    @Test func aNameStartingWithADashIsMedia() throws {
        let session = try Session()
        defer { session.close() }
        let directory = try session.makeFolder("dash")
        try FileManager.default.copyItem(atPath: media.first, toPath: directory + "/-dash.ogg")
        let pid = try session.start("sh", ["-c", "cd \"$1\" && exec \"$0\" -dash.ogg", repriseBinary, directory], logName: "dash")
        #expect(session.waitFor { session.title() == "First Light" && session.status() == "Playing" }, "\(session.output(ofLog: "dash"))")
        kill(pid, SIGTERM)
    }
}
