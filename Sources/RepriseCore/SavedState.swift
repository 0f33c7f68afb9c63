/// What survives a restart: the queue, the current entry and its position, and the settings.
/// Stored as a small line-oriented text (URIs are percent-encoded, so never contain a newline).
public struct SavedState: Equatable, Sendable {
    public var uris: [String] = []
    /// Index into `uris` of the current entry.
    public var currentIndex: Int?
    public var positionMicroseconds: Int64 = 0
    public var loopStatus: LoopStatus = .none
    public var shuffle = false
    public var volume = 1.0
    public var rate = 1.0
    /// Where long files were left (see ``ResumePositions``), oldest first.
    public var resumePositions: [ResumePositions.Mark] = []

    public init() {}

    static let header = "reprise-state 1"

    public func encoded() -> String {
        var lines = [Self.header,
                     "loop \(loopStatus.rawValue)",
                     "shuffle \(shuffle ? 1 : 0)",
                     "volume \(volume)",
                     "rate \(rate)",
                     "position \(positionMicroseconds)"]
        if let currentIndex { lines.append("current \(currentIndex)") }
        lines += uris.map { "entry " + $0 }
        lines += resumePositions.map { "resume \($0.microseconds) \($0.uri)" }
        lines.append("end")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `text`; a missing header or end line (a truncated file) or any malformed line is an error.
    public static func decode(_ text: String) throws(StateError) -> SavedState {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard lines.first == Substring(header) else { throw .malformed("missing header") }
        guard lines.last == "end" else { throw .malformed("truncated (no end line)") }
        var state = SavedState()
        for line in lines.dropFirst().dropLast() {
            let (key, value) = line.firstIndex(of: " ").map { (line[..<$0], String(line[line.index(after: $0)...])) }
                ?? (line, "")
            switch key {
            case "loop":
                guard let loop = LoopStatus(rawValue: value) else { throw .malformed("loop \(value)") }
                state.loopStatus = loop
            case "shuffle": state.shuffle = value == "1"
            case "volume":
                guard let volume = Double(value), volume.isFinite else { throw .malformed("volume \(value)") }
                state.volume = min(max(volume, 0), 1)
            case "rate":
                guard let rate = Double(value), rate.isFinite, rate > 0 else { throw .malformed("rate \(value)") }
                state.rate = rate
            case "position":
                guard let position = Int64(value), position >= 0 else { throw .malformed("position \(value)") }
                state.positionMicroseconds = position
            case "current":
                guard let index = Int(value), index >= 0 else { throw .malformed("current \(value)") }
                state.currentIndex = index
            case "resume":
                let parts = value.split(separator: " ", maxSplits: 1)
                guard parts.count == 2, let position = Int64(parts[0]), position >= 0,
                      parts[1].unicodeScalars.allSatisfy({ $0.value > 0x20 }) else { throw .malformed("resume \(value)") }
                state.resumePositions.append(.init(uri: String(parts[1]), microseconds: position))
            case "entry":
                guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) else { throw .malformed("empty entry") }
                state.uris.append(value)
            default:
                throw .malformed("unknown line '\(key)'")
            }
        }
        if let index = state.currentIndex, index >= state.uris.count { throw .malformed("current \(index) out of range") }
        return state
    }
}

/// A state file that cannot be used.
public enum StateError: Error, Equatable, Sendable {
    case malformed(String)
}
