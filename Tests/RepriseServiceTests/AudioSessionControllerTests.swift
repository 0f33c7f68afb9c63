import CoreTestDoubles
import PulseKit
import RepriseCore
import Testing
@testable import RepriseService

/// The audio-session controller with fakes for the sound server, the pipeline, the other players and the record:
/// what it asks of each, in which order, and when it says it is done.
@Suite struct AudioSessionControllerTests {
    static let ownPID: Int32 = 4000
    static let speakers: UInt32 = 1

    /// A controller over a player with three queued entries, wired as the service wires it, and connected.
    final class Rig {
        let player: Player
        let server = FakeSoundServer()
        let pipeline = FakePipeline()
        let players = FakePlayers()
        let record: MemoryRecord
        let controller: AudioSessionController

        /// - Parameter connect: report the connection at once (else the test lists streams first, as on connecting).
        init(options: AudioOptions = [], category: AudioCategory = .playback, leftBehind: ChangedStreamsStore.Saved? = nil,
             parents: [Int32: Int32] = [:], connect: Bool = true) {
            (player, _, _) = makePlayer(tracks: 3)
            record = MemoryRecord(leftBehind)
            record.requestCount = { [server] in server.requests.count }
            var settings = AudioSettings()
            settings.category = category
            settings.options = options
            controller = AudioSessionController(player: player, engine: pipeline, pulse: server, watcher: players, settings: settings,
                                                changes: record, log: Log(verbose: false), ownProcessID: AudioSessionControllerTests.ownPID,
                                                parentProcess: { parents[$0] })
            player.feed.listen(controller)
            controller.start()
            server.report(.sinkChanged(Output(index: speakers, name: "speakers", description: "Speakers", portAvailable: nil)))
            server.report(.defaultSinkChanged("speakers"))
            if connect { server.report(.connected) }
        }

        /// Reprise plays, and its own stream appears on the speakers.
        func playsThroughItsOwnStream() {
            player.play()
            ownStreamStarts()
        }

        /// Reprise's own stream appears on the speakers.
        func ownStreamStarts(index: UInt32 = 10) {
            server.report(.sinkInputChanged(stream(index, pid: AudioSessionControllerTests.ownPID, role: "music"), isNew: true))
        }
    }

    static func stream(_ index: UInt32, pid: Int32, role: String?, volumes: [UInt32] = [50_000, 50_000], muted: Bool = false,
                       corked: Bool = false, sink: UInt32 = speakers) -> SinkInputInfo {
        SinkInputInfo(index: index, sink: sink, processID: pid, role: role, applicationName: "app", volumes: volumes,
                      muted: muted, corked: corked)
    }

    @Test func duckOthersRecordsFirstThenLowersAndPutsBackExactly() {
        let rig = Rig(options: [.duckOthers])
        rig.server.report(.sinkInputChanged(Self.stream(20, pid: 5000, role: "music", volumes: [50_000, 40_001]), isNew: true))
        rig.playsThroughItsOwnStream()
        #expect(rig.server.requests == [.volume(20, [25_000, 20_000])])
        // The record was on disk before the request went out.
        #expect(rig.record.versions.first { !$0.saved.volumes.isEmpty }.map { [$0.requestsBefore] } == [0])
        #expect(rig.record.saved?.volumes == [20: [50_000, 40_001]])
        rig.player.pause()
        #expect(rig.server.requests.last == .volume(20, [50_000, 40_001]))
        #expect(rig.record.saved == nil)
    }

    /// The server's report of Reprise's own lowering, arriving after a restore was sent, is not the stream's volume:
    /// lowering again right away (a call ends, playback resumes) still puts back the original.
    @Test func aLateEchoOfOurOwnLoweringIsNotTakenForTheOriginal() {
        let rig = Rig(options: [.duckOthers])
        rig.server.report(.sinkInputChanged(Self.stream(20, pid: 5000, role: "music", volumes: [50_000, 50_000]), isNew: true))
        rig.player.play()
        #expect(rig.server.requests.last == .volume(20, [25_000, 25_000]))
        rig.player.pause()
        #expect(rig.server.requests.last == .volume(20, [50_000, 50_000]))
        // Only now does the server report the lowering; the restore's report is still on its way.
        rig.server.report(.sinkInputChanged(Self.stream(20, pid: 5000, role: "music", volumes: [25_000, 25_000]), isNew: false))
        rig.player.play()
        #expect(rig.server.requests.last == .volume(20, [25_000, 25_000]))
        rig.player.pause()
        #expect(rig.server.requests.last == .volume(20, [50_000, 50_000]))
    }

    @Test func whatTheServerLearnedFromDuckingAndMutingIsPutBack() {
        let rig = Rig(options: [.duckOthers])
        let game = RestoreEntry(name: "sink-input-by-media-role:game", channelPositions: [1, 2], volumes: [30_000, 30_000],
                                device: "speakers", muted: false)
        rig.server.remembered = [game.name: game]
        rig.server.report(.sinkInputChanged(Self.stream(20, pid: 5000, role: "game", volumes: [50_000, 50_000]), isNew: true))
        rig.server.report(.sinkInputChanged(Self.stream(21, pid: 5001, role: "music", volumes: [40_000, 40_000]), isNew: true))
        rig.player.play()
        #expect(rig.server.remembered?[game.name]?.volumes == [25_000, 25_000])
        rig.player.pause()
        // The server saved the restored volumes: game's entry was 30 000, music had none.
        #expect(rig.server.remembered?.count == 2)
        rig.server.confirm()
        #expect(rig.server.remembered == [game.name: game])
        // Muting others (soloAmbient): the same.
        rig.controller.setCategory(.soloAmbient, options: [])
        rig.player.play()
        #expect(rig.server.requests.contains(.mute(20, true)))
        rig.controller.setCategory(.playback, options: [])
        rig.server.confirm()
        #expect(rig.server.requests.last == .mute(20, false) || rig.server.requests.last == .mute(21, false))
        #expect(rig.server.remembered == [game.name: game])
    }

    @Test func stoppingPutsBackWhatIsLoweredAndIsDoneOnlyWhenTheServerConfirms() {
        let rig = Rig(options: [.duckOthers])
        rig.server.report(.sinkInputChanged(Self.stream(20, pid: 5000, role: "music"), isNew: true))
        rig.player.play()
        var done = false
        rig.controller.stop { done = true }
        #expect(rig.server.requests.last == .volume(20, [50_000, 50_000]))
        #expect(rig.record.saved == nil)
        #expect(!done)
        rig.server.confirm()
        #expect(done)
        // Playback goes on until its own component stops (a tag read, a pause and play): nobody is lowered again.
        let requests = rig.server.requests.count
        rig.player.pause()
        rig.player.play()
        rig.server.report(.sinkInputChanged(Self.stream(21, pid: 5002, role: "music"), isNew: true))
        #expect(rig.server.requests.count == requests)
    }

    @Test func withoutTheServerStoppingIsDoneAtOnce() {
        let rig = Rig()
        rig.server.isConnected = false
        var done = false
        rig.controller.stop { done = true }
        #expect(done)
    }

    @Test func aPreviousRunsChangesArePutBackAsTheStreamsAreListed() {
        let left = ChangedStreamsStore.Saved(volumes: [30: [20_000, 20_000]], muted: [31], pausedPlayers: ["org.mpris.MediaPlayer2.vlc"])
        let rig = Rig(leftBehind: left, connect: false)
        // Connecting lists the streams first: the lowered one gets its volume back (the record holds the old one),
        // the muted one is unmuted.
        rig.server.report(.sinkInputChanged(Self.stream(30, pid: 5000, role: "music", volumes: [10_000, 10_000]), isNew: true))
        rig.server.report(.sinkInputChanged(Self.stream(31, pid: 5001, role: "music", muted: true), isNew: true))
        #expect(rig.server.requests == [.volume(30, [20_000, 20_000]), .mute(31, false)])
        // Then the connection: the player it had paused is resumed and its record replaced by ours (nothing held).
        rig.server.report(.connected)
        #expect(rig.players.played == ["org.mpris.MediaPlayer2.vlc"])
        #expect(rig.record.saved == nil)
    }

    @Test func aCallOnOurOutputPausesAndItsEndResumes() {
        let rig = Rig()
        rig.playsThroughItsOwnStream()
        rig.server.report(.sinkInputChanged(Self.stream(40, pid: 6000, role: "phone"), isNew: true))
        #expect(rig.player.status == .paused)
        #expect(rig.controller.isInterrupted)
        rig.server.report(.sinkInputRemoved(40))
        #expect(rig.player.status == .playing)
    }

    /// PipeWire's pulse server: a new stream first reported unlinked (no sink, corked, volume 0), linked a moment later.
    static func unlinked(_ index: UInt32, pid: Int32, role: String?) -> SinkInputInfo {
        SinkInputInfo(index: index, sink: UInt32.max, processID: pid, role: role, applicationName: "app", volumes: [0, 0],
                      muted: false, corked: true)
    }

    @Test func aStreamIsJudgedOnceLinkedNotOnItsFirstReport() {
        let rig = Rig()
        rig.playsThroughItsOwnStream()
        rig.server.report(.sinkInputChanged(Self.unlinked(40, pid: 6000, role: "phone"), isNew: true))
        #expect(rig.player.status == .playing)
        rig.server.report(.sinkInputChanged(Self.stream(40, pid: 6000, role: "phone"), isNew: false))
        #expect(rig.player.status == .paused)
        rig.server.report(.sinkInputChanged(Self.stream(40, pid: 6000, role: "phone", volumes: [40_000, 40_000]), isNew: false))
        rig.server.report(.sinkInputRemoved(40))
        #expect(rig.player.status == .playing, "judged once: one call, ended once")
    }

    /// An output chosen while Reprise's stream was opening (not yet reported, or reported before it was linked, when a
    /// move can be undone by the linking) is where the stream goes once it is linked elsewhere; asked once per sink it
    /// is found on, so a server that keeps it there is not asked forever.
    @Test func aStreamLinkedElsewhereAfterTheChoiceIsMovedToTheChosenOutput() throws {
        let rig = Rig()
        rig.server.report(.sinkChanged(Output(index: 2, name: "room", description: "Room", portAvailable: nil)))
        rig.player.play()
        try rig.controller.setOutput("room")
        #expect(rig.server.requests.isEmpty, "no stream yet")
        #expect(rig.pipeline.outputDevice == "room")
        rig.ownStreamStarts()
        #expect(rig.server.requests == [.move(10, "room")])
        rig.ownStreamStarts()
        #expect(rig.server.requests == [.move(10, "room")], "asked once while it stays there")
        #expect(rig.controller.outputs.first { $0.current }?.name == "speakers", "where it plays until it moves")
        rig.server.report(.sinkInputChanged(Self.stream(10, pid: Self.ownPID, role: "music", sink: 2), isNew: false))
        #expect(rig.controller.outputs.first { $0.current }?.name == "room")

        // The next stream, asked to move before it was linked: linked on another output anyway, it is asked again.
        rig.server.report(.sinkInputRemoved(10))
        rig.server.report(.sinkInputChanged(Self.unlinked(11, pid: Self.ownPID, role: "music"), isNew: true))
        try rig.controller.setOutput("speakers")
        #expect(rig.server.requests.last == .move(11, "speakers"))
        let asked = rig.server.requests.count
        rig.server.report(.sinkInputChanged(Self.stream(11, pid: Self.ownPID, role: "music", sink: 2), isNew: false))
        #expect(rig.server.requests.count == asked + 1 && rig.server.requests.last == .move(11, "speakers"))

        // Following the default again asks nothing more of a stream found elsewhere.
        try rig.controller.setOutput("")
        let afterDefault = rig.server.requests.count
        rig.server.report(.sinkInputChanged(Self.stream(11, pid: Self.ownPID, role: "music", volumes: [40_000, 40_000], sink: 2), isNew: false))
        #expect(rig.server.requests.count == afterDefault)
    }

    /// pulsesink's probe stream (no role) reported on the speakers after the playing stream moved does not stand for
    /// where Reprise plays, nor does it when it goes.
    @Test func theOutputInUseIsThePlayingStreamsNotAnotherStreamsLastReport() throws {
        let rig = Rig()
        rig.server.report(.sinkChanged(Output(index: 2, name: "room", description: "Room", portAvailable: nil)))
        rig.playsThroughItsOwnStream()
        try rig.controller.setOutput("room")
        rig.server.report(.sinkInputChanged(Self.stream(10, pid: Self.ownPID, role: "music", sink: 2), isNew: false))
        rig.server.report(.sinkInputChanged(Self.stream(11, pid: Self.ownPID, role: nil, volumes: [0, 0], corked: true), isNew: true))
        #expect(rig.controller.outputName == "room")
        rig.server.report(.sinkInputRemoved(11))
        #expect(rig.controller.outputName == "room")
        #expect(rig.controller.outputs.map(\.current) == [true, false])
    }

    @Test func duckingNeverWritesAVolumeItHasNotSeen() {
        let rig = Rig(options: [.duckOthers])
        rig.server.report(.sinkInputChanged(Self.unlinked(20, pid: 5000, role: "music"), isNew: true))
        rig.playsThroughItsOwnStream()
        #expect(rig.server.requests.isEmpty, "volume 0 of an unlinked stream is not its volume")
        rig.server.report(.sinkInputChanged(Self.stream(20, pid: 5000, role: "music", volumes: [60_000, 60_000]), isNew: false))
        #expect(rig.server.requests == [.volume(20, [30_000, 30_000])])
        rig.player.pause()
        #expect(rig.server.requests.last == .volume(20, [60_000, 60_000]))
    }

    @Test func aMirrorSayingPlayingDoesNotPauseButAPlayerWithSoundDoes() {
        let rig = Rig(parents: [7001: 7000])
        rig.playsThroughItsOwnStream()
        rig.players.report("org.mpris.MediaPlayer2.playerctld", OtherPlayer(owner: ":1.5", processID: 6500, playing: true))
        #expect(rig.player.status == .playing)
        // A browser: the name's owner is 7000, its sound comes from its child 7001.
        rig.players.report("org.mpris.MediaPlayer2.browser", OtherPlayer(owner: ":1.6", processID: 7000, playing: true))
        #expect(rig.player.status == .playing)
        rig.server.report(.sinkInputChanged(Self.stream(50, pid: 7001, role: nil), isNew: true))
        #expect(rig.player.status == .paused)
        #expect(rig.players.paused.isEmpty)
    }

    @Test func startingToPlayPausesAPlayerThatPlaysHereButNotAMirror() {
        let rig = Rig()
        rig.players.report("org.mpris.MediaPlayer2.playerctld", OtherPlayer(owner: ":1.5", processID: 6500, playing: true, found: true))
        rig.players.report("org.mpris.MediaPlayer2.mpv", OtherPlayer(owner: ":1.7", processID: 8000, playing: true, found: true))
        rig.server.report(.sinkInputChanged(Self.stream(60, pid: 8000, role: nil), isNew: true))
        rig.player.play()
        #expect(rig.players.paused == ["org.mpris.MediaPlayer2.mpv"])
    }

    @Test func silentModeMutesAmbientInsideThePipelineOnly() {
        let rig = Rig(category: .ambient)
        rig.ownStreamStarts()
        #expect(!rig.pipeline.isMuted)
        rig.controller.setSilent(true)
        #expect(rig.pipeline.isMuted)
        #expect(rig.pipeline.role == "game")
        // A new stream of ours while silent: still nothing on the server (stream-restore would remember it).
        rig.server.report(.sinkInputChanged(Self.stream(11, pid: Self.ownPID, role: "game"), isNew: true))
        rig.controller.setSilent(false)
        #expect(!rig.pipeline.isMuted)
        #expect(rig.server.requests.isEmpty)
    }
}

// MARK: Fakes

final class FakeSoundServer: SoundServer {
    enum Request: Equatable {
        case volume(UInt32, [UInt32]), mute(UInt32, Bool), move(UInt32, String)
    }
    var onEvent: ((PulseEvent) -> Void)?
    var loadedModules: Set<String> = []
    var isPipeWire = false
    var isConnected = true
    private(set) var requests: [Request] = []
    private var confirmations: [() -> Void] = []
    /// The stream-restore database, learning every volume and mute set on a stream, as module-stream-restore
    /// does (nil: the server keeps none).
    var remembered: [String: RestoreEntry]? = [:]
    private var streams: [UInt32: SinkInputInfo] = [:]

    func connect() {}
    func moveSinkInput(_ index: UInt32, toSink name: String) { requests.append(.move(index, name)) }
    func setSinkInputVolume(_ index: UInt32, _ volumes: [UInt32]) {
        requests.append(.volume(index, volumes))
        learn(index) { $0.volumes = volumes; $0.channelPositions = volumes.indices.map { Int32($0 + 1) } }
    }
    func setSinkInputMute(_ index: UInt32, _ muted: Bool) {
        requests.append(.mute(index, muted))
        learn(index) { $0.muted = muted }
    }
    func afterPendingRequests(_ done: @escaping () -> Void) {
        if isConnected { confirmations.append(done) } else { done() }
    }
    /// Answers to database reads held back (each with the database as it was when asked), when ``holdReads``.
    var holdReads = false
    private var heldReads: [() -> Void] = []
    func readRestoreEntries(_ done: @escaping ([RestoreEntry]?) -> Void) {
        let answer = isConnected ? remembered.map { Array($0.values) } : nil
        if holdReads { heldReads.append { done(answer) } } else { done(answer) }
    }
    /// Delivers the held answers.
    func answerReads() {
        let held = heldReads
        heldReads.removeAll()
        held.forEach { $0() }
    }
    func writeRestoreEntries(_ entries: [RestoreEntry]) { for entry in entries { remembered?[entry.name] = entry } }
    func deleteRestoreEntries(_ names: [String]) { for name in names { remembered?[name] = nil } }

    private func learn(_ index: UInt32, _ change: (inout RestoreEntry) -> Void) {
        guard let stream = streams[index], remembered != nil else { return }
        let group = RestoreMemoryKeeper.group(of: stream)
        var entry = remembered?[group] ?? RestoreEntry(name: group, channelPositions: [], volumes: [], device: nil, muted: false)
        change(&entry)
        remembered?[group] = entry
    }

    func report(_ event: PulseEvent) {
        if case .sinkInputChanged(let info, _) = event { streams[info.index] = info }
        onEvent?(event)
    }
    /// The server answers everything asked so far, and what those answers lead to.
    func confirm() {
        while !confirmations.isEmpty {
            let waiting = confirmations
            confirmations.removeAll()
            waiting.forEach { $0() }
        }
    }
}

final class FakePipeline: PipelineAudio {
    var role = ""
    var isDucked = false
    var isMuted = false
    var outputDevice: String?
    let events = StreamEvents()
    func setStreamRole(_ role: String) { self.role = role }
}

final class FakePlayers: OtherPlayers {
    weak var listener: OtherPlayersListener?
    private(set) var paused: [String] = []
    private(set) var played: [String] = []
    func pause(_ names: [String]) { paused += names }
    func play(_ names: [String]) { played += names }
    func report(_ name: String, _ player: OtherPlayer) { listener?.otherPlayerChanged(name, player) }
}

/// The changed-streams record in memory: every version written, with how many server requests had gone out then.
final class MemoryRecord: ChangedStreamsRecord {
    private let leftBehind: ChangedStreamsStore.Saved?
    private(set) var versions: [(saved: ChangedStreamsStore.Saved, requestsBefore: Int)] = []
    var requestCount: () -> Int = { 0 }
    init(_ leftBehind: ChangedStreamsStore.Saved?) { self.leftBehind = leftBehind }

    func load() -> ChangedStreamsStore.Saved? { leftBehind }
    func save(_ saved: ChangedStreamsStore.Saved) { versions.append((saved, requestCount())) }

    /// What is on "disk" now (nil: no file, as an empty record removes it).
    var saved: ChangedStreamsStore.Saved? {
        guard let last = versions.last?.saved, last != ChangedStreamsStore.Saved() else { return nil }
        return last
    }
}
