/// Decides, from what plays and for how long it is heard, when to say "playing now" and when a listen counts:
/// once it has been *heard* for half its length or 4 minutes, whichever comes first (time paused, stopped,
/// loading or skipped by a seek does not count; at another rate, the media time played does); never for a track
/// under 30 seconds. A radio title (no length) counts after 4 minutes, or when the next title begins if it was
/// heard from its start for at least 30 seconds. What is heard between two looks is what the position moved, at
/// most the wall time at the rate (a seek forward is not listening, a pipeline flushing for a rate change neither);
/// a live stream's is the wall time. Pure: times are handed in.
public struct ListenTracker {
    /// What plays, as far as listening is concerned.
    public struct Play: Equatable, Sendable {
        public var entryID: Int
        /// How often the entry started over by itself (LoopStatus Track): each time is another listen.
        public var restarts: Int
        public var artist: String?
        public var title: String?
        public var album: String?
        public var trackNumber: Int?
        public var lengthMicroseconds: Int64?
        /// A live stream: each new title is another listen.
        public var isStream: Bool
        /// The file's MusicBrainz ids (none for a stream).
        public var musicBrainz = MusicBrainzIDs()

        public init(entryID: Int, restarts: Int = 0, artist: String?, title: String?, album: String? = nil,
                    trackNumber: Int? = nil, lengthMicroseconds: Int64?, isStream: Bool = false) {
            self.entryID = entryID
            self.restarts = restarts
            self.artist = artist
            self.title = title
            self.album = album
            self.trackNumber = trackNumber
            self.lengthMicroseconds = lengthMicroseconds
            self.isStream = isStream
        }

        /// Another play: another entry, a restart, or a stream's next title.
        func isSamePlay(as other: Play) -> Bool {
            entryID == other.entryID && restarts == other.restarts
                && (!isStream || (artist == other.artist && title == other.title))
        }
    }

    public enum Event: Equatable, Sendable {
        case playingNow(Listen)
        case listen(Listen)
    }

    public static let shortestCountedSeconds = 30.0
    public static let longestRequiredSeconds = 240.0

    private struct Candidate {
        var play: Play
        var heardSeconds = 0.0
        var soundingSince: Double?
        /// The position at the last look while sounding.
        var lastPosition: Int64?
        var rate = 1.0
        var startedAt: Int64?
        var announced = false
        var counted = false
        /// A stream title that began while it was being listened to (not the one on when tuning in).
        var heardFromItsStart: Bool
    }

    private var current: Candidate?

    public init() {}

    /// Media seconds heard of what plays now (for status and tests).
    public func heardSeconds(now: Double) -> Double {
        guard let current else { return 0 }
        return current.heardSeconds + (current.soundingSince.map { max(0, now - $0) * current.rate } ?? 0)
    }

    /// Takes in what plays (nil: nothing), whether it is heard now (playing, loaded), the rate, the monotonic time
    /// and the wall clock (Unix seconds); returns what to send.
    public mutating func update(play: Play?, sounding: Bool, rate: Double, positionMicroseconds position: Int64, now: Double,
                                wallClock: Int64) -> [Event] {
        var events: [Event] = []
        if var candidate = current {
            candidate.heardSeconds += Self.heardSince(candidate, position: play.map(candidate.play.isSamePlay) == true ? position : nil,
                                                      now: now)
            candidate.soundingSince = nil
            candidate.lastPosition = nil
            current = candidate
        }
        if let candidate = current, play.map({ !$0.isSamePlay(as: candidate.play) }) ?? true {
            if let listen = Self.endedListen(candidate) { events.append(.listen(listen)) }
            let nextTitle = play.map { $0.isStream && $0.entryID == candidate.play.entryID } ?? false
            current = play.map { Candidate(play: $0, heardFromItsStart: nextTitle) }
        } else if current == nil, let play {
            current = Candidate(play: play, heardFromItsStart: false)
        }
        guard var candidate = current, let play else { return events }
        candidate.play = play // tags read later, the length found at preroll
        candidate.rate = max(rate, 0)
        if sounding {
            candidate.soundingSince = now
            candidate.lastPosition = position
            if candidate.startedAt == nil { candidate.startedAt = wallClock }
        }
        if let listen = Self.listen(of: candidate) {
            if sounding, !candidate.announced, Self.threshold(of: candidate.play) != nil {
                candidate.announced = true
                events.append(.playingNow(listen))
            }
            if !candidate.counted, let threshold = Self.threshold(of: candidate.play), candidate.heardSeconds >= threshold {
                candidate.counted = true
                events.append(.listen(listen))
            }
        }
        current = candidate
        return events
    }

    /// How long until what plays counts as a listen, at the rate it plays (nil: not now — paused, counted, too
    /// short, or unnamed).
    public func secondsUntilListen(now: Double) -> Double? {
        guard let current, current.soundingSince != nil, !current.counted, current.rate > 0,
              Self.listen(of: current) != nil, let threshold = Self.threshold(of: current.play) else { return nil }
        return max(0, threshold - heardSeconds(now: now)) / current.rate
    }

    /// What was heard since the last look: the position's move (`position` nil: another play now, so up to the old
    /// one's end), at most the wall time at the rate.
    private static func heardSince(_ candidate: Candidate, position: Int64?, now: Double) -> Double {
        guard let since = candidate.soundingSince else { return 0 }
        let wall = max(0, now - since) * candidate.rate
        guard !candidate.play.isStream, let last = candidate.lastPosition else { return wall }
        if let position { return min(max(0, Double(position - last) / 1e6), wall) }
        guard let length = candidate.play.lengthMicroseconds else { return wall }
        return min(max(0, Double(length - last) / 1e6), wall)
    }

    /// Heard time that makes a listen (nil: never, a track under 30 s).
    static func threshold(of play: Play) -> Double? {
        guard let length = play.lengthMicroseconds, length > 0 else { return longestRequiredSeconds }
        let seconds = Double(length) / 1e6
        guard seconds >= shortestCountedSeconds else { return nil }
        return min(seconds / 2, longestRequiredSeconds)
    }

    /// A radio title that ends after it was heard from its start for 30 s counts (its length was never known).
    private static func endedListen(_ candidate: Candidate) -> Listen? {
        guard candidate.play.isStream, !candidate.counted, candidate.heardFromItsStart,
              candidate.play.lengthMicroseconds == nil, candidate.heardSeconds >= shortestCountedSeconds else { return nil }
        return listen(of: candidate)
    }

    private static func listen(of candidate: Candidate) -> Listen? {
        let play = candidate.play
        guard let artist = play.artist, let title = play.title, !artist.isEmpty, !title.isEmpty,
              let startedAt = candidate.startedAt else { return nil }
        return Listen(artist: artist, title: title, album: play.isStream ? nil : play.album,
                      durationMilliseconds: play.lengthMicroseconds.map { ($0 / 1_000_000 + ($0 % 1_000_000 >= 500_000 ? 1 : 0)) * 1000 }, trackNumber: play.trackNumber,
                      listenedAt: startedAt, musicBrainz: play.isStream ? MusicBrainzIDs() : play.musicBrainz)
    }
}
