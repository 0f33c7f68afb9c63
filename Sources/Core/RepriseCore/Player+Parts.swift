/// The parts of the player's own state, each kept as one value (see ``Player``): the player's code reads them as
/// `stream.…`, `requests.…`, `pending.…`, `interstitialPlayback.…` and `sound.…`; the names clients read are here.
extension Player {
    /// Shuffles the queue (or puts it back in list order).
    func shuffleQueue(_ on: Bool) {
        var generator = SystemRandomNumberGenerator()
        queue.setShuffled(on, using: &generator)
    }

    /// How often the loaded entry started over by itself (LoopStatus Track): each time is another listen.
    public var loopRestarts: Int { stream.loopRestarts }
    /// False when the last request or event only filled in tags read in the background: nothing to save.
    public var lastChangeAffectsSavedState: Bool { pending.affectsSavedState }
}

/// The stream the engine has loaded and what is known of it.
struct LoadedStream {
    /// The entry whose stream the engine has loaded; nil while stopped.
    var loadedEntryID: Int?
    /// The entry the engine was told to continue with gaplessly (see ``PlaybackEngine/prepareNext(_:)``).
    var preparedEntryID: Int?
    var prerolled = false
    /// Where a seek asked before the stream prerolled goes (a restored or resumed position): what Position says
    /// until then, so a client that reads it once (and extrapolates) never sees 0 for a stream that starts later.
    var seekBeforePreroll: Int64?
    var seekable = false
    /// While a new stream prerolls, clients keep seeing what they saw before, so tags never arrive piecemeal.
    var heldTrack: TrackInfo??
    /// Where to pick up after the sound output failed (the stream was unloaded, the entry kept, paused).
    var positionBeforeOutputFailure: Int64?
    var consecutiveFailures = 0
    var loopRestarts = 0
}

/// Requests under way.
struct RequestState {
    /// Requests waiting for the resolver: later ones wait too, so requests finish in the order they came.
    var resolutionsUnderWay = 0
    /// Of these, the ones that may take long (playlists, many URIs): at most ``Player/maximumLongResolutions``.
    var longResolutionsUnderWay = 0
    /// Opened URIs' replies, by entry, until their stream prerolled or failed.
    var pendingOpens: [Int: (PlayerError?) -> Void] = [:]
    /// What an opened URI interrupted, to go back to if it turns out to be unplayable.
    var interruptions: [Int: Interruption] = [:]
    /// The entry a UPnP control point pushed, while it is the one loaded: it ends playback at its end. A guest: it
    /// leaves the queue when it ends or anything else loads, and nothing of it is remembered.
    var pushedEntryID: Int?
    /// What the user had before the first of the pushes in a row (entry, status, position): theirs again when the
    /// pushed entry ends or fails.
    var guestHost: Interruption?
    /// Where an entry starts the next time it loads (the user's place, kept while a push played), once.
    var startPosition: (entryID: Int, microseconds: Int64)?
    /// What a UPnP control point may push; until the service sets them, no file and no name that cannot be looked up.
    var pushRules = RendererPushRules(musicFolders: [], lookUp: { _ in nil })
}

/// What the transaction under way has noted, published as one ``Change`` when it ends.
struct TransactionState {
    var depth = 0
    /// The state clients saw when it began.
    var stateBefore: Player.Snapshot?
    var queueEdits: [TrackListChange] = []
    /// Where it jumped to last.
    var seek: Int64?
    /// What it was told changed outside the player's state (the engine's gain).
    var noted: ChangeAspects = []
    var affectsSavedState = true
}

/// Levelling, crossfade, the equalizer and the loudness the library measured, what the engine was last told, and the
/// delay of the output in use.
public struct SoundShaping {
    /// Loudness levelling between tracks (see ``Player/setReplayGain(_:)``).
    public internal(set) var replayGain = ReplayGainSettings()
    /// Crossfade between tracks (see ``Player/setCrossfade(_:)``).
    public internal(set) var crossfade = CrossfadeSettings()
    /// The equalizer (see ``Player/setEqualizer(_:)``).
    public internal(set) var equalizer = Equalizer()
    /// The loaded entry's loudness as the library measured it (see ``Player/didMeasureLoudness(track:album:for:)``).
    public internal(set) var measured: (track: MeasuredLoudness, album: MeasuredLoudness?)?
    var applied = EngineOutput()
    /// How long after the pipeline plays a moment the listener hears it on the output in use (a network output's
    /// buffer): Position is what is heard (see ``Player/setOutputDelay(microseconds:)``).
    public internal(set) var outputDelayMicroseconds: Int64 = 0
}
