/// The lyrics of the loaded entry and the synced line sung now: what the player shows of lyrics, and its rules.
public struct LyricsTiming: Equatable, Sendable {
    public private(set) var lyrics: Lyrics?
    /// The synced line sung now, as of the last ``follow(position:)``.
    public private(set) var line: Int?
    /// Counts every change of ``lyrics`` (found, forgotten): what tells clients the lines changed.
    public private(set) var serial = 0

    public init() {}

    /// Takes `found` (the line at `position`, nil when not playing yet); false when they are the ones kept already.
    public mutating func take(_ found: Lyrics, position: Int64?) -> Bool {
        guard found != lyrics else { return false }
        lyrics = found
        serial += 1
        line = position.flatMap(found.lineIndex(at:))
        return true
    }

    /// The line at `position` (nil: nothing plays); true when it is another than the one before.
    public mutating func follow(position: Int64?) -> Bool {
        guard let lyrics, lyrics.isSynced else { return false }
        let index = position.flatMap(lyrics.lineIndex(at:))
        guard index != line else { return false }
        line = index
        return true
    }

    /// The loaded entry went: no lyrics (a change when there were some).
    public mutating func forget() {
        if lyrics != nil { serial += 1 }
        lyrics = nil
        line = nil
    }
}
