import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

extension AudioSessionTests {
    /// MPD's outputs are the sound server's sinks, on PipeWire and on PulseAudio: `mpc outputs` lists them with the
    /// one Reprise plays to enabled; `mpc enable` moves Reprise's stream there (as `reprise output set`, and
    /// AudioSession1 says so); the one it plays to cannot be disabled; an output plugged in or pulled out wakes
    /// `idle output` and keeps the others' ids.
    @Test(arguments: SoundServerKind.allCases) func mpdOutputsAreTheSoundServersSinks(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        try MPDTests.configure(session)
        let reprise = try launchPlaying(session)
        #expect(session.waitFor { FileManager.default.fileExists(atPath: MPDTests.socket(session)) })
        func outputs() -> [(id: String, name: String, enabled: Bool)] {
            let text = (try? MPDTests.mpc(session, "outputs").output) ?? ""
            // "Output 1 (headphones) is enabled"
            return text.split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ")
                guard words.count >= 5, words[0] == "Output", let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
                return (String(words[1]), String(line[line.index(after: open)..<close]), line.hasSuffix("is enabled"))
            }
        }
        #expect(session.waitFor { outputs().count == 1 && outputs().first?.enabled == true }, "\(outputs())")
        let speakers = try #require(outputs().first)

        let idle = try session.start("mpc", ["-h", MPDTests.socket(session), "idle", "output"], logName: "idle-plug")
        Thread.sleep(forTimeInterval: 0.3)
        let (module, headphones) = try plugOutput(session, named: "headphones")
        #expect(session.waitForExit(idle) == 0, "plugging an output in wakes idle output")
        #expect(session.waitFor { outputs().count == 2 }, "\(outputs())")
        let plugged = try #require(outputs().first { $0.id != speakers.id })
        #expect(!plugged.enabled && outputs().first { $0.id == speakers.id }?.enabled == true)

        try MPDTests.mpc(session, "enable", plugged.id)
        #expect(session.waitFor { stream(session, reprise)?.sink == headphones }, "Reprise's stream moved")
        #expect(session.waitFor { (try? session.get("Output", interface: Self.audio)) == .string("headphones") })
        #expect(session.waitFor { outputs().first { $0.id == plugged.id }?.enabled == true && outputs().first { $0.id == speakers.id }?.enabled == false })
        #expect(session.status() == "Playing")
        let refused = try MPDTests.mpc(session, "disable", plugged.id)
        #expect(refused.status != 0 && refused.errors.contains("one output at a time"), "\(refused.output)\(refused.errors)")
        #expect(stream(session, reprise)?.sink == headphones)

        // Back with toggleoutput; then the headphones go, and the speakers keep their id.
        try MPDTests.mpc(session, "toggleoutput", speakers.id)
        #expect(session.waitFor { stream(session, reprise)?.sink != headphones && stream(session, reprise) != nil })
        try session.pactl("unload-module", module)
        #expect(session.waitFor { outputs().map(\.id) == [speakers.id] }, "\(outputs())")
    }
}
