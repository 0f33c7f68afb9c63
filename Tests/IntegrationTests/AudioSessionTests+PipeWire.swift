import Foundation
import Testing
import TestSupport

/// What only PipeWire has: its own clients, which set PipeWire's roles rather than PulseAudio's.
extension AudioSessionTests {
    /// A native PipeWire call (`media.role=Communication`, as `pw-play --media-role` sets it) shows as `phone`
    /// through pipewire-pulse: it pauses Reprise, and its end resumes it.
    @Test func aNativePipeWireCallPausesAndResumes() throws {
        let session = try Session(soundServer: .pipeWire)
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" && (session.position() ?? 0) > 0 }
        let call = try session.start("pw-play", ["--media-role=Communication", media.untagged], logName: "pw-play")
        #expect(session.waitFor { session.status() == "Paused" }, "\(session.output(ofLog: "pw-play"))")
        #expect(session.waitFor { signal(session, "InterruptionBegan", [.string("resumable")]) })
        session.stopStream(call)
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.waitFor { signal(session, "InterruptionEnded", [.string("resumable"), .bool(true)]) })
    }
}
