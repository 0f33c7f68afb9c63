/// What the player asks of the thing that actually decodes and outputs sound.
/// Implemented over GStreamer by the executable and by a scripted double in unit tests.
/// Results arrive back through the ``Player`` `engine…` methods, on the same thread.
public protocol PlaybackEngine: AnyObject {
    /// Loads `uri` and moves to playing (or paused): from its start, or with `range` from the range's start, the stream
    /// ending at the range's end (every later seek and rate change keeps that end). Positions stay the medium's.
    /// False when refused at once.
    func load(_ uri: String, playing: Bool, range: PlayRange?) -> Bool
    /// Resumes the loaded stream. False when refused.
    func resume() -> Bool
    /// Pauses the loaded stream. False when refused.
    func pause() -> Bool
    /// Unloads the stream; position returns to 0.
    func stop()
    /// The URI to continue with, without a gap, when the loaded stream ends (nil: none). Reported back with
    /// ``Player/engineDidStartNextStream(uri:seekable:)`` at the moment the new stream starts playing.
    /// ``load(_:playing:)`` and ``stop()`` forget it.
    func prepareNext(_ uri: String?)
    /// Jumps to `microseconds` in the loaded stream.
    func seek(toMicroseconds microseconds: Int64) -> Bool
    /// Plays at `rate` (1.0 = normal) from now on, this and later streams.
    func setRate(_ rate: Double)
    /// Linear output gain, 1.0 = unchanged.
    func setVolume(_ volume: Double)
    /// Levels loudness from now on with `kind` of gain (`none`: off), `preampDecibels` added to tagged gains and
    /// `fallbackDecibels` for media without ReplayGain tags; `fallbackPeak`, the true peak of such media when it was
    /// measured (linear), lets a positive fallback gain through as far as that peak stays below full scale.
    func setReplayGain(_ kind: ReplayGainKind, preampDecibels: Double, fallbackDecibels: Double, fallbackPeak: Double?)
    /// How the loaded stream gives way to the prepared next one, and whether a load while one sounds fades it out.
    func setCrossfadePlan(_ plan: CrossfadePlan)
    /// A sleep timer's share of the level, 0…1 (1: none), applied inside the pipeline to everything sounding.
    func setSleepFade(_ gain: Double)
    /// The equalizer on everything sounding, from now on: each band filter's gain in dB at ``Equalizer/frequencies``
    /// (nil: off, the sound untouched) and a pre-amplification (dB, ≤ 0) so that boosts never clip.
    func setEqualizer(filterGains: [Double]?, preampDecibels: Double)
    /// The ReplayGain applied to what plays now, in dB; nil when none is.
    var appliedGainDecibels: Double? { get }
    /// Position of the loaded stream, when known.
    var positionMicroseconds: Int64? { get }
    /// The slowest and fastest rates this engine can play at.
    var rateRange: ClosedRange<Double> { get }
}

/// One change to the list of entries, as MPRIS TrackList signals report them.
public enum TrackListChange: Equatable, Sendable {
    /// Entry `id` was inserted after entry `after` (nil: at the start).
    case added(id: Int, after: Int?)
    case removed(id: Int)
    /// The whole list was replaced.
    case replaced
    case metadataChanged(id: Int)
    /// Entry `id`'s tags or length as its own stream tells them while it loads or plays (MPRIS shows them as any
    /// metadata change; for MPD a file's song is what its index says, so only a stream's count as a queue change).
    case playedMetadataChanged(id: Int)
    /// Entry `id`'s priority changed (MPD's; nothing MPRIS shows).
    case priorityChanged(id: Int)
}
