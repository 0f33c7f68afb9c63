/// Where playback of each long file (over 10 minutes) last stopped, so playing it again resumes there
/// ("use the previous end time when resuming playback"). The most recent few hundred files are kept.
public struct ResumePositions: Sendable, Equatable {
    /// Files at least this long (µs) are remembered.
    public static let minimumLength: Int64 = 600_000_000
    /// Positions this close to the start or the end (µs) count as not started or finished: nothing to resume.
    public static let margin: Int64 = 10_000_000
    public static let limit = 500

    /// One remembered position.
    public struct Mark: Sendable, Equatable {
        public let uri: String
        public let microseconds: Int64
    }

    /// Oldest first.
    public private(set) var marks: [Mark] = []

    public init(marks: [Mark] = []) {
        self.marks = Array(marks.suffix(Self.limit))
    }

    public func position(for uri: String) -> Int64? {
        marks.last { $0.uri == uri }?.microseconds
    }

    /// Playback of `uri` (of `length`, when known) left off at `position`: remembered for long files,
    /// forgotten when it was near the start or finished.
    public mutating func record(uri: String, position: Int64, length: Int64?) {
        guard let length, length >= Self.minimumLength else { return }
        forget(uri)
        guard position >= Self.margin, position <= length - Self.margin else { return }
        marks.append(Mark(uri: uri, microseconds: position))
        if marks.count > Self.limit { marks.removeFirst(marks.count - Self.limit) }
    }

    public mutating func forget(_ uri: String) {
        marks.removeAll { $0.uri == uri }
    }
}
