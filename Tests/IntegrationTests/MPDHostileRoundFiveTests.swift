import Foundation
import Glibc
import Testing
import TestSupport

/// Hostile MPD clients through real sockets, round five: a command list at MPD's size limit runs while another
/// client is served; a client that never reads is closed once 8 MiB of its replies wait, its memory released; two
/// clients racing on one stored playlist lose nothing; names with NUL never reach another file; the user's XSPF and
/// PLS playlists are never removed; a TCP client may not queue a file outside the music folder, the owner's socket
/// client may.
@Suite(.serialized) struct MPDHostileRoundFiveTests {

    /// Runs `script` (Python) with `arguments`; its output must end with `done`.
    static func runScript(_ session: Session, _ name: String, _ script: String, _ arguments: [String], pid: pid_t) throws {
        let path = session.directory + "/\(name).py"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let run = try runCommand("/usr/bin/python3", [path] + arguments, environment: session.environment)
        #expect(run.status == 0 && run.output.contains("done"), "\(run.output)\(run.errors)\n\(session.log(of: pid).suffix(2000))")
    }

    /// Reprise playing the first test track, serving MPD on its socket; its PID once the socket is there.
    static func launchServing(_ session: Session) throws -> pid_t {
        let pid = try MPDTests.launchServing(session, [media.first]) { session.status() == "Playing" }
        return pid
    }

    /// The shared helpers of the scripts.
    static let prelude = #"""
    import socket, sys, time, os, select
    def connect(path):
        if path.startswith("tcp:"):
            s = socket.create_connection(("127.0.0.1", int(path[4:])))
        else:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
        s.settimeout(30)
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(100)
            assert chunk, "not greeted"
            data += chunk
        assert data.startswith(b"OK MPD "), data
        return s
    buffers = {}
    def read_line(s):
        data = buffers.get(s, b"")
        while b"\n" not in data:
            chunk = s.recv(65536)
            assert chunk, "closed while waiting for a reply after %r" % data[-200:]
            data += chunk
        end = data.index(b"\n") + 1
        buffers[s] = data[end:]
        return data[:end]
    def reply(s):
        # One whole reply: lines up to OK or an ACK.
        data = b""
        while True:
            l = read_line(s)
            data += l
            if l == b"OK\n" or l.startswith(b"ACK "):
                return data
    def ask(s, line):
        s.sendall(line + b"\n")
        return reply(s)
    """#

    // MARK: a command list at the limits

    /// 419,000 pings in one list (2 MiB, MPD's limit) are answered in full, and a second client's pings are answered
    /// while the list runs: the service neither crashes nor holds its loop for the list.
    @Test func aListAtMPDsLimitRunsWhileAnotherClientIsServed() throws {
        let session = try Session()
        defer { session.close() }
        let pid = try Self.launchServing(session)
        try Self.runScript(session, "limit", Self.prelude + "\n" + Self.longList, [MPDTests.socket(session)], pid: pid)
        #expect(session.status() == "Playing", "MPRIS answers after the list")
    }

    static let longList = #"""
    count = 419000
    big, other = connect(sys.argv[1]), connect(sys.argv[1])
    big.sendall(b"command_list_ok_begin\n" + b"ping\n" * count + b"command_list_end\n")
    expected = len(b"list_OK\n") * count + 3
    received, answered_meanwhile = 0, 0
    big.setblocking(False)
    other.sendall(b"ping\n")
    while received < expected:
        ready, _, _ = select.select([big, other], [], [], 30)
        assert ready, "nothing answered for 30 s (%d of %d bytes)" % (received, expected)
        if big in ready:
            chunk = big.recv(1 << 20)
            assert chunk, "the list's client was closed after %d of %d bytes" % (received, expected)
            received += len(chunk)
        if other in ready:
            assert other.recv(100) == b"OK\n"
            if 0 < received < expected:
                answered_meanwhile += 1  # the list had begun to be answered and had not ended
            other.sendall(b"ping\n")
    big.setblocking(True)
    other.settimeout(30)
    assert other.recv(100) == b"OK\n"
    assert answered_meanwhile > 0, "the other client waited for the whole list"
    assert ask(big, b"ping") == b"OK\n"
    print("list answered whole; the other client answered %d times meanwhile; done" % answered_meanwhile)
    """#

    // MARK: a client that never reads

    /// A client that never reads sends one list of 8,000 `playlistinfo` over a 300-entry queue (240 MB of replies):
    /// it is closed once 8 MiB wait, the service's memory stays within that, and another client is served meanwhile
    /// (until the service says it closed the client: on a loaded machine filling 8 MiB takes longer than 2 s).
    @Test func aClientThatNeverReadsIsClosedAtTheCapInsideOneList() throws {
        let session = try Session()
        defer { session.close() }
        let pid = try Self.launchServing(session)
        try Self.runScript(session, "unread", Self.prelude + "\n" + Self.neverReads,
                           [MPDTests.socket(session), "\(pid)", media.second, session.logPath(of: pid)], pid: pid)
    }

    static let neverReads = #"""
    path, pid, song, log = sys.argv[1], sys.argv[2], sys.argv[3].encode(), sys.argv[4]
    def rss():
        for line in open("/proc/%s/status" % pid):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    owner = connect(path)
    assert ask(owner, b"command_list_begin\n" + (b"add \"" + song + b"\"\n") * 299 + b"command_list_end") == b"OK\n"
    length = [l for l in ask(owner, b"status").split(b"\n") if l.startswith(b"playlistlength: ")]
    assert length == [b"playlistlength: 300"], length
    before = rss()
    hog = socket.socket(socket.AF_UNIX)
    hog.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    hog.connect(path)
    hog.sendall(b"command_list_begin\n" + b"playlistinfo\n" * 8000 + b"command_list_end\n")
    # The other client keeps being answered while the hog's list runs, and the service's memory stays near its cap.
    peak = before
    deadline = time.monotonic() + 60
    for round in range(100000):
        assert ask(owner, b"ping") == b"OK\n"
        peak = max(peak, rss())
        if round >= 40 and b"bytes of replies not read" in open(log, "rb").read():
            break
        assert time.monotonic() < deadline, "the hog was not closed within 60 s"
        time.sleep(0.05)
    # The hog was closed: what it can still read ends, well before 240 MB.
    hog.settimeout(30)
    read = 0
    while True:
        try:
            chunk = hog.recv(1 << 20)
        except ConnectionResetError:
            break
        if not chunk:
            break
        read += len(chunk)
        assert read < 16 << 20, "the hog is still being sent replies (%d bytes read)" % read
    assert peak - before < 64, "RSS grew from %d to %d MiB" % (before, peak)
    assert ask(owner, b"ping") == b"OK\n"
    print("hog closed after %d bytes; RSS %d -> %d MiB at most; done" % (read, before, peak))
    """#

    // MARK: stored playlists

    /// Two clients each add 100 songs to one playlist at once: all 200 are kept. Of two clients saving one new name
    /// at once, exactly one succeeds, ten times over.
    @Test func twoClientsRacingOnOnePlaylistLoseNothing() throws {
        let session = try Session()
        defer { session.close() }
        let pid = try Self.launchServing(session)
        try Self.runScript(session, "race", Self.prelude + "\n" + Self.race, [MPDTests.socket(session), media.second], pid: pid)
    }

    static let race = #"""
    path, song = sys.argv[1], sys.argv[2].encode()
    a, b = connect(path), connect(path)
    line = b"playlistadd Shared \"" + song + b"\"\n"
    a.sendall(line * 100)
    b.sendall(line * 100)
    for s in (a, b):
        for _ in range(100):
            assert reply(s) == b"OK\n"
    entries = [l for l in ask(a, b"listplaylist Shared").split(b"\n") if l.startswith(b"file: ")]
    assert len(entries) == 200, "%d of 200 entries kept" % len(entries)
    for round in range(10):
        name = b"Race%d" % round
        a.sendall(b"save " + name + b"\n")
        b.sendall(b"save " + name + b"\n")
        answers = sorted([reply(a), reply(b)])
        assert answers == [b"ACK [56@0] {save} Playlist already exists\n", b"OK\n"], answers
    print("200 of 200 kept; one save of two each time; done")
    """#

    /// A NUL in a name never writes to the user's file `keep`; 250-byte names are saved and listed; the user's XSPF
    /// and PLS playlists are not removed or renamed; a playlist present at start is listed by the first
    /// `listplaylists`.
    @Test func namesAndFormatsKeepTheUsersFiles() throws {
        let session = try Session()
        defer { session.close() }
        try MPDTests.configure(session)
        let folder = try session.makeHomeFolder(".local/share/reprise/playlists")
        try "precious, not a playlist\n".write(toFile: folder + "/keep", atomically: true, encoding: .utf8)
        let xspf = "<?xml version=\"1.0\"?><playlist version=\"1\" xmlns=\"http://xspf.org/ns/0/\"><trackList><track><location>file://\(media.first)</location></track></trackList></playlist>\n"
        try xspf.write(toFile: folder + "/Handmade.xspf", atomically: true, encoding: .utf8)
        try "[playlist]\nFile1=\(media.first)\nNumberOfEntries=1\nVersion=2\n".write(toFile: folder + "/Old.pls", atomically: true, encoding: .utf8)
        try "#EXTM3U\n\(media.first)\n".write(toFile: folder + "/Base.m3u8", atomically: true, encoding: .utf8)
        let pid = try session.launch([media.first]) { session.status() == "Playing" }
        #expect(session.waitFor { FileManager.default.fileExists(atPath: MPDTests.socket(session)) })
        try Self.runScript(session, "names", Self.prelude + "\n" + Self.names, [MPDTests.socket(session), media.second], pid: pid)
        #expect(try String(contentsOfFile: folder + "/keep", encoding: .utf8) == "precious, not a playlist\n")
        #expect(try String(contentsOfFile: folder + "/Handmade.xspf", encoding: .utf8) == xspf)
        #expect(FileManager.default.fileExists(atPath: folder + "/Old.pls"))
        #expect(FileManager.default.fileExists(atPath: folder + "/Base.m3u8"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "temporary files left: \(leftovers)")
    }

    static let names = #"""
    path, song = sys.argv[1], sys.argv[2].encode()
    c = connect(path)
    listed = ask(c, b"listplaylists")
    for name in (b"Base", b"Handmade", b"Old"):
        assert b"playlist: " + name + b"\n" in listed, "the first listplaylists lacks %r: %r" % (name, listed)
    for line in (b"save \"keep\x00\"", b"playlistadd \"keep\x00\" \"" + song + b"\"", b"rename Base \"gone\x00\"", b"rm \"keep\x00\""):
        answer = ask(c, line)
        assert answer.startswith(b"ACK [2@0]") and b"Bad playlist name" in answer, (line, answer)
    for line in (b"rm Handmade", b"rm Old", b"rename Handmade Other", b"playlistclear Old", b"playlistadd Handmade \"" + song + b"\""):
        answer = ask(c, line)
        assert answer.startswith(b"ACK [4@0]") and b"not an M3U playlist" in answer, (line, answer)
    for length in (244, 248, 250):
        name = b"n" * length
        assert ask(c, b"save " + name) == b"OK\n", length
        assert b"playlist: " + name + b"\n" in ask(c, b"listplaylists"), length
        assert ask(c, b"rm " + name) == b"OK\n"
    assert ask(c, b"save " + b"n" * 251).startswith(b"ACK [2@0] {save} Bad playlist name")
    print("done")
    """#

    // MARK: local files

    /// Over TCP (any local user) a file outside the music folder is refused with MPD's "Access denied", by URI or
    /// path, in the queue and in stored playlists, and nothing about it shows; the owner's client on the Unix socket
    /// adds the same file.
    @Test func onlyTheOwnersSocketMayNameFilesOutsideTheMusicFolder() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        let port = Int(try freeLoopbackPort())
        try MPDTests.configure(session, library: music, port: port)
        let pid = try session.launch([]) { FileManager.default.fileExists(atPath: MPDTests.socket(session)) }
        try Self.runScript(session, "local", Self.prelude + "\n" + Self.localFiles,
                           [MPDTests.socket(session), "tcp:\(port)", media.second], pid: pid)
    }

    static let localFiles = #"""
    socket_path, tcp, song = sys.argv[1], sys.argv[2], sys.argv[3].encode()
    remote, owner = connect(tcp), connect(socket_path)
    for name in (song, b"file://" + song, b"file:///etc/hostname", b"/etc/hostname", b"../" * 12 + b"etc/hostname"):
        for command in (b"add", b"addid"):
            answer = ask(remote, command + b" \"" + name + b"\"")
            assert answer == b"ACK [4@0] {" + command + b"} Access denied\n", (name, answer)
        answer = ask(remote, b"playlistadd Stolen \"" + name + b"\"")
        assert answer == b"ACK [4@0] {playlistadd} Access denied\n", (name, answer)
    assert b"file:" not in ask(remote, b"playlistinfo")
    assert b"Stolen" not in ask(remote, b"listplaylists")
    assert ask(owner, b"add \"" + song + b"\"") == b"OK\n"
    assert b"file: " + song + b"\n" in ask(owner, b"playlistinfo")
    print("done")
    """#
}
