import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// `snapcast-pipe` is the user's config, but the sound server is everyone's: a path the sound server cannot make a
/// FIFO at (a missing folder) once left PulseAudio 16 with its descriptor 0 closed, so the next Reprise hung and later
/// ones could not play. Reprise checks the path, and makes the FIFO, before it asks the server for a pipe sink; a
/// path it refuses is said in the log, and playback goes on on the speakers. On a stock PulseAudio and on PipeWire.
@Suite(.serialized) struct SnapcastPipeTests {
    @Test(arguments: [SoundServerKind.stockPulseAudio, .pipeWire])
    func aPipeTheSoundServerCannotMakeIsNeverAskedFor(_ soundServer: SoundServerKind) throws {
        let session = try Session(soundServer: soundServer)
        defer { session.close() }
        let tone = session.directory + "/tone.ogg"
        try generateTone(at: tone, seconds: 30, frequency: 440, tags: nil, encoder: ["vorbisenc", "!", "oggmux"])
        let plain = session.directory + "/plain-file"
        try "not a fifo".write(toFile: plain, atomically: true, encoding: .utf8)
        let config = try session.makeHomeFolder(".config/reprise")
        let pipes = [("/missing-dir-\(getpid())/fifo", "does not exist"), (session.directory + "/my fifo", "white space"),
                     (plain, "not a FIFO")]
        for (pipe, reason) in pipes {
            try "snapcast-pipe = \(pipe)\nmpd-port = 0\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
            let pid = try session.launch([tone])
            #expect(session.waitFor { session.status() == "Playing" }, "\(pipe): \(session.log(of: pid))")
            #expect(session.waitFor { session.log(of: pid).contains("no Snapcast output") && session.log(of: pid).contains(reason) },
                    "\(pipe): \(session.log(of: pid))")
            #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > 1000 }, "\(pipe): heard on the speakers")
            let outputs = try runCommand(repriseBinary, ["output", "list"], environment: session.environment)
            #expect(outputs.status == 0 && !outputs.output.contains("Snapcast"), "\(outputs.output)")
            try session.call("Quit", interface: "org.mpris.MediaPlayer2")
            #expect(session.waitForExit(pid) == 0, "\(pipe): \(session.log(of: pid))")
            // The sound server came through whole: it answers, and loaded no pipe sink.
            let modules = try session.pactl("list", "short", "modules")
            #expect(modules.status == 0 && !modules.output.contains("module-pipe-sink"), "\(modules.output) \(modules.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: session.directory + "/my fifo"))
        #expect((try? String(contentsOfFile: plain, encoding: .utf8)) == "not a fifo")

        // A Reprise started after all of them plays, and a FIFO in a folder that exists is made and fed.
        let fifo = session.directory + "/snapfifo"
        try "snapcast-pipe = \(fifo)\nmpd-port = 0\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let pid = try session.launch([tone])
        #expect(session.waitFor { session.status() == "Playing" }, "\(session.log(of: pid))")
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > 1000 }, "heard on the speakers")
        #expect(session.waitFor {
            (try? runCommand(repriseBinary, ["output", "list"], environment: session.environment))?.output.contains("Snapcast") == true
        }, "\(session.log(of: pid))")
        var info = stat()
        #expect(stat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(pid) == 0)
    }
}
