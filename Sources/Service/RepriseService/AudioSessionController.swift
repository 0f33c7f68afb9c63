import Glibc
import LoopKit
import MPRIS
import PosixFiles
import PulseKit
import RepriseCore
import RepriseInterfaces

/// Runs the audio-session policy: feeds it what PulseAudio, pulsesink's cork requests, the other MPRIS
/// players and the user do, and carries out its decisions on the player, the pipeline, other clients'
/// streams and other players. Everything runs on the event loop.
final class AudioSessionController: AudioSessionControl, ServiceComponent, UserActionPolicy, StreamEventListener,
                                    OtherPlayersListener {
    func corkRequested(_ cork: Bool) {
        lastCorkRequestAt = monotonicSeconds()
        feed(cork ? .corkRequested : .uncorkRequested)
    }

    let name = "audio session"
    private var policy = AudioPolicy()
    private var tracker = OutputTracker()
    /// Which other players really make sound here (a name saying Playing is not enough: mirrors, playerctld).
    private var audiblePlayers: AudiblePlayers
    private let pulse: SoundServer
    private let player: Player
    private let engine: PipelineAudio
    private let log: Log
    private let changes: ChangedStreamsRecord
    private let watcher: OtherPlayers?
    /// Puts back what the server's stream-restore learns from Reprise's changes to other streams.
    private let memory: RestoreMemoryKeeper
    /// Where interruptions and route changes are announced (Reprise's own D-Bus interface).
    weak var interface: AudioSessionInterface?
    /// Told when playback moves to another output (see ``HeardPositionWatch``).
    var positionWatch: HeardPositionWatch?
    /// Told where playback is after every event (see ``OutputStallWatch``).
    var stallWatch: OutputStallWatch?
    private var lastOutputName: String?
    /// Roles whose streams are calls (resumable interruptions) and short sounds (ducking).
    let triggerRoles: Set<String>
    let shortSoundRoles: Set<String> = ["event", "a11y"]
    private var ownStreams: [UInt32: SinkInputInfo] = [:]
    /// The last move asked of each of Reprise's own streams: from which sink (nil: not linked then), to which output.
    private var movesAsked: [UInt32: MoveAsked] = [:]
    private struct MoveAsked: Equatable {
        let from: UInt32?
        let to: String
    }
    private var otherStreams: [UInt32: SinkInputInfo] = [:]
    /// Other streams already judged (call, short sound, lowered…): those linked to a sink.
    private var judged: Set<UInt32> = []
    /// Other streams lowered by duckOthers, with their volumes before.
    private var lowered: [UInt32: [UInt32]] = [:]
    /// The last volumes Reprise set on each other stream: the server's echoes of them are not the stream's own
    /// volume (a re-lowering that took a late echo of the last lowering for the original would "restore" to it).
    private var volumesWeSet: [UInt32: [[UInt32]]] = [:]
    /// Other streams muted by soloAmbient (only those that were not muted already).
    private var mutedOthers: Set<UInt32> = []
    /// Players paused with notifyOthersOnDeactivation, kept on disk until resumed.
    private var pausedPlayers: [String] = []
    /// What a previous run left changed (it died): put back as the streams show up, until connected.
    private var leftByPreviousRun: ChangedStreamsStore.Saved
    private var lastStatus: PlaybackStatus
    private let ownPID: Int32
    private var lastCorkRequestAt: Double?
    /// The output in use went away and RouteChanged waits to name the output the sound goes to now.
    private var lostRouteUnannounced = false
    /// Stopped: the session takes no more decisions.
    private var stopped = false
    /// Delays the config names by output (`output-delay-NAME`, ms).
    private let outputDelays: [String: Int]

    /// - Parameters:
    ///   - ownProcessID: streams of this process are Reprise's own.
    ///   - parentProcess: the process tree, to tell which player a stream belongs to.
    init(player: Player, engine: PipelineAudio, pulse: SoundServer, watcher: OtherPlayers?, settings: AudioSettings,
         changes: ChangedStreamsRecord, log: Log, ownProcessID: Int32 = getpid(),
         parentProcess: @escaping @Sendable (Int32) -> Int32? = ProcessTree.parent) {
        self.player = player
        self.engine = engine
        self.pulse = pulse
        memory = RestoreMemoryKeeper(server: pulse) { [log] in log.debug("restore memory: " + $0) }
        self.watcher = watcher
        self.log = log
        self.changes = changes
        ownPID = ownProcessID
        audiblePlayers = AudiblePlayers(parentProcess: parentProcess)
        triggerRoles = settings.triggerRoles
        outputDelays = settings.outputDelays
        leftByPreviousRun = changes.load() ?? ChangedStreamsStore.Saved()
        lastStatus = .stopped // the first lookAtPlaybackStatus() reports playback already under way
        apply(policy.configure(category: settings.category, options: settings.options, playing: false))
        apply(policy.handle(.silentModeChanged(settings.silent), playing: false))
        engine.setStreamRole(settings.category.streamRole)
        engine.events.listen(self)
        watcher?.listener = self
    }

    func start() {
        pulse.onEvent = { [unowned self] event in handle(event) }
        pulse.connect()
    }

    func otherPlayerChanged(_ name: String, _ other: OtherPlayer) {
        feed(audiblePlayers.playerChanged(name, processID: other.processID, playing: other.playing, found: other.found))
        if other.playing && !audiblePlayers.audible.contains(name) {
            log.debug("\(name) says Playing but plays no sound here (yet): not another player starting")
        }
    }

    func otherPlayerGone(_ name: String) { feed(audiblePlayers.playerGone(name)) }

    /// Stopping: puts back whatever Reprise still holds changed in other clients (lowered or muted streams), then
    /// calls `done` once the sound server has applied everything sent so far, or at once without a connection.
    func stop(_ done: @escaping () -> Void) {
        // Reprise's sound ends here as far as the others are concerned (with notifyOthersOnDeactivation the players
        // it paused are resumed now, while the bus still carries the request).
        if lastStatus == .playing {
            lastStatus = .stopped
            feed(.playbackEnded)
        }
        if !lowered.isEmpty { restoreLowered() }
        if !mutedOthers.isEmpty { unmuteOthers() }
        // From now on nothing is changed in others: playback may still report changes (a tag read, its own stop)
        // until the playback component stops, and must not lower anyone again.
        stopped = true
        positionWatch?.stop()
        stallWatch?.stop()
        memory.allRestored { [pulse] in pulse.afterPendingRequests(done) }
    }

    // MARK: AudioSessionControl

    var category: AudioCategory { policy.category }
    var options: AudioOptions { policy.options }
    var silent: Bool { policy.silent }
    var isInterrupted: Bool { policy.isInterrupted }
    /// Where Reprise's sound goes: the output its stream is on, else the one the next stream opens on.
    var outputName: String { knownOutputName ?? "" }

    /// nil while that is not known: the output in use was removed and the server has not said where the stream
    /// went, nor (if the removed one was the default) which output is the default now.
    private var knownOutputName: String? {
        tracker.currentOutput?.name ?? tracker.chosenName ?? tracker.defaultName.flatMap { tracker.output(named: $0)?.name }
    }
    /// What is wrong with the output in use ("" when nothing is known to be).
    var outputProblem: String { stallWatch?.problem ?? "" }
    /// Each output, `current` for the one Reprise's sound goes to (``outputName``: with no stream now, the one the
    /// next opens on), so it reads the same whether or not something plays.
    var outputs: [(name: String, description: String, current: Bool)] {
        let current = knownOutputName
        return tracker.sortedOutputs.map { ($0.name, $0.description, $0.name == current) }
    }

    func setCategory(_ category: AudioCategory, options: AudioOptions) {
        log.info("audio category \(category.rawValue) [\(options.names.joined(separator: ", "))]")
        engine.setStreamRole(category.streamRole)
        apply(policy.configure(category: category, options: options, playing: player.status == .playing))
    }

    func setSilent(_ on: Bool) { feed(.silentModeChanged(on)) }

    func setOutput(_ name: String) throws(PlayerError) {
        guard name.isEmpty || tracker.output(named: name) != nil else {
            throw .invalidArgument("no output '\(name)' (see ListOutputs)")
        }
        if let target = tracker.choose(name.isEmpty ? nil : name) { moveOwnStreams(to: target) }
        engine.outputDevice = tracker.chosenName
        interface?.routeChanged(.userChoice, output: name.isEmpty ? (tracker.defaultName ?? "") : name)
    }

    // MARK: Inputs

    /// With `module-x11-cork-request`, PulseAudio turns each cork request into a synthesized pause/play key
    /// that the desktop sends back as PlayPause: Reprise already acted on the request itself, so a PlayPause
    /// within a second of one is that echo and is dropped (it would undo the pause or the resume).
    func allowsPlayPause() -> Bool {
        guard pulse.loadedModules.contains("module-x11-cork-request"), let last = lastCorkRequestAt else { return true }
        return monotonicSeconds() - last > 1
    }

    /// The desktop's screen locked or unlocked.
    func sessionLockChanged(_ locked: Bool) { feed(.sessionLockChanged(locked)) }

    /// A client asked for a transport or track change (before it is carried out).
    func userActed(_ action: PolicyEvent) { feed(action) }

    /// After every player change: Reprise's audio starting or ending is an input too.
    func lookAtPlaybackStatus() {
        let status = player.status
        defer { lastStatus = status }
        if status == .playing && lastStatus != .playing {
            feed(.playbackStarted)
        } else if status != .playing && lastStatus == .playing {
            feed(.playbackEnded)
        }
    }

    private func feed(_ event: PolicyEvent) {
        guard !stopped else { return }
        apply(policy.handle(event, playing: player.status == .playing))
    }

    private func feed(_ events: [PolicyEvent]) {
        for event in events {
            log.info("other players: \(event)")
            feed(event)
        }
    }

    private func handle(_ event: PulseEvent) {
        switch event {
        case .connected:
            log.info("connected to the sound server")
            restoreAfterCrash()
            feed(audiblePlayers.soundServerConnected(true))
        case .disconnected:
            log.warning("lost the sound server; waiting for it to come back")
            tracker.reset()
            lostRouteUnannounced = false
            ownStreams.removeAll()
            movesAsked.removeAll()
            otherStreams.removeAll()
            volumesWeSet.removeAll()
            judged.removeAll()
            lowered.removeAll()
            mutedOthers.removeAll()
            memory.forget()
            recordChanges()
            feed(audiblePlayers.soundServerConnected(false))
        case .defaultSinkChanged(let name):
            let (target, routeEvent) = tracker.defaultChanged(to: name)
            if let target { moveOwnStreams(to: target) }
            if let routeEvent { feed(routeEvent) }
        case .sinkChanged(let output):
            if let routeEvent = tracker.outputChanged(output) { feed(routeEvent) }
        case .sinkRemoved(let index):
            if let routeEvent = tracker.outputRemoved(index) { feed(routeEvent) }
        case .sinkInputChanged(let info, let isNew):
            streamChanged(info, isNew: isNew)
        case .sinkInputRemoved(let index):
            if ownStreams.removeValue(forKey: index) != nil {
                movesAsked[index] = nil
                if ownStreams.isEmpty { tracker.streamEnded() } else { followOwnStreams() }
            } else if let info = otherStreams.removeValue(forKey: index) {
                volumesWeSet[index] = nil
                let wasJudged = judged.remove(index) != nil
                feed(audiblePlayers.streamRemoved(index))
                if lowered.removeValue(forKey: index) != nil || mutedOthers.remove(index) != nil {
                    // Its server saved the lowered volume or the mute for its group as it ended.
                    recordChanges()
                    changesEnded()
                }
                if wasJudged, let role = info.role, triggerRoles.contains(role) { feed(.callEnded(stream: Int(index))) }
                if wasJudged, let role = info.role, shortSoundRoles.contains(role) { feed(.shortSoundEnded(stream: Int(index))) }
            }
        }
        // The next stream opens on the chosen output, or on the default once that is gone or none was chosen.
        engine.outputDevice = tracker.chosenName
        if lostRouteUnannounced, let output = knownOutputName {
            lostRouteUnannounced = false
            log.info("route changed: old-device-unavailable, now \(output)")
            interface?.routeChanged(.oldDeviceUnavailable, output: output)
        }
        player.setOutputDelay(microseconds: outputDelay(of: knownOutputName))
        stallWatch?.outputIs(knownOutputName, pipeSinkDropsWhenFull: pulse.isPipeWire)
        if let output = knownOutputName, output != lastOutputName {
            if lastOutputName != nil { positionWatch?.outputChanged() }
            lastOutputName = output
        }
        interface?.announceChanges()
    }

    /// Where Reprise's sound goes is the sink of its playing stream: of its linked streams the one with a role (not
    /// pulsesink's probe stream), playing, newest. (One stream's late report must not stand for another's.)
    private func followOwnStreams() {
        func rank(_ stream: SinkInputInfo) -> (Int, Int, UInt32) { (stream.role == nil ? 0 : 1, stream.corked ? 0 : 1, stream.index) }
        if let playing = ownStreams.values.filter(\.isLinked).max(by: { rank($0) < rank($1) }) { tracker.streamIsOn(playing.sink) }
    }

    /// How much later than the pipeline plays it the listener hears it on output `name`: the config's
    /// `output-delay-NAME`, else the Snapcast stream's buffer for its output, else nothing.
    private func outputDelay(of name: String?) -> Int64 {
        guard let name else { return player.outputDelayMicroseconds } // not known for a moment: keep it
        if let milliseconds = outputDelays[name] { return Int64(milliseconds) * 1000 }
        return name == SnapcastSettings.sinkName ? Int64(SnapcastSettings.defaultBufferMilliseconds) * 1000 : 0
    }

    private func streamChanged(_ reported: SinkInputInfo, isNew: Bool) {
        var info = reported
        if info.processID == ownPID {
            ownStreams[info.index] = info
            // A report with no sink is a stream not (or no longer) linked: it says nothing of where it plays.
            guard info.isLinked else { return }
            log.debug("own stream #\(info.index)\(info.role == nil ? " (no role)" : "") on sink #\(info.sink)")
            followOwnStreams()
            // A stream the server linked elsewhere after the user chose an output (the choice came while it was
            // opening, and a move asked of a stream not yet linked can be undone by its linking) goes to the chosen
            // one: asked once for each sink it is found on, so a server that keeps it there is not asked forever.
            let move = tracker.chosenName.map { MoveAsked(from: info.sink, to: $0) }
            if let move, tracker.outputs[info.sink]?.name != move.to, movesAsked[info.index] != move {
                movesAsked[info.index] = move
                pulse.moveSinkInput(info.index, toSink: move.to)
            }
            return
        }
        if let previous = otherStreams[info.index], volumesWeSet[info.index]?.contains(info.volumes) == true {
            info = info.with(volumes: previous.volumes) // our own change coming back, not the app's or the user's
        }
        otherStreams[info.index] = info
        feed(audiblePlayers.streamChanged(info.index, processID: info.processID, playing: !info.corked && !isCallOrShortSound(info)))
        // A stream is judged once, when its facts are known: linked to a sink. PipeWire's pulse server reports a new
        // stream before WirePlumber links it (no sink, corked, volume 0); the real sink and volume come as a change.
        guard info.isLinked, judged.insert(info.index).inserted else { return }
        if let original = leftByPreviousRun.volumes.removeValue(forKey: info.index) {
            log.info("restoring the volume of stream #\(info.index), lowered by a previous run")
            setVolume(of: info.index, original)
            info = info.with(volumes: original)
        }
        if leftByPreviousRun.muted.remove(info.index) != nil {
            log.info("unmuting stream #\(info.index), silenced by a previous run")
            pulse.setSinkInputMute(info.index, false)
            info = info.with(muted: false)
        }
        otherStreams[info.index] = info
        let onOurOutput = tracker.streamSink == nil || tracker.streamSink == info.sink
        if let role = info.role, triggerRoles.contains(role), onOurOutput {
            log.info("a \(role) stream started (#\(info.index))")
            feed(.callStarted(stream: Int(info.index)))
        } else if let role = info.role, shortSoundRoles.contains(role), onOurOutput {
            feed(.shortSoundStarted(stream: Int(info.index)))
        } else {
            if !stopped, policy.isLoweringOthers { lower([info]) }
            if !stopped, policy.isSilencingOthers { silence([info]) }
        }
    }

    // MARK: Decisions

    private func apply(_ decisions: [PolicyDecision]) {
        for decision in decisions {
            log.debug("audio policy: \(decision)")
            switch decision {
            case .pause:
                // The policy's own pause is not Reprise's audio ending on its own (which would resume the players it
                // paused): the status it leads to is expected.
                if player.status == .playing { lastStatus = .paused }
                player.pause()
            case .resume: player.play()
            case .duck: engine.isDucked = true
            case .unduck: engine.isDucked = false
            case .mute, .unmute:
                // Inside the pipeline: a mute on the server stream would be remembered for the role by stream-restore.
                engine.isMuted = decision == .mute
            case .pauseOthers(let names):
                if policy.options.contains(.notifyOthersOnDeactivation) {
                    pausedPlayers += names.filter { !pausedPlayers.contains($0) }
                    recordChanges()
                }
                watcher?.pause(names)
            case .resumeOthers(let names):
                watcher?.play(names)
                pausedPlayers.removeAll { names.contains($0) }
                recordChanges()
            case .lowerOtherStreams:
                // Only streams whose real volume is known (judged): never a volume not seen.
                lower(otherStreams.values.filter { judged.contains($0.index) && !isCallOrShortSound($0) })
            case .restoreOtherStreams:
                restoreLowered()
            case .muteOtherStreams:
                silence(otherStreams.values.filter { judged.contains($0.index) && !isCallOrShortSound($0) })
            case .unmuteOtherStreams:
                unmuteOthers()
            case .interruptionBegan(let kind):
                log.info("interruption began (\(kind.rawValue))")
                interface?.interruptionBegan(kind)
            case .interruptionEnded(let kind, let shouldResume):
                log.info("interruption ended (\(kind.rawValue))\(shouldResume ? ", resuming" : "")")
                interface?.interruptionEnded(kind, shouldResume: shouldResume)
            case .routeChanged(let reason):
                // A new default is where the stream goes (PulseAudio may not have reported the move yet).
                let output = reason == .newDeviceAvailable ? (tracker.defaultName ?? outputName) : outputName
                if reason == .oldDeviceUnavailable && knownOutputName == nil {
                    // Said once the server tells where the sound goes now (the stream's move, the new default).
                    lostRouteUnannounced = true
                    continue
                }
                log.info("route changed: \(reason.rawValue), now \(output)")
                interface?.routeChanged(reason, output: output)
            }
        }
    }

    /// Lowers `streams` to half their volume (about −18 dB), recording the old volumes on disk first.
    private func lower(_ streams: [SinkInputInfo]) {
        let fresh = streams.filter { lowered[$0.index] == nil }
        guard !fresh.isEmpty else { return }
        for info in fresh { lowered[info.index] = info.volumes }
        recordChanges()
        memory.willChange(fresh)
        for info in fresh { setVolume(of: info.index, info.volumes.map { $0 / 2 }) }
    }

    private func setVolume(of index: UInt32, _ volumes: [UInt32]) {
        volumesWeSet[index, default: []].append(volumes)
        if volumesWeSet[index]!.count > 4 { volumesWeSet[index]!.removeFirst() }
        pulse.setSinkInputVolume(index, volumes)
    }

    private func isCallOrShortSound(_ info: SinkInputInfo) -> Bool {
        info.role.map { triggerRoles.contains($0) || shortSoundRoles.contains($0) } ?? false
    }

    /// Mutes `streams` that are not muted already, recording them on disk first.
    private func silence(_ streams: [SinkInputInfo]) {
        let fresh = streams.filter { !$0.muted && !mutedOthers.contains($0.index) }
        guard !fresh.isEmpty else { return }
        mutedOthers.formUnion(fresh.map(\.index))
        recordChanges()
        memory.willChange(fresh)
        for info in fresh { pulse.setSinkInputMute(info.index, true) }
    }

    private func restoreLowered() {
        for (index, volumes) in lowered { setVolume(of: index, volumes) }
        lowered.removeAll()
        recordChanges()
        changesEnded()
    }

    private func unmuteOthers() {
        for index in mutedOthers { pulse.setSinkInputMute(index, false) }
        mutedOthers.removeAll()
        recordChanges()
        changesEnded()
    }

    /// Nothing of others is changed any more: what their server learned from it is put back.
    private func changesEnded() {
        if lowered.isEmpty && mutedOthers.isEmpty { memory.allRestored() }
    }

    private func recordChanges() {
        changes.save(.init(volumes: lowered, muted: mutedOthers, pausedPlayers: pausedPlayers))
    }

    private func moveOwnStreams(to sink: String) {
        for (index, stream) in ownStreams {
            movesAsked[index] = MoveAsked(from: stream.isLinked ? stream.sink : nil, to: sink)
            pulse.moveSinkInput(index, toSink: sink)
        }
    }

    /// Connected: streams a previous run lowered were put back as they were listed; the players it paused
    /// (with notifyOthersOnDeactivation) are resumed, and its record replaced by ours.
    private func restoreAfterCrash() {
        let players = leftByPreviousRun.pausedPlayers
        leftByPreviousRun = ChangedStreamsStore.Saved()
        if !players.isEmpty { watcher?.play(players) }
        recordChanges()
    }
}
