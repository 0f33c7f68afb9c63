import Foundation
import Glibc
import SDBus
import TestSupport

extension Bench {
    /// Seconds from each PlayPause sent while `contender` plays to its sink input's change (the cork) reported by the
    /// sound server, with presses 1.5 s apart (as a person presses keys: the last save is always over a second old).
    /// With `slowFsync`, every fsync of the player's takes 20 ms longer (an LD_PRELOAD shim built here), as on a
    /// laptop's disk: the key path must not notice.
    func keyPressToCork(_ contender: Contender, _ file: String, presses: Int, slowFsync: Bool) throws -> [Double] {
        var contender = contender
        if slowFsync { contender.environment["LD_PRELOAD"] = try SlowFsync.build(in: workDirectory) }
        var running = try startPlaying(contender, file)
        defer { stop(&running) }
        pump(for: 1)
        guard let name = contender.busName else { return [] }
        let path = "/org/mpris/MediaPlayer2", player = "org.mpris.MediaPlayer2.Player"
        var samples: [Double] = []
        for _ in 0..<presses {
            pump(for: 1.5)
            let start = monotonicSeconds()
            try bus.send(destination: name, path: path, interface: player, member: "PlayPause")
            let corked = pump(for: 3) { firstEvent("change", on: "sink-input", after: start, index: running.sinkInput) != nil }
            if corked, let event = firstEvent("change", on: "sink-input", after: start, index: running.sinkInput) {
                samples.append(event.time - start)
            }
            pump(for: 1.5)
            try bus.send(destination: name, path: path, interface: player, member: "PlayPause") // playing again, untimed
        }
        return samples
    }
}

/// An LD_PRELOAD library whose fsync sleeps 20 ms before doing its work: a slow disk.
enum SlowFsync {
    static func build(in directory: String) throws -> String {
        let source = directory + "/slow-fsync.c", library = directory + "/slow-fsync.so"
        if FileManager.default.fileExists(atPath: library) { return library }
        try """
            #define _GNU_SOURCE
            #include <dlfcn.h>
            #include <unistd.h>
            int fsync(int fd) {
                static int (*real)(int);
                if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
                usleep(20000);
                return real(fd);
            }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let result = try runCommand("cc", ["-shared", "-fPIC", "-O2", "-o", library, source, "-ldl"])
        guard result.status == 0 else { throw HarnessError(message: "cc failed: \(result.errors)") }
        chmod(library, 0o755)
        return library
    }
}
