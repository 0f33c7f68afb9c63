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
    /// An untagged Vorbis tone of `seconds` at 440 Hz in the session's folder.
    static func tone(in session: Session, seconds: Int) throws -> String {
        let tone = session.directory + "/tone.ogg"
        try generateTone(at: tone, seconds: seconds, frequency: 440, tags: nil, encoder: ["vorbisenc", "!", "oggmux"])
        return tone
    }

    @Test(arguments: [SoundServerKind.stockPulseAudio, .pipeWire])
    func aPipeTheSoundServerCannotMakeIsNeverAskedFor(_ soundServer: SoundServerKind) throws {
        let session = try Session(soundServer: soundServer)
        defer { session.close() }
        let tone = try Self.tone(in: session, seconds: 30)
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

    /// A FIFO nobody reads: on the Snapcast output nothing is heard, so Reprise pauses instead of claiming to play,
    /// says why in the log, and reports it (AudioSession1's OutputProblem, MPD's status error and the output's
    /// attribute); once a real snapserver reads the pipe (at the sound's own pace, so PulseAudio keeps the FIFO full
    /// all the while), Play plays there for good and the problem is gone.
    @Test(arguments: [SoundServerKind.stockPulseAudio, .pipeWire])
    func aPipeNobodyReadsIsReportedAndNotPlayedInto(_ soundServer: SoundServerKind) throws {
        let (session, namespace) = try Session.inNetworkNamespace(soundServer: soundServer)
        defer { namespace.stop(); session.close() }
        let tone = try Self.tone(in: session, seconds: 60)
        let fifo = try session.makeFolder("snapserver") + "/reprise.fifo" // where the snapserver below reads
        let config = try session.makeHomeFolder(".config/reprise")
        try "snapcast-pipe = \(fifo)\nmpd-port = 0\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let pid = try session.launch([tone])
        #expect(session.waitFor { session.status() == "Playing" }, "\(session.log(of: pid))")
        #expect(session.waitFor {
            (try? runCommand(repriseBinary, ["output", "list"], environment: session.environment))?.output.contains("Snapcast") == true
        }, "\(session.log(of: pid))")
        let audio = "app.reprise.AudioSession1"
        #expect((try? session.get("OutputProblem", interface: audio))?.stringValue == "")
        let moved = try runCommand(repriseBinary, ["output", "set", "reprise_snapcast"], environment: session.environment)
        #expect(moved.status == 0, "\(moved.output) \(moved.errors)")
        #expect(session.waitFor(30) { session.status() == "Paused" }, "\(session.log(of: pid))")
        let problem = (try? session.get("OutputProblem", interface: audio))?.stringValue ?? ""
        #expect(problem.contains("nothing reads") && problem.contains(fifo), "\(problem)")
        #expect(session.log(of: pid).contains("nothing reads"), "\(session.log(of: pid))")
        let status = try MPDTests.mpc(session, "status").output
        #expect(status.contains("nothing reads"), "\(status)")
        let outputs = try MPDRangeTests.python(session, "print([o.get('attribute') for o in c.outputs() if o['outputenabled'] == '1'])")
        #expect(outputs.contains("error=Snapcast: nothing reads"), "\(outputs)")

        // snapserver comes: Play plays into the pipe, the problem is gone, and playback goes on (a FIFO kept full by a
        // reader that takes the sound at its pace is not one nobody reads).
        let server = try PrivateSnapserver(session: session, namespace: namespace)
        #expect(server.fifo == fifo)
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" })
        let from = session.position() ?? 0
        #expect(session.waitFor { (session.position() ?? 0) > from + 1_500_000 }, "\(session.log(of: pid)) \(session.output(ofLog: "snapserver"))")
        #expect(session.waitFor { (try? session.get("OutputProblem", interface: audio))?.stringValue == "" })
        usleep(useconds_t(stallWatchSeconds * 2 * 1_000_000))
        #expect(session.status() == "Playing", "\(session.log(of: pid))")
        #expect(session.log(of: pid).components(separatedBy: "nothing reads").count == 2, "paused once only: \(session.log(of: pid))")
    }
}

/// The stall watch's window (`OutputStallWatch.stillSeconds`): waited out twice to see playback is not paused again.
private let stallWatchSeconds = 4
