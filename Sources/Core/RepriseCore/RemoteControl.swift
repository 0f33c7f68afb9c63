/// The one port between the surfaces people act through (the bus's interfaces, the video window's keys, desktop
/// search) and the audio policy: every transport or track request is told to it before it is carried out, and a
/// PlayPause asks it first.
public protocol UserActionPolicy: AnyObject {
    /// A person asked for `event` (from any surface), before it is carried out.
    func userActed(_ event: PolicyEvent)
    /// False drops a PlayPause (an echo of Reprise's own cork request, see the audio session).
    func allowsPlayPause() -> Bool
}

/// The policy where there is none (no audio session): everything allowed, nothing remembered.
public final class NoUserActionPolicy: UserActionPolicy {
    public init() {}
    public func userActed(_ event: PolicyEvent) {}
    public func allowsPlayPause() -> Bool { true }
}

/// What a person asks of the player, from whichever surface (MPRIS, MPD, the video window and its controls,
/// Reprise's own interfaces, desktop search): the audio policy is told first, then the player carries it out.
/// Surfaces ask through this and never tell the policy themselves; a PlayPause the policy refuses (an echo of
/// Reprise's own cork request) is dropped here.
public final class RemoteControl {
    public let player: Player
    private let policy: UserActionPolicy

    public init(player: Player, policy: UserActionPolicy) {
        self.player = player
        self.policy = policy
    }

    public func play() { request(.userPlayed) { player.play() } }
    public func pause() { request(.userPaused) { player.pause() } }
    public func stop() { request(.userStopped) { player.stop() } }
    public func next() { request(.userChangedTrack) { player.next() } }
    public func previous() { request(.userChangedTrack) { player.previous() } }

    /// A PlayPause from another program (a desktop's widget, a headset's button through mpris-proxy): dropped,
    /// returning false, when the policy takes it for an echo of Reprise's own cork request.
    @discardableResult
    public func playPause() -> Bool {
        guard policy.allowsPlayPause() else { return false }
        togglePlayback()
        return true
    }

    /// Plays or pauses, asked where it cannot be such an echo (a key or a control in Reprise's own window).
    public func togglePlayback() { request(player.status == .playing ? .userPaused : .userPlayed) { player.playPause() } }

    /// Plays entry `id` (or only makes it current, paused, with `playing` false).
    public func goTo(id: Int, playing: Bool = true) { request(.userChangedTrack) { player.goTo(id: id, playing: playing) } }

    /// Opens `uri` in place of what plays (`pushedByRenderer`: loaded paused for a UPnP control point, see
    /// ``Player/open(_:pushedByRenderer:completion:)``).
    public func open(_ uri: String, pushedByRenderer: Bool = false, completion: @escaping (PlayerError?) -> Void) {
        request(.userChangedTrack) { player.open(uri, pushedByRenderer: pushedByRenderer, completion: completion) }
    }

    /// Carries out `body`, a request the calls above do not name (a playlist activated, a search result played,
    /// the queue cleared), telling the policy it is `event` first.
    public func request<Result, Failure: Error>(_ event: PolicyEvent, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        policy.userActed(event)
        return try body()
    }
}
