import BusInterfaces
import CoreTestDoubles
import MPRIS
import RepriseCore
import RepriseInterfaces
import SDBus
import Testing

/// Reprise's own interfaces (app.reprise.*), in-process.
@Suite struct RepriseInterfacesAdaptorTests {
    let path = InProcessAdaptor.reprise

    @Test func controlsListActionsRunThemAndOpenMedia() throws {
        let adaptor = try InProcessAdaptor()
        let controls = Controls1Export.interface
        guard case .array(_, let actions) = try adaptor.bus.get(path, controls, "Actions") else { Issue.record("no actions"); return }
        #expect(actions.contains { if case .structure(let f) = $0 { f.first == .string("skip-forward") } else { false } })
        try adaptor.bus.call(path, controls, "Invoke", [.string("repeat")])
        #expect(adaptor.player.loopStatus != .none)
        #expect(throws: DBusError.self) { try adaptor.bus.call(path, controls, "Invoke", [.string("self-destruct")]) }
        let song = try adaptor.file("a.ogg")
        let opened = try #require(adaptor.answer(path, controls, "OpenMedia", [.strings([MediaURI.file(path: song)]), .bool(false)]))
        #expect(try opened.get() == [])
        #expect(adaptor.player.queue.entries.map(\.uri) == [MediaURI.file(path: song)])
        try adaptor.bus.call(path, controls, "Clear")
        #expect(adaptor.player.queue.isEmpty)
        #expect(try adaptor.bus.get(path, controls, "History") == .objectPaths([]))
    }

    @Test func soundSettingsAreCheckedAndAnnounced() throws {
        let adaptor = try InProcessAdaptor()
        let sound = Sound1Export.interface, proxy = Sound1Proxy(adaptor.client)
        try proxy.set(replayGain: "album")
        #expect(adaptor.player.sound.replayGain.mode == .album)
        #expect(adaptor.bus.propertiesChanged(sound).last?["ReplayGain"] == .string("album"))
        try proxy.set(replayGainPreamp: -3)
        #expect(try proxy.replayGainPreamp == -3)
        #expect(throws: DBusError.self) { try adaptor.bus.set(path, sound, "ReplayGain", .string("loudest")) }
        #expect(throws: DBusError.self) { try adaptor.bus.set(path, sound, "ReplayGainPreamp", .double(.infinity)) }
        try adaptor.bus.set(path, sound, "Crossfade", .double(3))
        #expect(adaptor.player.sound.crossfade.seconds == 3)
        #expect(throws: DBusError.readOnly("AppliedGain")) { try adaptor.bus.set(path, sound, "AppliedGain", .double(1)) }
    }

    @Test func chaptersAndTheSleepTimer() throws {
        let adaptor = try InProcessAdaptor()
        #expect(try adaptor.bus.get(path, Chapters1Export.interface, "Chapters") == .array(elementSignature: "(sx)", []))
        #expect(try adaptor.bus.get(path, Chapters1Export.interface, "Current") == .int32(-1))
        #expect(throws: DBusError.self) { try adaptor.bus.call(path, Chapters1Export.interface, "GoTo", [.uint32(2)]) }
        let sleep = Sleep1Export.interface, timer = Sleep1Proxy(adaptor.client)
        try MediaPlayer2PlayerProxy(adaptor.client).play()
        adaptor.forget()
        try timer.start(when: "30m")
        #expect(try timer.timer != "off")
        #expect(try timer.remaining == 30 * 60 * 1_000_000)
        // Announced once for the new timer, with both properties; not again while it counts down.
        #expect(adaptor.announced(sleep) == [["Timer", "Remaining"]])
        adaptor.player.seek(by: 1_000_000)
        #expect(adaptor.announced(sleep).count == 1)
        #expect(throws: DBusError.self) { try timer.start(when: "soon") }
        try timer.cancel()
        #expect(try timer.timer == "off")
        #expect(adaptor.announced(sleep).count == 2)
    }

    @Test func theAudioSessionInterfaceOverItsControl() throws {
        let control = FakeAudioSession()
        var made: AudioSessionInterface?
        let adaptor = try InProcessAdaptor { setup in
            let interface = AudioSessionInterface(control: control, bus: setup.bus, log: Log(verbose: false)) {
                setup.player.feed.publish(.audioSession)
            }
            made = interface
            return .init(audioSession: interface)
        }
        let interface = try #require(made)
        let session = AudioSession1Export.interface
        try adaptor.bus.call(path, session, "SetCategory", [.string("ambient"), .strings(["mixWithOthers"])])
        #expect(control.category == .ambient && control.options.names == ["mixWithOthers"])
        #expect(adaptor.bus.propertiesChanged(session).last?["Category"] == .string("ambient"))
        #expect(throws: DBusError.self) { try adaptor.bus.call(path, session, "SetCategory", [.string("karaoke"), .strings([])]) }
        try adaptor.bus.call(path, session, "SetSilent", [.bool(true)])
        #expect(adaptor.bus.propertiesChanged(session).last == ["Silent": .bool(true)])
        #expect(throws: DBusError.self) { try adaptor.bus.call(path, session, "SetOutput", [.string("nowhere")]) }
        let outputs = try adaptor.bus.call(path, session, "ListOutputs")
        #expect(outputs == [.array(elementSignature: "(ssb)", [.structure([.string("speakers"), .string("Speakers"), .bool(true)])])])
        interface.interruptionBegan(.nonResumable)
        #expect(adaptor.signals(session, "InterruptionBegan") == [[.string("non-resumable")]])
        #expect(throws: DBusError.readOnly("Silent")) { try adaptor.bus.set(path, session, "Silent", .bool(false)) }
    }

    @Test func theVideoInterfaceOverItsControl() throws {
        let control = FakeVideo()
        let adaptor = try InProcessAdaptor { _ in .init(video: control) }
        let video = Video1Export.interface
        #expect(try adaptor.bus.get(InProcessAdaptor.root, MPRIS.rootInterface, "CanSetFullscreen") == .bool(true))
        try adaptor.bus.call(path, video, "SetFullscreen", [.bool(true)])
        #expect(control.isFullscreen)
        #expect(adaptor.bus.propertiesChanged(video).last?["Fullscreen"] == .bool(true))
        #expect(adaptor.bus.propertiesChanged(MPRIS.rootInterface).last?["Fullscreen"] == .bool(true))
        try adaptor.bus.call(path, video, "SetAspectMode", [.string("fill")])
        #expect(control.aspectMode == .fill)
        #expect(throws: DBusError.self) { try adaptor.bus.call(path, video, "SetAspectMode", [.string("stretch")]) }
        #expect(throws: DBusError.self) { try adaptor.bus.call(path, video, "SelectAudioTrack", [.int32(7)]) }
        try adaptor.bus.set(InProcessAdaptor.root, MPRIS.rootInterface, "Fullscreen", .bool(false))
        #expect(!control.isFullscreen)
        let values = try adaptor.bus.getAll(path, video)
        #expect(values["HasVideo"] == .bool(true) && values["Speeds"] == .array(elementSignature: "d", [.double(1)]))
    }
}

final class FakeAudioSession: AudioSessionControl {
    var category = AudioCategory.playback
    var options = AudioOptions(rawValue: 0)
    var silent = false
    var isInterrupted = false
    var outputName = "speakers"
    var outputProblem = ""
    var outputs: [(name: String, description: String, current: Bool)] { [("speakers", "Speakers", true)] }
    func setCategory(_ category: AudioCategory, options: AudioOptions) {
        self.category = category
        self.options = options
    }
    func setSilent(_ on: Bool) { silent = on }
    func setOutput(_ name: String) throws(PlayerError) {
        guard name == "speakers" || name.isEmpty else { throw .invalidArgument("no output \(name)") }
    }
}

final class FakeVideo: VideoControl {
    var hasDisplay = true
    var hasVideo = true
    var isFullscreen = false
    func setFullscreen(_ on: Bool) { isFullscreen = on }
    func raise() {}
    var aspectMode = AspectMode.fit
    func setAspectMode(_ mode: AspectMode) { aspectMode = mode }
    var aspectRatio = 16.0 / 9
    var audioTracks: [StreamChoice] = []
    var currentAudioTrack = -1
    func selectAudioTrack(_ index: Int) throws(PlayerError) { throw .invalidArgument("no audio track \(index)") }
    var subtitleTracks: [StreamChoice] = []
    var currentSubtitleTrack = -1
    func selectSubtitleTrack(_ index: Int) throws(PlayerError) { throw .invalidArgument("no subtitle track \(index)") }
    var speeds: [Double] = [1]
    var isLoading = false
    var isPictureInPicture = false
    func setPictureInPicture(_ on: Bool) { isPictureInPicture = on && hasVideo }
}
