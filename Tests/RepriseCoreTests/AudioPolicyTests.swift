import Testing
@testable import RepriseCore

/// The policy as a table: a category, then events (with whether Reprise plays at that moment), and every
/// decision each event produced.
struct PolicyCase: CustomTestStringConvertible, Sendable {
    let name: String
    var category: AudioCategory = .playback
    var options: AudioOptions = []
    let steps: [(PolicyEvent, playing: Bool, expect: [PolicyDecision])]
    var testDescription: String { name }
}

@Suite struct AudioPolicyTests {
    static let cases: [PolicyCase] = [
        PolicyCase(name: "a call pauses and resumes (cork request path)", steps: [
            (.corkRequested, true, [.pause, .interruptionBegan(.resumable)]),
            (.uncorkRequested, false, [.resume, .interruptionEnded(.resumable, shouldResume: true)]),
        ]),
        PolicyCase(name: "a call pauses and resumes (trigger-role path, no cork requests: PipeWire)", steps: [
            (.callStarted(stream: 7), true, [.pause, .interruptionBegan(.resumable)]),
            (.callEnded(stream: 7), false, [.resume, .interruptionEnded(.resumable, shouldResume: true)]),
        ]),
        PolicyCase(name: "both paths for one call end it once, when both are over", steps: [
            (.callStarted(stream: 7), true, [.pause, .interruptionBegan(.resumable)]),
            (.corkRequested, false, []),
            (.callEnded(stream: 7), false, []),
            (.uncorkRequested, false, [.resume, .interruptionEnded(.resumable, shouldResume: true)]),
        ]),
        PolicyCase(name: "the user pausing during a call keeps it paused", steps: [
            (.corkRequested, true, [.pause, .interruptionBegan(.resumable)]),
            (.userPaused, false, []),
            (.uncorkRequested, false, [.interruptionEnded(.resumable, shouldResume: false)]),
        ]),
        PolicyCase(name: "the user playing during a call wins and nothing resumes later", steps: [
            (.corkRequested, true, [.pause, .interruptionBegan(.resumable)]),
            (.userPlayed, true, []),
            (.uncorkRequested, true, [.interruptionEnded(.resumable, shouldResume: false)]),
        ]),
        PolicyCase(name: "a call while paused never starts playback", steps: [
            (.corkRequested, false, [.interruptionBegan(.resumable)]),
            (.uncorkRequested, false, [.interruptionEnded(.resumable, shouldResume: false)]),
        ]),
        PolicyCase(name: "an uncork request alone does nothing", steps: [
            (.uncorkRequested, false, []),
            (.callEnded(stream: 3), false, []),
        ]),
        PolicyCase(name: "a track change during a call keeps it from resuming", steps: [
            (.callStarted(stream: 1), true, [.pause, .interruptionBegan(.resumable)]),
            (.userChangedTrack, false, []),
            (.callEnded(stream: 1), false, [.interruptionEnded(.resumable, shouldResume: false)]),
        ]),
        PolicyCase(name: "another player starting pauses a non-mixable session for good", steps: [
            (.otherPlayerStarted("org.mpris.MediaPlayer2.vlc"), true,
             [.pause, .interruptionBegan(.nonResumable), .interruptionEnded(.nonResumable, shouldResume: false)]),
            (.otherPlayerStopped("org.mpris.MediaPlayer2.vlc"), false, []),
        ]),
        PolicyCase(name: "a player found already playing is paused by a non-mixable newcomer", steps: [
            (.otherPlayerFoundPlaying("a"), true, [.pauseOthers(["a"])]),
            (.otherPlayerFoundPlaying("b"), false, []),
        ]),
        PolicyCase(name: "a mixable session plays along with other players", options: [.mixWithOthers], steps: [
            (.otherPlayerStarted("org.mpris.MediaPlayer2.vlc"), true, []),
            (.playbackStarted, true, []),
        ]),
        PolicyCase(name: "ambient always mixes", category: .ambient, steps: [
            (.otherPlayerStarted("org.mpris.MediaPlayer2.vlc"), true, []),
        ]),
        PolicyCase(name: "starting pauses the others; without notify they are not resumed", steps: [
            (.otherPlayerStarted("b"), false, []),
            (.otherPlayerStarted("a"), false, []),
            (.playbackStarted, true, [.pauseOthers(["a", "b"])]),
            (.otherPlayerStopped("a"), true, []),
            (.otherPlayerStopped("b"), true, []),
            (.playbackEnded, false, []),
        ]),
        PolicyCase(name: "with notifyOthersOnDeactivation the paused players resume when Reprise ends",
                   options: [.notifyOthersOnDeactivation], steps: [
            (.otherPlayerStarted("a"), false, []),
            (.playbackStarted, true, [.pauseOthers(["a"])]),
            (.otherPlayerStopped("a"), true, []),
            (.playbackEnded, false, [.resumeOthers(["a"])]),
            (.playbackEnded, false, []),
        ]),
        PolicyCase(name: "duckOthers lowers other streams while playing and restores them", options: [.duckOthers], steps: [
            (.otherPlayerStarted("a"), false, []),
            (.playbackStarted, true, [.lowerOtherStreams]),
            (.playbackEnded, false, [.restoreOtherStreams]),
        ]),
        PolicyCase(name: "a call also ends the lowering of others", options: [.duckOthers], steps: [
            (.playbackStarted, true, [.lowerOtherStreams]),
            (.callStarted(stream: 4), true, [.pause, .restoreOtherStreams, .interruptionBegan(.resumable)]),
            (.callEnded(stream: 4), false, [.resume, .interruptionEnded(.resumable, shouldResume: true)]),
            (.playbackStarted, true, [.lowerOtherStreams]),
        ]),
        PolicyCase(name: "soloAmbient silences other streams while it plays", category: .soloAmbient, steps: [
            (.playbackStarted, true, [.muteOtherStreams]),
            (.playbackEnded, false, [.unmuteOtherStreams]),
            (.playbackStarted, true, [.muteOtherStreams]),
            (.corkRequested, true, [.pause, .unmuteOtherStreams, .interruptionBegan(.resumable)]),
        ]),
        PolicyCase(name: "short sounds duck instead of pausing", steps: [
            (.shortSoundStarted(stream: 1), true, [.duck, .interruptionBegan(.ducking)]),
            (.shortSoundStarted(stream: 2), true, []),
            (.shortSoundEnded(stream: 1), true, []),
            (.shortSoundEnded(stream: 2), true, [.unduck, .interruptionEnded(.ducking, shouldResume: true)]),
        ]),
        PolicyCase(name: "short sounds while paused change nothing", steps: [
            (.shortSoundStarted(stream: 1), false, []),
            (.shortSoundEnded(stream: 1), false, []),
        ]),
        PolicyCase(name: "losing the output pauses and a call ending later does not resume", steps: [
            (.callStarted(stream: 1), true, [.pause, .interruptionBegan(.resumable)]),
            (.outputLost, false, [.routeChanged(.oldDeviceUnavailable)]),
            (.callEnded(stream: 1), false, [.interruptionEnded(.resumable, shouldResume: false)]),
        ]),
        PolicyCase(name: "losing the output ends a cork the server will never lift; a call goes on", steps: [
            (.corkRequested, true, [.pause, .interruptionBegan(.resumable)]),
            (.callStarted(stream: 1), false, []),
            (.outputLost, false, [.routeChanged(.oldDeviceUnavailable)]),
            (.callEnded(stream: 1), false, [.interruptionEnded(.resumable, shouldResume: false)]),
            (.corkRequested, true, [.pause, .interruptionBegan(.resumable)]),
            (.outputLost, false, [.routeChanged(.oldDeviceUnavailable), .interruptionEnded(.resumable, shouldResume: false)]),
            (.uncorkRequested, false, []),
        ]),
        PolicyCase(name: "losing the output while playing pauses; a new output only reports", steps: [
            (.outputAdded, true, [.routeChanged(.newDeviceAvailable)]),
            (.outputLost, true, [.pause, .routeChanged(.oldDeviceUnavailable)]),
        ]),
        PolicyCase(name: "silent mode mutes ambient", category: .ambient, steps: [
            (.silentModeChanged(true), true, [.mute]),
            (.silentModeChanged(true), true, []),
            (.silentModeChanged(false), true, [.unmute]),
        ]),
        PolicyCase(name: "silent mode leaves playback alone", steps: [
            (.silentModeChanged(true), true, []),
            (.silentModeChanged(false), true, []),
        ]),
        PolicyCase(name: "locking stops soloAmbient but not playback", category: .soloAmbient, steps: [
            (.sessionLockChanged(true), true, [.pause]),
            (.sessionLockChanged(false), false, []),
        ]),
        PolicyCase(name: "locking leaves playback playing", steps: [
            (.sessionLockChanged(true), true, []),
        ]),
    ]

    @Test(arguments: cases) func decisions(_ policyCase: PolicyCase) {
        var policy = AudioPolicy()
        _ = policy.configure(category: policyCase.category, options: policyCase.options, playing: false)
        for (index, step) in policyCase.steps.enumerated() {
            #expect(policy.handle(step.0, playing: step.playing) == step.expect, "step \(index + 1): \(step.0)")
        }
    }

    @Test func changingTheCategoryAppliesSilentModeAndDucking() {
        var policy = AudioPolicy()
        #expect(policy.handle(.silentModeChanged(true), playing: true) == [])
        #expect(policy.configure(category: .ambient, options: [], playing: true) == [.mute])
        #expect(policy.isMuted)
        #expect(policy.configure(category: .playback, options: [.duckOthers], playing: true) == [.unmute, .lowerOtherStreams])
        #expect(policy.configure(category: .playback, options: [], playing: true) == [.restoreOtherStreams])
    }

    @Test func namesParseAndUnknownOnesAreRefused() throws {
        #expect(AudioCategory(name: "PLAYANDRECORD") == .playAndRecord)
        #expect(AudioCategory(name: "loud") == nil)
        #expect(try AudioOptions(names: ["duckothers", "mixWithOthers"]) == [.duckOthers, .mixWithOthers])
        #expect(AudioOptions([.duckOthers, .notifyOthersOnDeactivation]).names == ["duckOthers", "notifyOthersOnDeactivation"])
        #expect(throws: PlayerError.self) { try AudioOptions(names: ["shuffle"]) }
        #expect(AudioCategory.playback.streamRole == "music" && AudioCategory.ambient.streamRole == "game")
    }
}

@Suite struct AudioSettingsTests {
    @Test func theConfigFileSetsCategoryOptionsSilenceAndTriggerRoles() throws {
        let text = """
            # Reprise audio
            category = soloAmbient
            options = duckOthers, notifyOthersOnDeactivation   # both
            silent = yes

            trigger-roles = phone, alarm
            """
        let settings = try AudioSettings(config: text)
        #expect(settings.category == .soloAmbient)
        #expect(settings.options == [.duckOthers, .notifyOthersOnDeactivation])
        #expect(settings.silent)
        #expect(settings.triggerRoles == ["phone", "alarm"])
        #expect(try AudioSettings(config: "") == AudioSettings())
    }

    @Test func mistakesNameTheLine() {
        for (text, fragment) in [("category = loud", "line 1"), ("\noptions = mixWithOthers, shuffle", "shuffle"),
                                 ("volume = 3", "unknown setting"), ("silent = maybe", "true or false"), ("category", "key = value")] {
            do {
                _ = try AudioSettings(config: text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }
}
