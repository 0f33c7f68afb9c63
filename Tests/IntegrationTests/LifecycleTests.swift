import Foundation
import SDBus
import Testing
import TestSupport

/// The service's life cycle: stopping drains what it still has to send (other apps' volumes put back before it
/// exits), and a key press never waits on the disk.
@Suite(.serialized) struct LifecycleTests {

    /// Reprise's playing stream (pulsesink's probe stream has no media.role).
    func stream(_ session: Session, _ pid: pid_t) -> SinkInput? {
        (try? session.sinkInputs(of: pid))?.last { $0.properties["media.role"] != nil }
    }

    /// `reprise FILE` with no service running becomes the service with one exec: the same PID owns the name and runs
    /// `reprised`; `reprised` takes only its options and `-- MEDIA`.
    @Test func reprisePlayingAFileBecomesTheServiceWithOneExec() throws {
        let session = try Session()
        defer { session.close() }
        let pid = try session.launch([media.first])
        #expect(session.ownerProcess(of: Session.name) == pid)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        #expect(executable.hasSuffix("/reprised"), "\(executable)")
        let service = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent().appendingPathComponent("reprised").path
        let refused = try runCommand(service, ["status"], environment: session.environment)
        #expect(refused.status == 2 && refused.errors.contains("usage: reprised"), "\(refused.errors)")
        #expect(try runCommand(service, ["--version"]).output.hasPrefix("reprised "))
    }

    /// However it is started — by `reprise`, or `reprised` by hand as D-Bus activation and systemd start it — the
    /// service runs with glibc's malloc tunables and GLib's blocks from malloc (both read before `main`).
    @Test func theServiceRunsWithItsMallocSettingsHoweverItIsStarted() throws {
        let service = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent().appendingPathComponent("reprised").path
        for byHand in [false, true] {
            let session = try Session()
            defer { session.close() }
            let pid = byHand ? try session.start(service, ["--", media.first], logName: "reprised") : try session.launch([media.first])
            #expect(session.waitFor { session.ownerProcess(of: Session.name) == pid })
            let environment = (try? String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8))?.split(separator: "\0") ?? []
            #expect(environment.contains("G_SLICE=always-malloc"), "\(byHand ? "reprised" : "reprise"): \(environment)")
            #expect(environment.contains { $0.hasPrefix("GLIBC_TUNABLES=") && $0.contains("glibc.malloc.tcache_count=64") })
        }
    }

    /// SIGTERM stops the library too: its timers cancelled, MediaServer2's name released before the service's own,
    /// nothing from the library after it stopped, exit 0.
    @Test func sigtermStopsTheLibraryAndReleasesEveryName() throws {
        let session = try Session()
        defer { session.close() }
        _ = try LibraryTests.musicFolder(in: session.home)
        let reprise = try session.launch([])
        let mediaServer = "org.gnome.UPnP.MediaServer2.Reprise"
        #expect(session.waitFor(30) {
            (try? session.get("Scanning", interface: LibraryTests.interface)) == .bool(false)
                && (try? session.get("Tracks", interface: LibraryTests.interface)) == .uint32(6)
        })
        #expect(session.nameHasOwner(mediaServer))
        kill(reprise, SIGTERM)
        #expect(session.waitForExit(reprise) == 0)
        #expect(!session.nameHasOwner(mediaServer) && !session.nameHasOwner(Session.name))
        let log = session.log(of: reprise)
        let lines = log.split(separator: "\n").map(String.init)
        let libraryStopped = try #require(lines.firstIndex(of: "reprise: library: stopped"), "\(log)")
        let mediaServerReleased = try #require(lines.firstIndex(of: "reprise: released \(mediaServer)"), "\(log)")
        let nameReleased = try #require(lines.firstIndex(of: "reprise: released \(Session.name)"), "\(log)")
        #expect(libraryStopped < mediaServerReleased && mediaServerReleased < nameReleased)
        #expect(!lines[(libraryStopped + 1)...].contains { $0.hasPrefix("reprise: library:") }, "\(log)")
    }

    @Test func aCleanQuitPutsBackWhatItLoweredAndLeavesNoRecord() throws {
        let session = try Session()
        defer { session.close() }
        let other = try session.startStream(role: "music", volume: 50_000)
        func otherVolumes() -> [Int] { (try? session.sinkInputs(of: other))?.first?.volumes ?? [] }
        let record = session.directory + "/home/.local/state/reprise/changed-streams"
        for signal in [SIGTERM, SIGINT] {
            let reprise = try session.launch(["--options", "duckOthers", media.first])
            #expect(session.waitFor { otherVolumes() == [25_000, 25_000] }, "\(session.log(of: reprise))")
            #expect(FileManager.default.fileExists(atPath: record))
            kill(reprise, signal)
            #expect(session.waitForExit(reprise) == 0)
            // Already back when the process has exited, and nothing left for a next run to undo.
            #expect(otherVolumes() == [50_000, 50_000], "\(session.log(of: reprise))")
            #expect(!FileManager.default.fileExists(atPath: record))
        }
        // Quit over MPRIS stops the same way.
        let reprise = try session.launch(["--options", "duckOthers", media.first]) { otherVolumes() == [25_000, 25_000] }
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(reprise) == 0)
        #expect(otherVolumes() == [50_000, 50_000])
        #expect(!FileManager.default.fileExists(atPath: record))
    }

    @Test func aKeyPressNeverWaitsOnTheDisk() throws {
        let session = try Session()
        defer { session.close() }
        let gate = session.directory + "/fsync-gate"
        let shim = try FsyncGate.build(in: session.directory)
        let reprise = try session.launch([media.first], extraEnvironment: ["LD_PRELOAD": shim, "REPRISE_TEST_FSYNC_GATE": gate])
        #expect(session.waitFor { session.status() == "Playing" && stream(session, reprise)?.corked == false })
        let statePath = session.directory + "/home/.local/state/reprise/state"
        #expect(session.waitFor { FileManager.default.fileExists(atPath: statePath) })
        // From now on every fsync of Reprise's blocks until the gate is gone: a disk that does not answer.
        _ = FileManager.default.createFile(atPath: gate, contents: nil)
        Thread.sleep(forTimeInterval: 1.2) // the last save is over a second old, as before any real key press
        let before = try String(contentsOfFile: statePath, encoding: .utf8)
        for expected in ["Paused", "Playing", "Paused"] {
            try session.call("PlayPause")
            #expect(session.status() == expected)
            #expect(session.waitFor { stream(session, reprise)?.corked == (expected == "Paused") })
        }
        #expect(try String(contentsOfFile: statePath, encoding: .utf8) == before)
        // The disk answers again: the saves that waited reach it.
        try FileManager.default.removeItem(atPath: gate)
        #expect(session.waitFor { (try? String(contentsOfFile: statePath, encoding: .utf8)) != before })
        kill(reprise, SIGTERM)
        #expect(session.waitForExit(reprise) == 0)
    }
}

/// An LD_PRELOAD library, compiled for the test, whose fsync waits while the file named by
/// `REPRISE_TEST_FSYNC_GATE` exists: a disk that does not answer, for as long as a test wants.
enum FsyncGate {
    static func build(in directory: String) throws -> String {
        let source = directory + "/fsync-gate.c", library = directory + "/fsync-gate.so"
        try """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <stdlib.h>
            #include <unistd.h>
            int fsync(int fd) {
                static int (*real)(int);
                if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
                const char *gate = getenv("REPRISE_TEST_FSYNC_GATE");
                while (gate && access(gate, F_OK) == 0) usleep(1000);
                return real(fd);
            }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let result = try runCommand("cc", ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"])
        guard result.status == 0 else { throw HarnessError(message: "cc failed: \(result.errors)") }
        return library
    }
}

/// SIGTERM while Reprise is still starting stops it cleanly once started, with the final save.
@Suite(.serialized) struct EarlySignalTests {

    @Test(arguments: [200, 400, 800]) func sigtermDuringStartSavesTheQueue(_ milliseconds: Int) throws {
        let session = try Session()
        defer { session.close() }
        let state = session.home + "/.local/state/reprise/state"
        let pid = try session.start(repriseBinary, [media.first, media.second], logName: "early")
        usleep(UInt32(milliseconds * 1000))
        kill(pid, SIGTERM)
        #expect(session.waitForExit(pid, seconds: 20) == 0, "\(session.output(ofLog: "early"))")
        let saved = (try? String(contentsOfFile: state, encoding: .utf8)) ?? ""
        #expect(saved.contains("first.ogg") && saved.contains("second.flac"), "after \(milliseconds) ms: \(saved)")
    }
}
