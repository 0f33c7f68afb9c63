import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// MPD clients drive the real service over its Unix socket while MPRIS watches: mpc's verbs, python-mpd2's command
/// groups, and each protocol seeing the other's changes (idle wakes on a D-Bus PlayPause; MPRIS announces what mpc did).
@Suite(.serialized) struct MPDTests {

    /// The MPD socket of `session`'s Reprise.
    static func socket(_ session: Session) -> String { session.environment["XDG_RUNTIME_DIR"]! + "/reprise/mpd.socket" }

    /// `mpc` against the session's Reprise; its output.
    @discardableResult
    static func mpc(_ session: Session, _ arguments: String...) throws -> CommandResult {
        try runCommand("mpc", ["-h", socket(session)] + arguments, environment: session.environment)
    }

    /// Writes the config: the music folder (`library`), TCP on `port` (0: the socket only).
    static func configure(_ session: Session, library: String = "off", port: Int = 0) throws {
        let config = try session.makeHomeFolder(".config/reprise")
        try "library = \(library)\nmpd-port = \(port)\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
    }

    /// Reprise on the first two test tracks, serving MPD on its socket only; back once the first plays and the
    /// socket is there.
    /// Configures the MPD server, starts Reprise with `files` (the first two songs unless told) and waits until
    /// `ready` (the first song's title unless told) and until the MPD socket is there. Returns its PID.
    @discardableResult
    static func launchServing(_ session: Session, _ files: [String] = [media.first, media.second],
                              until ready: (() -> Bool)? = nil,
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> pid_t {
        try configure(session)
        let pid = try session.launch(files, until: ready ?? { session.title() == "First Light" }, sourceLocation: sourceLocation)
        #expect(session.waitFor { FileManager.default.fileExists(atPath: socket(session)) }, sourceLocation: sourceLocation)
        return pid
    }

    static func trackCount(_ session: Session) -> Int? {
        guard case .array(_, let items)? = try? session.get("Tracks", interface: "org.mpris.MediaPlayer2.TrackList") else { return nil }
        return items.count
    }

    @Test func mpcDrivesThePlayerAndMPRISAgreesAtEveryStep() throws {
        let session = try Session()
        defer { session.close() }
        try Self.launchServing(session)
        #expect(session.waitFor { session.status() == "Playing" })

        let status = try Self.mpc(session, "status")
        #expect(status.status == 0 && status.output.contains("[playing] #1/2"), "\(status.output)\(status.errors)")
        #expect(try Self.mpc(session, "current", "-f", "%title%").trimmed == "First Light")

        try Self.mpc(session, "pause")
        #expect(session.waitFor { session.status() == "Paused" }, "MPRIS announces mpc's pause")
        try Self.mpc(session, "play")
        #expect(session.waitFor { session.status() == "Playing" })
        try Self.mpc(session, "next")
        #expect(session.waitFor { session.title() == "Second Wind" })
        try Self.mpc(session, "volume", "40")
        #expect(session.waitFor { (try? session.get("Volume")) == .double(0.4) })
        try Self.mpc(session, "repeat", "on")
        #expect(session.waitFor { (try? session.get("LoopStatus")) == .string("Playlist") })
        try Self.mpc(session, "random", "on")
        #expect(session.waitFor { (try? session.get("Shuffle")) == .bool(true) })

        // A third file added by mpc joins MPRIS's track list; mpc lists the queue in order.
        try Self.mpc(session, "add", media.third)
        #expect(session.waitFor { Self.trackCount(session) == 3 })
        // Once the third file's tags are read (a file added from outside the library is read after it is queued).
        var playlist: [Substring] = []
        #expect(session.waitFor { playlist = (try? Self.mpc(session, "playlist", "-f", "%title%").output.split(separator: "\n")) ?? []
                                  return playlist == ["First Light", "Second Wind", "Third Time"] }, "\(playlist)")

        // MPRIS's PlayPause wakes an MPD client waiting in idle. The client's connection answers a ping before it
        // idles, so the change comes after the session exists (a change before idle, after that, still wakes it).
        #expect(session.waitFor { (try? Self.mpc(session, "status").output.contains("[playing]")) == true })
        let idle = try session.start("/usr/bin/python3", ["-c", """
            import mpd, sys
            c = mpd.MPDClient(); c.connect(sys.argv[1]); c.ping()
            print("ready", flush=True)
            print(" ".join(c.idle("player")), flush=True)
            """, Self.socket(session)], logName: "idle")
        #expect(session.waitFor { session.output(ofLog: "idle").contains("ready") }, "\(session.output(ofLog: "idle"))")
        try session.call("PlayPause")
        #expect(session.waitForExit(idle) == 0)
        #expect(session.output(ofLog: "idle").split(separator: "\n").last == "player", "\(session.output(ofLog: "idle"))")
        #expect(try Self.mpc(session, "status").output.contains("[paused]"))
    }

    /// A file changed and then `update`: a client in `idle database` is woken once, as MPD wakes it. The change
    /// reaches the library twice — the rescan reads it, and so would inotify's watcher a moment later — and the
    /// second finds the index already as the file is, so it announces nothing.
    @Test func aChangeTheRescanReadWakesIdleDatabaseOnce() throws {
        let session = try Session()
        defer { session.close() }
        let library = try session.makeHomeFolder("Music")
        let paths = try TaggedFLACMaker(seconds: 1, workDirectory: session.directory).library(count: 20, in: library)
        try Self.configure(session, library: library)
        try session.launch([])
        #expect(session.waitFor(30) { MPDDifferentialTests.songs(try? Self.mpc(session, "stats").output) == 20 })
        let idle = try session.start("/usr/bin/python3", ["-c", """
            import select, socket, sys, time
            c = socket.socket(socket.AF_UNIX); c.connect(sys.argv[1]); lines = c.makefile("rb")
            def answer():
                got = []
                while True:
                    line = lines.readline().decode().strip()
                    if line == "OK" or line.startswith("ACK") or not line: return got
                    got.append(line)
            lines.readline()  # the greeting
            print("ready", flush=True)
            seen, deadline = [], None
            while True:
                c.sendall(b"idle database\\n")
                ready, _, _ = select.select([c], [], [], None if deadline is None else max(0, deadline - time.time()))
                if not ready:
                    c.sendall(b"noidle\\n")
                    seen += [line[9:] for line in answer() if line.startswith("changed: ")]
                    break
                seen += [line[9:] for line in answer() if line.startswith("changed: ")]
                if deadline is None: deadline = time.time() + 3  # the watcher's batch comes well within this
            print(" ".join(seen), flush=True)
            """, Self.socket(session)], logName: "idle")
        #expect(session.waitFor { session.output(ofLog: "idle").contains("ready") }, "\(session.output(ofLog: "idle"))")
        let maker = try TaggedFLACMaker(seconds: 1, workDirectory: session.directory)
        try maker.file(tags: [("TITLE", "Changed"), ("ARTIST", "Changer")]).write(to: URL(fileURLWithPath: paths[3]))
        try Self.mpc(session, "update")
        #expect(session.waitForExit(idle) == 0)
        #expect(session.output(ofLog: "idle").split(separator: "\n").last == "database", "\(session.output(ofLog: "idle"))")
        #expect(try Self.mpc(session, "-f", "%title%", "search", "title", "Changed").output.contains("Changed"))
    }

    /// Playlists saved and edited by mpc are files in Reprise's playlist folder that MPRIS Playlists lists at once;
    /// loading one queues its entries; removing one removes its file.
    /// "Stop after this song" as mpc toggles it (`mpc single on`, repeat off): the song plays to its end and playback
    /// stops there, on it, the next song not begun; `mpc status` still says single on and MPRIS's LoopStatus None.
    @Test func singleWithoutRepeatStopsAfterTheSong() throws {
        let session = try Session()
        defer { session.close() }
        try Self.configure(session)
        let tonight = session.directory + "/tonight.ogg", tomorrow = session.directory + "/tomorrow.ogg"
        try generateTone(at: tonight, seconds: 4, frequency: 440, tags: "title=\\\"Tonight\\\"", encoder: ["vorbisenc", "!", "oggmux"])
        try generateTone(at: tomorrow, seconds: 4, frequency: 660, tags: "title=\\\"Tomorrow\\\"", encoder: ["vorbisenc", "!", "oggmux"])
        let pid = try session.launch([tonight, tomorrow]) { session.title() == "Tonight" }
        #expect(session.waitFor { FileManager.default.fileExists(atPath: Self.socket(session)) })
        let set = try Self.mpc(session, "single", "on")
        #expect(set.output.contains("single: on") && set.output.contains("repeat: off"), "\(set.output)\(set.errors)")
        #expect((try? session.get("LoopStatus")) == .string("None"))
        #expect(session.waitFor { session.status() == "Stopped" }, "\(session.log(of: pid))")
        #expect(session.title() == "Tonight")
        let status = try Self.mpc(session, "status").output
        #expect(status.contains("single: on") && !status.contains("[playing]"), "\(status)")
        #expect(session.log(of: pid).contains("single: stopped after the song"))
        #expect(!session.log(of: pid).contains("gapless: continuing"), "\(session.log(of: pid))")
    }

    /// MPD's `kill` stops Reprise as Quit does: no reply, the name released, the queue saved, exit status 0.
    @Test func killStopsTheServiceCleanly() throws {
        let session = try Session()
        defer { session.close() }
        let pid = try Self.launchServing(session)
        let asked = try runCommand("/usr/bin/python3", ["-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            f = s.makefile("rb")
            f.readline()
            s.sendall(b"kill\\n")
            sys.stdout.write(repr(f.read()))
            """, Self.socket(session)], environment: session.environment)
        #expect(asked.status == 0 && asked.output == "b''", "no reply, then closed: \(asked.output)\(asked.errors)")
        #expect(session.waitForExit(pid) == 0, "\(session.log(of: pid))")
        #expect(session.log(of: pid).contains("kill (MPD): stopping"))
        #expect(!session.nameHasOwner(Session.name))
        // The queue was saved: the next start has it.
        try session.launch([]) { Self.trackCount(session) == 2 }
    }

    @Test func storedPlaylistsAreReprisesPlaylistFiles() throws {
        let session = try Session()
        defer { session.close() }
        try Self.launchServing(session)
        func playlistCount() -> UInt32? {
            guard case .uint32(let count)? = try? session.get("PlaylistCount", interface: "org.mpris.MediaPlayer2.Playlists") else { return nil }
            return count
        }
        let before = playlistCount()

        #expect(try Self.mpc(session, "save", "road trip").status == 0)
        let saved = session.home + "/.local/share/reprise/playlists/road trip.m3u8"
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        #expect(text == "#EXTM3U\n\(media.first)\n\(media.second)\n", "\(text)")
        #expect(session.waitFor { playlistCount() == (before ?? 0) + 1 }, "MPRIS lists it: \(String(describing: playlistCount()))")
        #expect(try Self.mpc(session, "lsplaylists").output.split(separator: "\n").contains("road trip"))
        #expect(try Self.mpc(session, "save", "road trip").status != 0, "an existing playlist is not overwritten")

        // mpc has no verb for playlistadd: python-mpd2's.
        let added = try runCommand("/usr/bin/python3", ["-c", "import mpd, sys; c = mpd.MPDClient(); c.connect(sys.argv[1]); "
                                                        + "c.playlistadd('road trip', sys.argv[2])", Self.socket(session), media.third],
                                   environment: session.environment)
        #expect(added.status == 0, "\(added.errors)")
        let listed = try Self.mpc(session, "playlist", "road trip")
        #expect(listed.output.split(separator: "\n").count == 3, "\(listed.output)\(listed.errors)")
        try Self.mpc(session, "clear")
        #expect(session.waitFor { Self.trackCount(session) == 0 })
        try Self.mpc(session, "load", "road trip")
        #expect(session.waitFor { Self.trackCount(session) == 3 })
        #expect(try Self.mpc(session, "rm", "road trip").status == 0)
        #expect(!FileManager.default.fileExists(atPath: saved))
        #expect(session.waitFor { playlistCount() == before })
        #expect(try Self.mpc(session, "rm", "road trip").status != 0)
    }

    /// A playlist file written while Reprise runs (by another program, between two of the folder's periodic looks)
    /// is loaded at once when a client names it: the folders are looked at when asked, as MPD reads its own.
    @Test func aPlaylistWrittenAMomentAgoLoadsAtOnce() throws {
        let session = try Session()
        defer { session.close() }
        try Self.launchServing(session)
        let folder = try session.makeHomeFolder(".local/share/reprise/playlists")
        try "#EXTM3U\n\(media.third)\n".write(toFile: folder + "/Road Trip.m3u8", atomically: true, encoding: .utf8)
        try Self.mpc(session, "clear")
        #expect(session.waitFor { Self.trackCount(session) == 0 })
        let loaded = try Self.mpc(session, "load", "Road Trip")
        #expect(loaded.status == 0, "\(loaded.output)\(loaded.errors)")
        #expect(session.waitFor { Self.trackCount(session) == 1 })
    }

    @Test func aFileWithAColonInItsNameIsAFileNotAURI() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeFolder("Music")
        try generateTone(at: music + "/Live: Encore.ogg", seconds: 2, tags: "title=(string)\"Encore\"", encoder: ["vorbisenc", "!", "oggmux"])
        try Self.configure(session, library: music)
        try session.launch([])
        #expect(session.waitFor(30) { MPDDifferentialTests.songs(try? Self.mpc(session, "stats").output) == 1 })
        let added = try Self.mpc(session, "add", "Live: Encore.ogg")
        #expect(added.status == 0, "\(added.output)\(added.errors)")
        try Self.mpc(session, "play")
        #expect(session.waitFor { session.title() == "Encore" }, "MPD names it as a file (SCHEME:// makes a URI), and it plays")
    }

    @Test func pythonMPD2CallsEachCommandGroup() throws {
        let session = try Session()
        defer { session.close() }
        try Self.launchServing(session)
        let script = session.directory + "/client.py"
        try Self.pythonClient.write(toFile: script, atomically: true, encoding: .utf8)
        let run = try runCommand("/usr/bin/python3", [script, Self.socket(session), media.third], environment: session.environment)
        #expect(run.status == 0, "\(run.output)\(run.errors)")
        #expect(run.output.contains("all groups answered"), "\(run.output)")
        #expect(session.waitFor { session.title() == "Third Time" }, "python-mpd2's playid reached the player")
    }

    /// ncmpcpp in a terminal: its browser lists the music folder, Enter on a song plays it (MPRIS agrees), its media
    /// library lists the artists and albums, it shows MPRIS's pause and `p` plays on, and its queue shows what plays.
    @Test func ncmpcppBrowsesTheLibraryAndPlays() throws {
        let session = try Session()
        defer { session.close() }
        let music = try LibraryTests.musicFolder(in: session.home)
        try Self.configure(session, library: music)
        try session.launch([])
        #expect(session.waitFor(30) { (try? session.get("Tracks", interface: LibraryTests.interface)) == .uint32(6) })
        let terminal = try session.terminal(["ncmpcpp", "-h", Self.socket(session)], columns: 120, rows: 30)
        #expect(session.waitFor { terminal.text().contains("Playlist") }, "\(terminal.text())")
        terminal.send("2") // the browser
        #expect(session.waitFor { ["Björk", "Miles Davis", "Singles"].allSatisfy { terminal.text().contains($0) } }, "\(terminal.text())")
        let rows = terminal.screen()
        let singles = try #require(rows.firstIndex { $0.contains("Singles") }), first = try #require(rows.firstIndex { $0.contains("Björk") })
        for _ in first..<singles { terminal.send("Down") }
        terminal.send("Enter")
        #expect(session.waitFor { terminal.text().contains("Blue Monday") }, "\(terminal.text())")
        terminal.send("Down", "Enter") // past "..", on the folder's one song: add it and play it
        #expect(session.waitFor { session.title() == "Blue Monday" && session.status() == "Playing" }, "\(terminal.text())")
        // (The song is 3 s long: paused from MPRIS first, then played on from ncmpcpp.)
        try session.call("Pause")
        #expect(session.waitFor { terminal.text().contains("Paused") }, "MPRIS's pause reaches ncmpcpp: \(terminal.text())")
        terminal.send("p")
        #expect(session.waitFor { session.status() == "Playing" }, "ncmpcpp's play reaches MPRIS")
        terminal.send("4") // the media library: artists, then their albums
        #expect(session.waitFor { ["Björk", "Miles Davis", "New Order"].allSatisfy { terminal.text().contains($0) } }, "\(terminal.text())")
        terminal.send("1") // the queue
        #expect(session.waitFor { terminal.text().contains("Blue Monday") && terminal.text().contains("New Order") }, "\(terminal.text())")
        terminal.send("q")
        #expect(session.waitFor { terminal.exitStatus == 0 }, "\(terminal.text())")
    }

    /// A python-mpd2 client: connection commands, a command list, status, the queue by id, priorities, ranges, single
    /// oneshot, the music folder's files, playback, idle.
    static let pythonClient = #"""
    import sys, mpd
    sock, third = sys.argv[1], sys.argv[2]
    c = mpd.MPDClient()
    c.connect(sock)
    assert c.mpd_version == "0.23.5", c.mpd_version
    c.ping()
    cmds = c.commands()
    for name in ["status", "currentsong", "idle", "addid", "deleteid", "moveid", "playlistinfo", "plchanges", "setvol", "binarylimit"]:
        assert name in cmds, name
    assert c.notcommands() == []
    assert "Artist" in c.tagtypes()
    st = c.status()
    assert st["playlistlength"] == "2" and st["state"] == "play", st
    version = int(st["playlist"])
    song = c.currentsong()
    assert song["title"] == "First Light" and song["pos"] == "0", song
    first_id = song["id"]
    new_id = c.addid(third, 1)
    queue = c.playlistinfo()
    assert [q["id"] for q in queue][:2] == [first_id, new_id] and queue[1]["file"] == third, queue
    assert int(c.status()["playlist"]) > version
    changed = c.plchangesposid(version)
    assert [(x["cpos"], x["id"]) for x in changed] == [("1", new_id), ("2", queue[2]["id"])], changed
    c.moveid(new_id, 2)
    assert [q["id"] for q in c.playlistinfo()] == [first_id, queue[2]["id"], new_id]
    c.prioid(7, new_id)
    assert c.playlistid(new_id)[0]["prio"] == "7"
    c.prio(0, "0:3")
    assert "prio" not in c.playlistid(new_id)[0]
    c.single("oneshot")
    assert c.status()["single"] == "oneshot"
    c.single(0)
    assert c.status()["single"] == "0" and c.status()["repeat"] == "0"
    assert isinstance(c.listfiles(), list)
    c.rangeid(new_id, "1.5:4")
    ranged = c.playlistid(new_id)[0]
    assert ranged["range"] == "1.500-4.000" and ranged["duration"] == "2.500", ranged
    try:
        c.rangeid(first_id, "1:2")
        raise SystemExit("rangeid changed the song playing")
    except mpd.CommandError as e:
        assert "Cannot edit the current song" in str(e), e
    c.rangeid(new_id, ":")
    assert "range" not in c.playlistid(new_id)[0]
    c.command_list_ok_begin()
    c.setvol(55)
    c.status()
    results = c.command_list_end()
    assert results[1]["volume"] == "55", results
    try:
        c.deleteid(999999)
        raise SystemExit("deleteid of an unknown id succeeded")
    except mpd.CommandError as e:
        assert "No such song" in str(e), e
    import threading, time
    woken = []
    waiting = threading.Thread(target=lambda: woken.append(c.idle("playlist")))
    waiting.start()
    time.sleep(0.3)
    c2 = mpd.MPDClient()
    c2.connect(sock)
    c2.deleteid(queue[2]["id"])
    waiting.join(10)
    assert woken == [["playlist"]], woken
    c.playid(new_id)
    print("all groups answered")
    """#
}
