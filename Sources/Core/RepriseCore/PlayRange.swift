/// The part of a medium a queue entry plays instead of all of it (MPD's `rangeid`): from `start` up to `end` (nil: the
/// medium's end), in microseconds of the medium. The entry then behaves as a shorter medium: its length is the range's,
/// and positions, seeks and Position are counted from the range's start.
public struct PlayRange: Hashable, Sendable {
    public let startMicroseconds: Int64
    public let endMicroseconds: Int64?

    /// Nil unless `start` ≥ 0 and `end`, when given, lies after it; a range of the whole medium is nil too.
    public init?(startMicroseconds: Int64, endMicroseconds: Int64?) {
        guard startMicroseconds >= 0 else { return nil }
        if let end = endMicroseconds, end <= startMicroseconds { return nil }
        guard startMicroseconds > 0 || endMicroseconds != nil else { return nil }
        self.startMicroseconds = startMicroseconds
        self.endMicroseconds = endMicroseconds
    }

    /// The range's length in a medium `mediumLength` long (nil: unknown); nil when neither is known.
    public func length(ofMedium mediumLength: Int64?) -> Int64? {
        let end = switch (endMicroseconds, mediumLength) {
        case let (end?, medium?): min(end, medium)
        case let (end?, nil): end
        case let (nil, medium?): medium
        case (nil, nil): Int64?.none
        }
        return end.map { max(0, $0 - startMicroseconds) }
    }

    /// The range fitted to a medium `mediumLength` long, as MPD fits it: an end at or past the medium's end plays to
    /// the end (nil when nothing is left of the range); nil `mediumLength` keeps it as it is. Throws when it starts
    /// past the medium's end.
    public func fitted(toMedium mediumLength: Int64?) throws(PlayerError) -> PlayRange? {
        guard let medium = mediumLength, medium > 0 else { return self }
        guard startMicroseconds <= medium else {
            throw .invalidArgument("the range starts at \(startMicroseconds / 1000) ms, past the end (\(medium / 1000) ms)")
        }
        guard let end = endMicroseconds, end >= medium else { return self }
        return PlayRange(startMicroseconds: startMicroseconds, endMicroseconds: nil)
    }
}
