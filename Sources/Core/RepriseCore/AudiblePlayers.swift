/// Which other MPRIS players really make sound on this machine, for the audio policy's "another player
/// started". A name on the bus that says `Playing` is not enough: playerctld re-announces the active player
/// under its own name, and KDE Connect publishes a phone's players; neither plays a sound here.
///
/// The rule (see docs/AUDIO-POLICY.md): a player counts as playing when its `PlaybackStatus` is `Playing` **and**
/// its process, or one of its descendants (browsers play from a child process), owns a sound-server stream that
/// is playing (not corked; calls and short sounds are left out by the caller). Until the sound server has first
/// answered, no player counts (Reprise's own start must not pause a mirror that says Playing); after losing it, a
/// `Playing` player counts unless its name is a known mirror. Pure logic; the process tree is read through
/// `parentProcess`.
public struct AudiblePlayers: Sendable {
    /// Names of players that mirror others and play nothing themselves (the fallback rule).
    public static let knownMirrorPrefixes = ["org.mpris.MediaPlayer2.playerctld", "org.mpris.MediaPlayer2.kdeconnect."]

    private struct OtherPlayer {
        var processID: Int32?
        var playing = false
        /// Its status was read when Reprise first looked, and has not changed since.
        var found = false
    }

    private var players: [String: OtherPlayer] = [:]
    /// Playing (uncorked) streams of other processes, by stream index, each with its process id and that process's
    /// ancestors (read once, when the stream is reported: a player's every status change is checked against them).
    private var playingStreams: [UInt32: [Int32]] = [:]
    /// The sound server's state: nil until it first answers, then whether it is connected.
    private var connected: Bool?
    /// The players counted as playing, as last reported.
    public private(set) var audible: Set<String> = []
    private let parentProcess: @Sendable (Int32) -> Int32?

    /// - Parameter parentProcess: the parent of a process id, or nil when it is unknown or gone.
    public init(parentProcess: @escaping @Sendable (Int32) -> Int32?) {
        self.parentProcess = parentProcess
    }

    /// A player's status or process became known or changed. `found`: read when Reprise first looked.
    public mutating func playerChanged(_ name: String, processID: Int32?, playing: Bool, found: Bool) -> [PolicyEvent] {
        players[name] = OtherPlayer(processID: processID, playing: playing, found: found)
        return reevaluate(found: false)
    }

    /// The player left the bus.
    public mutating func playerGone(_ name: String) -> [PolicyEvent] {
        players[name] = nil
        return reevaluate(found: false)
    }

    /// A stream of another process was reported; `playing` is false for corked streams (and those that do
    /// not count, such as calls and short sounds).
    public mutating func streamChanged(_ index: UInt32, processID: Int32?, playing: Bool) -> [PolicyEvent] {
        if playing, let processID {
            if playingStreams[index]?.first != processID { playingStreams[index] = lineage(of: processID) }
        } else {
            playingStreams[index] = nil
        }
        return reevaluate(found: false)
    }

    public mutating func streamRemoved(_ index: UInt32) -> [PolicyEvent] {
        playingStreams[index] = nil
        return reevaluate(found: false)
    }

    /// The sound server connection came up (after its streams were listed) or went away (its streams with it).
    /// Streams listed while connecting change nothing until it is up; what a switch of rules reveals was already
    /// under way ("found").
    public mutating func soundServerConnected(_ isConnected: Bool) -> [PolicyEvent] {
        connected = isConnected
        if !isConnected { playingStreams.removeAll() }
        return reevaluate(found: true)
    }

    /// Whether `name` counts as playing by the rule above.
    private func isAudible(_ name: String, _ player: OtherPlayer) -> Bool {
        guard player.playing else { return false }
        switch connected {
        case nil: return false
        case false?: return !Self.knownMirrorPrefixes.contains { name.hasPrefix($0) }
        case true?: break
        }
        guard let owner = player.processID, owner > 1 else { return false }
        return playingStreams.values.contains { $0.contains(owner) }
    }

    /// `process` and its ancestors below init, nearest first (at most 64).
    private func lineage(of process: Int32) -> [Int32] {
        var lineage = [process]
        while lineage.count < 64, let parent = parentProcess(lineage[lineage.count - 1]), parent > 1, !lineage.contains(parent) {
            lineage.append(parent)
        }
        return lineage
    }

    /// Reports the players that started or stopped counting; a start is "found" when the player's status is the
    /// one read on first contact, or when a change of rules revealed it.
    private mutating func reevaluate(found causeIsListing: Bool) -> [PolicyEvent] {
        let now = Set(players.filter { isAudible($0.key, $0.value) }.keys)
        let started = now.subtracting(audible).sorted(), stopped = audible.subtracting(now).sorted()
        audible = now
        return stopped.map { .otherPlayerStopped($0) } + started.map { name in
            causeIsListing || players[name]?.found == true ? .otherPlayerFoundPlaying(name) : .otherPlayerStarted(name)
        }
    }
}

extension AudiblePlayers {
    /// The parent process id in the text of `/proc/PID/stat` ("pid (comm) state ppid …"; comm may itself hold
    /// spaces and parentheses, so the fields are read after the last ')').
    public static func parentProcessID(inProcStat text: String) -> Int32? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 2 else { return nil }
        return Int32(fields[1])
    }
}
