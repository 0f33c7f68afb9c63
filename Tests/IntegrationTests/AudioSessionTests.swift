import Foundation
import SDBus
import Testing
import TestSupport

/// The audio-session policy end to end: a real private PulseAudio (null sinks, with and without role-cork),
/// real streams from pacat, and a second real player on the bus.
@Suite(.serialized) struct AudioSessionTests {
    static let audio = "app.reprise.AudioSession1"

    func signal(_ session: Session, _ member: String, _ arguments: [DBusValue]) -> Bool {
        session.audioSignals.contains { $0.member == member && $0.arguments == arguments }
    }

    /// Reprise's playing stream (pulsesink's probe stream has no media.role).
    func stream(_ session: Session, _ pid: pid_t) -> SinkInput? {
        (try? session.sinkInputs(of: pid))?.last { $0.properties["media.role"] != nil }
    }

    /// Starts Reprise on `files` and waits until it plays through its own stream; returns its PID.
    func launchPlaying(_ session: Session, _ files: [String] = [media.first]) throws -> pid_t {
        let reprise = try session.launch(files)
        #expect(session.waitFor { session.status() == "Playing" && stream(session, reprise) != nil }, "\(session.log(of: reprise))")
        return reprise
    }

    /// Loads a null sink (plugging in an output); returns its module number and sink index.
    func plugOutput(_ session: Session, named name: String) throws -> (module: String, index: Int) {
        let module = try session.pactl("load-module", "module-null-sink", "sink_name=\(name)").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let sinks = try session.pactl("list", "short", "sinks").output
        let index = try #require(sinks.split(separator: "\n").first { $0.split(separator: "\t").dropFirst().first == Substring(name) }
            .flatMap { Int($0.split(separator: "\t").first ?? "") })
        return (module, index)
    }

    func callPausesAndResumes(roleCork: Bool, server: SoundServerKind = .minimalPulseAudio) throws {
        let session = try Session(roleCork: roleCork, soundServer: server)
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" && (session.position() ?? 0) > 0 }
        let call = try session.startStream(role: "phone")
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(session.waitFor { signal(session, "InterruptionBegan", [.string("resumable")]) })
        #expect(try session.get("Interrupted", interface: Self.audio) == .bool(true))
        session.stopStream(call)
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.waitFor { signal(session, "InterruptionEnded", [.string("resumable"), .bool(true)]) })
        #expect(try session.get("Interrupted", interface: Self.audio) == .bool(false))
    }

    /// With role-cork (minimal and stock PulseAudio) both paths see the call; PipeWire sends no cork requests.
    @Test(arguments: SoundServerKind.allCases) func aCallPausesAndResumes(_ server: SoundServerKind) throws {
        try callPausesAndResumes(roleCork: true, server: server)
    }

    /// PipeWire's PulseAudio server sends no cork requests: Reprise's own stream watching must do it.
    @Test func aCallPausesAndResumesWithoutRoleCork() throws { try callPausesAndResumes(roleCork: false) }

    @Test(arguments: SoundServerKind.allCases) func pausingDuringACallKeepsItPausedAfterwards(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        let call = try session.startStream(role: "phone")
        #expect(session.waitFor { session.status() == "Paused" })
        try session.call("Pause")
        session.stopStream(call)
        #expect(session.waitFor { signal(session, "InterruptionEnded", [.string("resumable"), .bool(false)]) })
        #expect(!session.waitFor(1.5) { session.status() == "Playing" })
    }

    @Test(arguments: SoundServerKind.allCases) func anotherPlayerStartingPausesRepriseForGood(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        let other = try session.launch(["--new-instance", media.second], waitingFor: nil)
        #expect(session.waitFor { session.status() == "Paused" })
        kill(other, SIGTERM)
        _ = session.waitForExit(other)
        #expect(!session.waitFor(1.5) { session.status() == "Playing" })
    }

    @Test(arguments: SoundServerKind.allCases) func shortSoundsDuckInsteadOfPausing(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let reprise = try launchPlaying(session)
        var full = 0
        #expect(session.waitFor {
            full = (try? session.peakLevel()) ?? 0
            return full > Self.audible
        })
        let volumes = stream(session, reprise)?.volumes
        let beep = try session.startStream(role: "event")
        #expect(session.waitFor { signal(session, "InterruptionBegan", [.string("ducking")]) })
        #expect(session.status() == "Playing")
        // Lowered inside the pipeline (to 30 %); the server's stream volume is untouched.
        #expect(session.waitFor { (try? session.peakLevel()) ?? .max < full / 2 })
        #expect(stream(session, reprise)?.volumes == volumes)
        session.stopStream(beep)
        #expect(session.waitFor { signal(session, "InterruptionEnded", [.string("ducking"), .bool(true)]) })
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > full * 3 / 4 })
    }

    @Test(arguments: SoundServerKind.allCases) func theStreamFollowsANewDefaultOutputAndPausesWhenItGoes(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let reprise = try launchPlaying(session)
        let (module, headphones) = try plugOutput(session, named: "headphones")
        try session.pactl("set-default-sink", "headphones")
        #expect(session.waitFor { stream(session, reprise)?.sink == headphones })
        #expect(session.waitFor { signal(session, "RouteChanged", [.string("new-device-available"), .string("headphones")]) })
        #expect(stream(session, reprise)?.corked == false)
        #expect(session.status() == "Playing")
        #expect(try session.get("Output", interface: Self.audio) == .string("headphones"))
        let outputs = try session.call("ListOutputs", interface: Self.audio)
        #expect(outputs.first?.signature == "a(ssb)")

        try session.pactl("unload-module", module)
        #expect(session.waitFor { session.status() == "Paused" })
        #expect(session.waitFor { session.audioSignals.contains { $0.member == "RouteChanged" && $0.arguments.first == .string("old-device-unavailable") } })
        #expect(!session.waitFor(1.5) { session.status() == "Playing" })
    }

    @Test(arguments: SoundServerKind.allCases) func anOutputRemovedWhileNothingPlaysDoesNotStopLaterStreams(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let reprise = try launchPlaying(session, [media.first, media.second])
        let (module, headphones) = try plugOutput(session, named: "headphones")
        try session.pactl("set-default-sink", "headphones")
        #expect(session.waitFor { stream(session, reprise)?.sink == headphones })
        // Stopped (no stream), the headphones are pulled out; the next stream opens on what is left.
        try session.call("Stop")
        #expect(session.waitFor { stream(session, reprise) == nil })
        try session.pactl("unload-module", module)
        try session.call("Play")
        #expect(session.waitFor { session.status() == "Playing" && stream(session, reprise)?.corked == false })
        #expect(session.waitFor { (session.position() ?? 0) > 300_000 })
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Second Wind" && session.status() == "Playing" })
        #expect(!session.log(of: reprise).contains("the sound output failed"), "\(session.log(of: reprise))")
    }

    /// Sound well above silence: the test tone peaks near 6500 of 32767.
    static let audible = 1500

    @Test(arguments: SoundServerKind.allCases) func silentModeMutesAmbientButNotPlayback(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let ambient = try session.launch(["--category", "ambient", media.first])
        #expect(session.waitFor { session.status() == "Playing" && stream(session, ambient) != nil })
        #expect(try session.get("Category", interface: Self.audio) == .string("ambient"))
        // pulsesink may open a short-lived probe stream first: the playing stream is the one to look at.
        #expect(session.waitFor { stream(session, ambient)?.properties["media.role"] == "game" },
                "\(String(describing: stream(session, ambient)?.properties))")
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > Self.audible })
        try session.call("SetSilent", [.bool(true)], interface: Self.audio)
        #expect(try session.get("Silent", interface: Self.audio) == .bool(true))
        // Silenced inside Reprise's pipeline: nothing reaches the speakers, and the server's stream is not muted
        // (its stream-restore would remember the mute for every app's `game` streams).
        #expect(session.waitFor { (try? session.peakLevel()) ?? .max < 50 })
        #expect(stream(session, ambient)?.muted == false)
        #expect(session.status() == "Playing")
        let game = try session.startStream(role: "game")
        #expect(try session.sinkInputs(of: game).first?.muted == false)
        session.stopStream(game)
        try session.call("SetCategory", [.string("playback"), .strings([])], interface: Self.audio)
        #expect(session.waitFor { (try? session.peakLevel()) ?? 0 > Self.audible })
        #expect(session.status() == "Playing")
        let unknown = session.dbusError { try session.call("SetCategory", [.string("loud"), .strings([])], interface: Self.audio) }
        #expect(unknown?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let badOption = session.dbusError {
            try session.call("SetCategory", [.string("playback"), .strings(["shuffle"])], interface: Self.audio)
        }
        #expect(badOption?.message.contains("shuffle") == true)
    }

    @Test(arguments: SoundServerKind.allCases) func duckOthersLowersAnotherStreamAndRestoresItExactly(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let other = try session.startStream(role: "music", volume: 50_000)
        func otherVolumes() -> [Int] { (try? session.sinkInputs(of: other))?.first?.volumes ?? [] }
        #expect(otherVolumes() == [50_000, 50_000])
        let reprise = try session.launch(["--options", "duckOthers", media.first])
        #expect(session.waitFor { otherVolumes() == [25_000, 25_000] }, "\(session.log(of: reprise))")
        try session.call("Pause")
        #expect(session.waitFor { otherVolumes() == [50_000, 50_000] })
    }

    @Test(arguments: SoundServerKind.allCases) func aCrashWhileDuckingIsUndoneAtTheNextStart(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let other = try session.startStream(role: "music", volume: 40_000)
        func otherVolumes() -> [Int] { (try? session.sinkInputs(of: other))?.first?.volumes ?? [] }
        let first = try session.launch(["--options", "duckOthers", media.first]) { otherVolumes() == [20_000, 20_000] }
        kill(first, SIGKILL)
        _ = session.waitForExit(first)
        #expect(otherVolumes() == [20_000, 20_000])
        try session.launch([]) { otherVolumes() == [40_000, 40_000] }
    }

    @Test(arguments: SoundServerKind.allCases) func lockingTheScreenStopsAmbientButNotPlayback(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        try session.bus.emitSignal(path: "/org/gnome/ScreenSaver", interface: "org.gnome.ScreenSaver", member: "ActiveChanged", [.bool(true)])
        #expect(!session.waitFor(1) { session.status() != "Playing" })
        try session.call("SetCategory", [.string("ambient"), .strings([])], interface: Self.audio)
        try session.bus.emitSignal(path: "/org/gnome/ScreenSaver", interface: "org.gnome.ScreenSaver", member: "ActiveChanged", [.bool(true)])
        #expect(session.waitFor { session.status() == "Paused" })
    }

    @Test(arguments: SoundServerKind.allCases) func theSoundServerRestartingIsFollowed(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        func outputNames() -> [String] {
            guard case .array(_, let items)? = try? session.call("ListOutputs", interface: Self.audio).first else { return [] }
            return items.compactMap { if case .structure(let fields) = $0 { fields.first?.stringValue } else { nil } }
        }
        #expect(session.waitFor { outputNames() == ["speakers"] })
        try session.restartPulse()
        try session.pactl("load-module", "module-null-sink", "sink_name=headphones")
        #expect(session.waitFor { outputNames() == ["headphones", "speakers"] })
    }

    @Test(arguments: SoundServerKind.allCases) func theConfigFileAndTheCommandLineSetTheCategory(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let config = try session.makeHomeFolder(".config/reprise")
        try "category = ambient\noptions = mixWithOthers\n".write(toFile: config + "/config", atomically: true, encoding: .utf8)
        let first = try session.launch([])
        #expect(try session.get("Category", interface: Self.audio) == .string("ambient"))
        #expect(try session.get("Options", interface: Self.audio) == .strings(["mixWithOthers"]))
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        _ = session.waitForExit(first)
        try session.launch(["--category=playAndRecord", "--options", ""])
        #expect(try session.get("Category", interface: Self.audio) == .string("playAndRecord"))
        #expect(try session.get("Options", interface: Self.audio) == .strings([]))
        let refused = try session.launch(["--category", "loud"], waitingFor: nil)
        #expect(session.waitForExit(refused) == 2)
        #expect(session.log(of: refused).contains("unknown category 'loud'"))
    }

    @Test(arguments: SoundServerKind.allCases) func soloAmbientSilencesOtherStreamsWhileItPlays(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let other = try session.startStream(role: "music")
        func otherMuted() -> Bool? { (try? session.sinkInputs(of: other))?.first?.muted }
        try session.launch(["--category", "soloAmbient", media.first]) { otherMuted() == true }
        try session.call("Pause")
        #expect(session.waitFor { otherMuted() == false })
    }

    @Test(arguments: SoundServerKind.allCases) func notifyOthersOnDeactivationResumesThePlayerItPaused(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        // The first player mixes, so it does not pause itself when the second starts (as most players, which
        // have no audio policy): the second pauses it, then resumes it when its own audio ends.
        try session.launch(["--options", "mixWithOthers", media.first]) { session.status() == "Playing" }
        let second = try session.launch(["--new-instance", "--options", "notifyOthersOnDeactivation", media.second], waitingFor: nil)
        let secondName = "org.mpris.MediaPlayer2.reprise.instance\(second)"
        #expect(session.waitFor { session.nameHasOwner(secondName) })
        #expect(session.waitFor { session.status() == "Paused" })
        try session.call("Pause", on: secondName)
        #expect(session.waitFor { session.status() == "Playing" })
    }

    @Test(arguments: SoundServerKind.allCases) func anOutputCanBeChosenAndUnknownOnesAreRefused(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let reprise = try launchPlaying(session)
        let (_, headphones) = try plugOutput(session, named: "headphones")
        #expect(session.waitFor {
            guard case .array(_, let items)? = try? session.call("ListOutputs", interface: Self.audio).first else { return false }
            return items.count == 2
        })
        try session.call("SetOutput", [.string("headphones")], interface: Self.audio)
        #expect(session.waitFor { stream(session, reprise)?.sink == headphones })
        #expect(session.waitFor { (try? session.get("Output", interface: Self.audio)) == .string("headphones") })
        #expect(session.waitFor { signal(session, "RouteChanged", [.string("user-choice"), .string("headphones")]) })
        let unknown = session.dbusError { try session.call("SetOutput", [.string("nowhere")], interface: Self.audio) }
        #expect(unknown?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(session.status() == "Playing")
    }

    /// An output chosen while playback is starting (the stream opening, not yet linked or not yet reported) is where
    /// the stream plays once linked, and what `ListOutputs` marks as current.
    @Test(arguments: SoundServerKind.allCases) func anOutputChosenAsPlaybackStartsIsWhereItPlays(_ server: SoundServerKind) throws {
        let session = try Session(soundServer: server)
        defer { session.close() }
        let (_, headphones) = try plugOutput(session, named: "headphones")
        let reprise = try session.launch([media.first])
        #expect(session.waitFor { (try? session.call("SetOutput", [.string("headphones")], interface: Self.audio)) != nil })
        #expect(session.waitFor { session.status() == "Playing" && stream(session, reprise)?.sink == headphones },
                "\(session.log(of: reprise))")
        #expect(session.waitFor {
            guard case .array(_, let items)? = try? session.call("ListOutputs", interface: Self.audio).first else { return false }
            return items.contains { item in
                guard case .structure(let fields) = item else { return false }
                return fields.first == .string("headphones") && fields.last == .bool(true)
            }
        }, "\(session.log(of: reprise))")
        #expect(try session.get("Output", interface: Self.audio) == .string("headphones"))
    }
}
