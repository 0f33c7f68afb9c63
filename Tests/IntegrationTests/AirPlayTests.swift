import Foundation
import SDBus
import Testing
import TestSupport

/// An AirPlay speaker (shairport-sync, reached through PipeWire's RAOP sink on loopback in a private network
/// namespace) is one of Reprise's outputs: moving playback there from `reprise output` and from an MPD client plays
/// it in the speaker's room and not locally, and moving back brings it home.
@Suite(.serialized) struct AirPlayTests {
    /// A session on PipeWire with a private AirPlay speaker (shairport-sync) in a loopback-only namespace.
    static func sessionWithSpeaker() throws -> (Session, NetworkNamespace) {
        let (session, namespace) = try Session.inNetworkNamespace(soundServer: .pipeWire)
        do {
            _ = try PrivateAirPlaySpeaker(session: session, namespace: namespace)
            return (session, namespace)
        } catch {
            namespace.stop()
            session.close()
            throw error
        }
    }

    @Test func playbackMovesToAnAirPlaySpeakerAndBack() throws {
        let (session, namespace) = try Self.sessionWithSpeaker()
        defer { namespace.stop(); session.close() }
        let tone = session.directory + "/tone.flac"
        try generateTone(at: tone, seconds: 60, frequency: 440, tags: "title=\\\"Air Tone\\\"", encoder: ["flacenc"])
        try MPDTests.configure(session)
        let pid = try session.launch([tone])
        #expect(session.waitFor { session.status() == "Playing" }, "\(session.log(of: pid))")
        #expect(session.waitFor {
            (try? runCommand(repriseBinary, ["output", "list"], environment: session.environment))?.output.contains(PrivateAirPlaySpeaker.sinkName) == true
        })
        let moved = try runCommand(repriseBinary, ["output", "set", PrivateAirPlaySpeaker.sinkName], environment: session.environment)
        #expect(moved.status == 0, "\(moved.output) \(moved.errors)")
        // The first half second of a cast is dropped (PipeWire sends RECORD twice): wait for the room to hear it.
        #expect(session.waitFor { (try? session.peakLevel(of: PrivateAirPlaySpeaker.roomSink)) ?? 0 > 1000 },
                "the AirPlay room hears the tone: \(session.output(ofLog: "shairport-sync"))")
        #expect(session.waitFor { (try? session.peakLevel()) ?? .max < 100 }, "the local speakers are silent")

        let back = try runCommand(repriseBinary, ["output", "set", "speakers"], environment: session.environment)
        #expect(back.status == 0, "\(back.output) \(back.errors)")
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > 1000 }, "back on the speakers")
        #expect(session.waitFor { (try? session.peakLevel(of: PrivateAirPlaySpeaker.roomSink)) ?? .max < 100 }, "the room is silent")

        // From an MPD client: enabling the AirPlay output moves playback there (one output at a time).
        let outputs = try MPDTests.mpc(session, "outputs").output
        let line = try #require(outputs.split(separator: "\n").first { $0.contains("AirPlay Room") || $0.contains(PrivateAirPlaySpeaker.sinkName) },
                                "\(outputs)")
        let number = try #require(line.split(separator: " ").dropFirst().first.flatMap { Int($0) }, "\(line)")
        let enabled = try MPDTests.mpc(session, "enable", String(number))
        #expect(enabled.status == 0, "\(enabled.output) \(enabled.errors)")
        #expect(session.waitFor { (try? session.peakLevel(of: PrivateAirPlaySpeaker.roomSink)) ?? 0 > 1000 }, "the room hears it again")
        #expect(session.waitFor { (try? session.peakLevel()) ?? .max < 100 }, "and the speakers do not")
    }

    /// Position on the AirPlay output is what its room hears, with nothing configured: PipeWire counts the RAOP
    /// sink's latency (the receiver's, as it announces it) in the stream's timing, so a tone 3 s into the file is
    /// heard when Position says 3 s (within 0.15 s). (A speaker that plays later than it announces needs
    /// `output-delay-NAME`.)
    @Test func positionOnAnAirPlaySpeakerIsWhatItsRoomHears() throws {
        let (session, namespace) = try Self.sessionWithSpeaker()
        defer { namespace.stop(); session.close() }
        let file = session.directory + "/late-tone.wav"
        try silenceThenTone(silentSeconds: 3, toneSeconds: 30).write(to: URL(fileURLWithPath: file))
        let pid = try session.launch([file])
        #expect(session.waitFor { session.status() == "Playing" }, "\(session.log(of: pid))")
        let moved = try runCommand(repriseBinary, ["output", "set", PrivateAirPlaySpeaker.sinkName], environment: session.environment)
        #expect(moved.status == 0, "\(moved.output) \(moved.errors)")
        #expect(session.waitFor {
            (try? runCommand(repriseBinary, ["output", "list"], environment: session.environment))?.output
                .contains("* \(PrivateAirPlaySpeaker.sinkName)") == true
        }, "\((try? session.sinkInputs(of: pid)).map { "\($0)" } ?? "") \(session.log(of: pid))")
        let heard = try session.positionWhenHeard(at: PrivateAirPlaySpeaker.roomSink)
        #expect(abs(heard - 3) < 0.15, "the tone 3 s in was heard at Position \(heard) s")
    }

    /// Moving from the speakers to AirPlay changes what Position means by the receiver's latency (PipeWire counts it
    /// in the stream's timing): the move is announced with Seeked at the position as now heard, so widgets that
    /// extrapolate stay right; and so is the move back.
    @Test func movingToAnAirPlaySpeakerAnnouncesThePositionAsHeard() throws {
        let (session, namespace) = try Self.sessionWithSpeaker()
        defer { namespace.stop(); session.close() }
        let tone = session.directory + "/tone.flac"
        try generateTone(at: tone, seconds: 60, frequency: 440, tags: nil, encoder: ["flacenc"])
        let pid = try session.launch([tone])
        #expect(session.waitFor { session.status() == "Playing" && (session.position() ?? 0) > 2_000_000 }, "\(session.log(of: pid))")
        for output in [PrivateAirPlaySpeaker.sinkName, "speakers"] {
            session.clearSignals()
            var samples: [(Double, Int64)] = []
            let moved = try runCommand(repriseBinary, ["output", "set", output], environment: session.environment)
            #expect(moved.status == 0, "\(moved.output) \(moved.errors)")
            let start = monotonicSeconds()
            while monotonicSeconds() - start < 4 {
                samples.append((monotonicSeconds() - start, session.position() ?? -1))
                usleep(100_000)
            }
            let trace = samples.map { String(format: "%.2f:%.3f", $0.0, Double($0.1) / 1e6) }.joined(separator: " ")
            #expect(session.waitFor(2) { !session.seeked.isEmpty }, "no Seeked on the move to \(output): \(trace) \(session.log(of: pid))")
            // After the last Seeked, Position runs on at the pace of the clock: what a widget extrapolates is right.
            let settled = samples.suffix(10)
            if let first = settled.first, let last = settled.last {
                let drift = Double(last.1 - first.1) / 1e6 - (last.0 - first.0)
                #expect(abs(drift) < 0.1, "Position drifts \(drift) s after the move to \(output): \(trace)")
            }
            if let announced = session.seeked.last {
                let now = session.position() ?? 0
                #expect(now >= announced && now - announced < 6_000_000, "Seeked \(announced), Position \(now): \(trace)")
            }
        }
    }
}
