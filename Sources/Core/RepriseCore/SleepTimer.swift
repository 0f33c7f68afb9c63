/// What a sleep request asks for.
public enum SleepRequest: Sendable, Equatable {
    case off
    /// Pause after this much listening (time that plays; a pause stops the count).
    case after(microseconds: Int64)
    /// Pause when the current track ends (the next one waits, loaded, at its start).
    case endOfTrack
    /// Pause when the current chapter ends (at the next chapter's start).
    case endOfChapter

    /// Parses "off", "end-of-track", "end-of-chapter", or a duration: "90s", "30m", "1h", "1h30m", "1.5h", or a
    /// plain number of minutes; from 1 s to 24 h.
    public static func parse(_ text: String) throws(PlayerError) -> SleepRequest {
        let value = text.trimmingWhitespace().lowercased()
        switch value {
        case "off", "cancel", "none": return .off
        case "end-of-track", "track", "eot": return .endOfTrack
        case "end-of-chapter", "chapter", "eoc": return .endOfChapter
        default: break
        }
        let problem = PlayerError.invalidArgument(
            "sleep takes a duration (90s, 30m, 1h, 1h30m; a plain number is minutes), end-of-track, end-of-chapter or off, not '\(text)'")
        var total = 0.0, number = "", units = 0
        for character in value {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let scale: Double
            switch character {
            case "h": scale = 3600
            case "m": scale = 60
            case "s": scale = 1
            case " ": continue
            default: throw problem
            }
            guard let amount = Double(number) else { throw problem }
            total += amount * scale
            number = ""
            units += 1
        }
        if !number.isEmpty {
            guard let minutes = Double(number), units == 0 else { throw problem }
            total = minutes * 60
        }
        guard total.isFinite, total >= 1, total <= 24 * 3600 else {
            throw .invalidArgument("a sleep timer runs from 1 s to 24 h, not '\(text)'")
        }
        return .after(microseconds: Int64(total * 1_000_000))
    }
}

/// A sleep timer under way: at its end the sound has faded out and the player pauses (position kept, state saved).
/// It is not saved: a restart starts without one.
public struct SleepTimer: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case duration
        case endOfTrack = "end-of-track"
        case endOfChapter = "end-of-chapter"
    }

    public let kind: Kind
    /// Set anew with every timer (a client can tell two timers of one kind apart).
    public let serial: Int
    /// A duration's listening time left.
    var durationLeft: Int64
    /// End of chapter: where the chapter ends (updated when a seek lands in another chapter).
    var chapterEnd: Int64?
    /// How long the fade before the end lasts: 10 s, or half of a shorter timer.
    public let fadeMicroseconds: Int64

    /// The longest fade.
    public static let fullFadeMicroseconds: Int64 = 10_000_000

    init(kind: Kind, serial: Int, left: Int64) {
        self.kind = kind
        self.serial = serial
        durationLeft = left
        fadeMicroseconds = min(Self.fullFadeMicroseconds, max(0, left) / 2)
    }

    /// The share of the level (0…1) to play at with `left` to go: full until the fade, then falling with the
    /// square of the time left (about linear in decibels to the ear), silent at the end.
    public func fadeGain(left: Int64) -> Double {
        guard fadeMicroseconds > 0, left < fadeMicroseconds else { return left > 0 ? 1 : 0 }
        let share = Double(max(0, left)) / Double(fadeMicroseconds)
        return share * share
    }
}

/// The sleep timer as the player keeps it: the one under way, the serial the next gets, and the silence a timer
/// that ended holds until playback is asked for again.
public struct SleepState: Sendable, Equatable {
    /// The sleep timer under way.
    public internal(set) var timer: SleepTimer?
    private var serial = 0
    /// A timer ended: the sound stays faded out until playback is asked for again.
    private var heldSilent = false

    public init() {}

    /// A new timer of `kind` with `left` to go (replacing any).
    mutating func start(_ kind: SleepTimer.Kind, left: Int64, chapterEnd: Int64?) {
        serial += 1
        timer = SleepTimer(kind: kind, serial: serial, left: left)
        timer?.chapterEnd = chapterEnd
    }

    /// The timer ended: no timer, and silence until playback is asked for again.
    mutating func fallAsleep() {
        timer = nil
        heldSilent = true
    }

    /// The sleep fade's share of the level now: the timer's fade with `left` to go, else silence after a timer
    /// ended while not `playing`, else full (and the held silence is over).
    mutating func fade(left: Int64?, playing: Bool) -> Double {
        if let timer, let left { return timer.fadeGain(left: left) }
        if heldSilent, !playing { return 0 }
        heldSilent = false
        return 1
    }
}
