/// Values past the first of the tags a track keeps with one value — title, album, date, track, disc, the sort names,
/// the single MusicBrainz ids, a stream's name — in the order read: MPD clients see every value (as MPD lists them),
/// MPRIS and the widgets the first.
public struct FurtherValues: Sendable, Hashable {
    public private(set) var values: [TagOrder.Tag: [String]] = [:]

    public init() {}

    public var isEmpty: Bool { values.isEmpty }

    /// The further values of `tag`, in order (none: empty).
    public subscript(tag: TagOrder.Tag) -> [String] {
        get { values[tag] ?? [] }
        set { values[tag] = newValue.isEmpty ? nil : newValue }
    }

    /// Adds a value (an empty one is no value); the separators the index keeps them with become spaces.
    public mutating func append(_ tag: TagOrder.Tag, _ value: String) {
        guard !value.isEmpty else { return }
        values[tag, default: []].append(String(value.map { $0 == Self.entrySeparator || $0 == Self.nameSeparator ? " " : $0 }))
    }

    static let entrySeparator: Character = "\u{1E}", nameSeparator: Character = "\u{1F}"

    /// As the library's index keeps them: `NAME` U+001F `VALUE` (MPD's name of the tag), entries joined by U+001E, the
    /// tags in a fixed order and each tag's values in theirs; nil when there are none.
    public var storedText: String? {
        guard !isEmpty else { return nil }
        return values.keys.sorted { $0.rawValue < $1.rawValue }.flatMap { tag in
            values[tag]!.map { tag.mpdName + String(Self.nameSeparator) + $0 }
        }.joined(separator: String(Self.entrySeparator))
    }

    /// Reads ``storedText``; an entry that is not one (an unknown name, no separator) is left out: the index is input
    /// like any file.
    public init(storedText: String) {
        for entry in storedText.split(separator: Self.entrySeparator) {
            guard let separator = entry.firstIndex(of: Self.nameSeparator),
                  let tag = TagOrder.tag(mpdName: String(entry[..<separator])) else { continue }
            append(tag, String(entry[entry.index(after: separator)...]))
        }
    }
}
