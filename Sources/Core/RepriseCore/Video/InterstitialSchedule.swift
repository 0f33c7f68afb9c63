/// The interstitials of the loaded media and which have been watched: decides what Seek, SetPosition, Next
/// and "skip" may do. Pure: positions go in, decisions come out.
public struct InterstitialSchedule: Sendable, Equatable {
    public private(set) var interstitials: [Interstitial]
    /// Indices of interstitials played to their end (or skipped when allowed): they restrict nothing more.
    public private(set) var watched: Set<Int> = []
    /// Where a seek that was made to play an interstitial first wanted to go.
    public private(set) var pendingTarget: Int64?

    public init(_ interstitials: [Interstitial] = []) { self.interstitials = interstitials }

    /// What a requested jump becomes.
    public enum SeekDecision: Equatable, Sendable {
        case allow(Int64)
        /// Play the interstitial starting here first; its end continues to the requested target.
        case playInterstitialFirst(Int64)
        case refuse(String)
    }

    /// The interstitial playing at `position`, if it still restricts anything.
    public func active(at position: Int64) -> Int? {
        interstitials.indices.first { !watched.contains($0) && interstitials[$0].contains(position) }
    }

    public mutating func decideSeek(from position: Int64, to target: Int64) -> SeekDecision {
        if let index = active(at: position) {
            let current = interstitials[index]
            if current.forbidsSeekingWithin { return .refuse("seeking is not allowed during \(name(index))") }
            if current.forbidsSkippingPast && target >= current.endMicroseconds {
                return .refuse("\(name(index)) cannot be skipped")
            }
        }
        // Moving forward past an unwatched interstitial that may not be skipped plays it (the earliest) first.
        if target > position, let index = firstUnskippable(after: position, before: target) {
            pendingTarget = target
            return .playInterstitialFirst(interstitials[index].startMicroseconds)
        }
        if let index = interstitials.indices.first(where: { !watched.contains($0) && interstitials[$0].contains(target) }),
           interstitials[index].forbidsSeekingWithin, target != interstitials[index].startMicroseconds {
            return .playInterstitialFirst(interstitials[index].startMicroseconds)
        }
        pendingTarget = nil
        return .allow(target)
    }

    /// Whether Next (leaving the media) is refused at `position`.
    public func forbidsLeaving(at position: Int64) -> Bool {
        guard let index = active(at: position) else { return false }
        return interstitials[index].forbidsSkippingPast && !canSkip(at: position)
    }

    /// The active interstitial has played long enough to be skipped.
    /// (`position` is read only when there are interstitials.)
    public func canSkip(at position: @autoclosure () -> Int64) -> Bool {
        guard !interstitials.isEmpty else { return false }
        let position = position()
        guard let index = active(at: position), let delay = interstitials[index].skippableAfterMicroseconds else { return false }
        return position - interstitials[index].startMicroseconds >= delay
    }

    /// Microseconds until the active interstitial may be skipped (nil: not active or never skippable).
    public func timeUntilSkippable(at position: Int64) -> Int64? {
        guard let index = active(at: position), let delay = interstitials[index].skippableAfterMicroseconds else { return nil }
        return max(0, interstitials[index].startMicroseconds + delay - position)
    }

    /// Skips the active interstitial when allowed: where to jump (its end, or the target a seek wanted).
    public mutating func skip(at position: Int64) -> Int64? {
        guard canSkip(at: position), let index = active(at: position) else { return nil }
        watched.insert(index)
        return continuation(from: interstitials[index].endMicroseconds) ?? interstitials[index].endMicroseconds
    }

    /// Playback reached `position`: interstitials whose end it passed while they were active are watched.
    /// Returns where to jump when one just ended and a seek was waiting for it.
    public mutating func advance(from previous: Int64, to position: Int64) -> Int64? {
        guard let index = active(at: previous), position >= interstitials[index].endMicroseconds else { return nil }
        watched.insert(index)
        return continuation(from: position)
    }

    /// Where a waiting seek goes on from `position`: the next unwatched interstitial that may not be skipped on
    /// the way (the seek keeps waiting), else its target. Nil with no seek waiting.
    private mutating func continuation(from position: Int64) -> Int64? {
        guard let target = pendingTarget, target > position else {
            pendingTarget = nil
            return nil
        }
        if let next = firstUnskippable(after: position, before: target) { return interstitials[next].startMicroseconds }
        pendingTarget = nil
        return target
    }

    /// The earliest unwatched interstitial that may not be skipped, starting at or after `position` and ending
    /// at or before `target`.
    private func firstUnskippable(after position: Int64, before target: Int64) -> Int? {
        interstitials.indices
            .filter { index in
                let interstitial = interstitials[index]
                return !watched.contains(index) && active(at: position) != index && interstitial.forbidsSkippingPast
                    && position < interstitial.startMicroseconds && target >= interstitial.endMicroseconds
            }
            .min { interstitials[$0].startMicroseconds < interstitials[$1].startMicroseconds }
    }

    public func name(_ index: Int) -> String { interstitials[index].title.map { "the interstitial \"\($0)\"" } ?? "the interstitial" }
}
