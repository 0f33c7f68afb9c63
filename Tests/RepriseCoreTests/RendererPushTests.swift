import CoreTestDoubles
import RepriseCore
import Testing

/// What a UPnP control point may push (``RendererPushRules``) and how a push is a guest in the user's queue.
@Suite struct RendererPushTests {
    /// Names looked up as a resolver would: `lan.example` is on the network, `sneaky.example` is this machine.
    static let rules = RendererPushRules(musicFolders: ["/home/u/Music"]) { host in
        switch host {
        case "192.0.2.7", "lan.example": [[192, 0, 2, 7]]
        case "127.0.0.1", "2130706433", "sneaky.example": [[127, 0, 0, 1]]
        case "169.254.1.1": [[169, 254, 1, 1]]
        case "::1": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
        case "fe80::1": [[0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
        case "::ffff:127.0.0.1": [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]]
        case "2001:db8::1": [[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]]
        default: nil
        }
    }

    @Test(arguments: ["http://lan.example:8200/MediaItems/22.flac", "https://192.0.2.7/a.mp3", "http://[2001:db8::1]:80/a.ogg",
                      "file:///home/u/Music/Album/01.flac", "file://localhost/home/u/Music/a%20b.ogg"])
    func networkMediaAndTheMusicFolderArePushed(_ uri: String) {
        #expect(Self.rules.refusal(for: uri) == nil)
    }

    @Test(arguments: ["file:///etc/passwd", "file:///home/u/Music/../.ssh/id_ed25519", "file:///home/u/Musicals/a.ogg",
                      "file://otherhost/home/u/Music/a.ogg",
                      "http://127.0.0.1:6600/", "http://2130706433/", "http://sneaky.example/a.ogg", "http://localhost/a.ogg",
                      "http://media.localhost./a.ogg", "http://[::1]:8080/a.ogg", "http://[fe80::1]/a", "http://[::ffff:127.0.0.1]/a",
                      "http://169.254.1.1/a", "http://user@127.0.0.1/a", "http://127.0.0.%31/a", "http://unknown.example/a",
                      "v4l2:///dev/video0", "alsa://hw:0", "dvd://", "fd://0", "http://lan.example\\@127.0.0.1/"])
    func thisMachineOtherFilesAndOtherSchemesAreRefused(_ uri: String) {
        #expect(Self.rules.refusal(for: uri) != nil, "\(uri)")
    }

    @Test func theConfigKeyIsAllowOrRefuse() throws {
        #expect(try AudioSettings(config: "").rendererAllowsLocalAddresses == false)
        #expect(try AudioSettings(config: "renderer-local-addresses = allow\n").rendererAllowsLocalAddresses)
        #expect(try AudioSettings(config: "renderer-local-addresses = refuse\n").rendererAllowsLocalAddresses == false)
        #expect(throws: PlayerError.self) { try AudioSettings(config: "renderer-local-addresses = yes please\n") }
    }

    @Test func theConfigMayAllowThisMachinesAddresses() {
        var rules = Self.rules
        rules.allowsLocalAddresses = true
        #expect(rules.refusal(for: "http://127.0.0.1:8200/a.flac") == nil)
        #expect(rules.refusal(for: "file:///etc/passwd") != nil)
    }

    /// A player whose control-point rules take example.invalid as a host on the network.
    func pushingPlayer(tracks: Int = 2) -> (Player, ScriptedEngine, RecordingObserver) {
        let made = makePlayer(tracks: tracks)
        made.0.rendererPushRules = RendererPushRules(musicFolders: []) { _ in [[192, 0, 2, 9]] }
        return made
    }

    @Test func aRefusedPushLeavesEverythingAsItWas() {
        let (player, engine, _) = makePlayer(tracks: 2)
        player.play()
        var outcome: PlayerError??
        player.open("file:///etc/passwd", pushedByRenderer: true) { outcome = $0 }
        #expect(outcome != nil && outcome! != nil)
        #expect(engine.loads == [uri(1)] && player.queue.playOrder.map(\.uri) == [uri(1), uri(2)])
    }

    /// Pushed while the user's song was paused at 312 s: the push starts at its start (no resume), the next push takes
    /// its place, and at its end the queue is the user's again, the user's song current at 312 s.
    @Test func aPushIsAGuest() {
        let (player, engine, observer) = pushingPlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 20 * 60_000_000, seekable: true)
        engine.position = 312_000_000
        player.pause()
        let pushed = "http://example.invalid/pushed.flac", replacing = "http://example.invalid/second.flac"
        // The pushed file was left at 312 s once before: a long file would resume there, a push does not.
        player.open(pushed) { _ in }
        player.engineDidPreroll(lengthMicroseconds: 20 * 60_000_000, seekable: true)
        engine.position = 400_000_000
        player.next()
        engine.position = 0
        player.previous()
        #expect(engine.requests.contains(.seek(400_000_000)), "the user's own open of a long file resumes")
        player.replaceQueue(validating: [uri(1), uri(2)]) { _ in }
        player.engineDidPreroll(lengthMicroseconds: 20 * 60_000_000, seekable: true)
        engine.position = 312_000_000
        player.pause()
        engine.requests.removeAll()

        player.open(pushed, pushedByRenderer: true) { _ in }
        #expect(engine.requests.last == .load(pushed, playing: false), "\(engine.requests)")
        #expect(!engine.requests.contains(where: { if case .seek = $0 { true } else { false } }), "no resume for a push: \(engine.requests)")
        player.engineDidPreroll(lengthMicroseconds: 6_000_000, seekable: true)
        engine.position = 2_000_000
        player.open(replacing, pushedByRenderer: true) { _ in }
        #expect(player.queue.playOrder.map(\.uri) == [uri(1), replacing, uri(2)])
        player.engineDidPreroll(lengthMicroseconds: 6_000_000, seekable: true)
        player.play()
        engine.requests.removeAll()
        observer.reset()

        player.open(pushed, pushedByRenderer: true) { _ in }
        player.engineDidPreroll(lengthMicroseconds: 20 * 60_000_000, seekable: true)
        engine.position = 5_000_000
        player.play()
        player.engineDidReachEnd()
        #expect(player.status == .stopped)
        #expect(player.queue.playOrder.map(\.uri) == [uri(1), uri(2)])
        #expect(player.queue.current?.uri == uri(1))
        #expect(player.savedState.uris == [uri(1), uri(2)] && player.savedState.currentIndex == 0)
        // The user's own place in the pushed file is kept as it was; nothing of the pushes is remembered.
        #expect(player.savedState.resumePositions.filter { $0.uri == pushed }.map(\.microseconds) == [400_000_000])
        #expect(!player.savedState.resumePositions.contains { $0.uri == replacing })
        player.play()
        #expect(Array(engine.requests.suffix(2)) == [.load(uri(1), playing: true), .seek(312_000_000)], "\(engine.requests)")
    }

    /// While a push plays the saved state is the user's; when the user moves on, the pushed entry leaves the queue.
    @Test func theUserMovingOnDismissesTheGuest() {
        let (player, engine, _) = pushingPlayer(tracks: 3)
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        engine.position = 30_000_000
        let pushed = "http://example.invalid/pushed.flac"
        player.open(pushed, pushedByRenderer: true) { _ in }
        player.engineDidPreroll(lengthMicroseconds: 6_000_000, seekable: true)
        #expect(player.savedState.uris == [uri(1), uri(2), uri(3)])
        #expect(player.savedState.currentIndex == 0 && player.savedState.positionMicroseconds == 30_000_000)
        player.next()
        #expect(player.queue.current?.uri == uri(2))
        #expect(player.queue.playOrder.map(\.uri) == [uri(1), uri(2), uri(3)])
    }

    /// A push that cannot be played gives the user's song back, playing where it was.
    @Test func anUnplayablePushGivesTheUsersSongBack() {
        let (player, engine, _) = pushingPlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        engine.position = 30_000_000
        var outcome: PlayerError??
        player.open("http://example.invalid/broken", pushedByRenderer: true) { outcome = $0 }
        player.engineDidFail("not media")
        #expect(outcome == .some(.unplayable("not media")))
        #expect(player.status == .playing && player.queue.playOrder.map(\.uri) == [uri(1), uri(2)])
        #expect(Array(engine.requests.suffix(2)) == [.load(uri(1), playing: true), .seek(30_000_000)])
    }
}
