/// The chapters of the loaded entry, the one playing as last announced, and whether Next and Previous step
/// through them (chapter skip): what the player shows of chapters, and the rules of moving between them.
public struct ChapterPlayback: Equatable, Sendable {
    public private(set) var list = ChapterList.empty
    /// The chapter playing, as of the last ``follow(position:)``.
    public private(set) var index: Int?
    /// Next and Previous step through chapters.
    public var skip = false

    public init() {}

    /// Takes `found` (the chapter at `position`, nil when not playing yet); false when empty or unchanged.
    public mutating func take(_ found: ChapterList, position: Int64?) -> Bool {
        guard !found.isEmpty, found != list else { return false }
        list = found
        index = position.flatMap(list.index(at:))
        return true
    }

    /// The chapter at `position`; true when it is another than the one before.
    public mutating func follow(position: Int64) -> Bool {
        let now = list.index(at: position)
        guard now != index else { return false }
        index = now
        return true
    }

    /// The loaded entry went: no chapters.
    public mutating func forget() {
        list = .empty
        index = nil
    }

    /// The title of the chapter playing.
    public var title: String? { index.flatMap { $0 < list.count ? list.chapters[$0].title : nil } }

    /// Where the chapter at `position` ends (the next one's start, else the track's end).
    public func end(at position: Int64, lengthMicroseconds: Int64?) -> Int64? {
        guard !list.isEmpty, let index = list.index(at: position) else { return nil }
        return list.end(of: index, lengthMicroseconds: lengthMicroseconds)
    }

    /// With chapter skip on: the start of the chapter Next goes to from `position` (nil: the next track).
    /// (`position` is read only when chapter skip is on and the track has chapters: asking the pipeline costs a
    /// round through the sound server's lock.)
    public func skipNextStart(from position: @autoclosure () -> Int64) -> Int64? {
        guard skip, !list.isEmpty else { return nil }
        return list.nextStart(after: position())
    }

    /// With chapter skip on: where Previous goes inside the track (nil: to the previous track) — past the first
    /// chapter, as the Chapters interface's Previous (the current chapter's start when more than 3 s into it, else
    /// the previous chapter's); in the first chapter, to the previous track as without chapters.
    public func skipPreviousStart(from position: @autoclosure () -> Int64) -> Int64? {
        guard skip, !list.isEmpty else { return nil }
        let position = position()
        guard let index = list.index(at: position), index > 0 else { return nil }
        return list.previousStart(before: position)
    }
}
