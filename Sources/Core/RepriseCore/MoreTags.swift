/// The tags beyond those every view shows — composer, performers, conductor, work and movement, ensemble, location,
/// grouping, label, original date, the work's MusicBrainz id — in the order read (TagLib gives a file's properties by
/// key, each key's values in the file's order), each value as the file has it.
/// Kept by the library (MPD clients list, find and show them, as classical collections need).
public struct MoreTags: Sendable, Hashable {
    /// Each tag, by the name MPD gives it.
    public enum Name: String, Sendable, CaseIterable {
        case originalDate = "OriginalDate", composer = "Composer", composerSort = "ComposerSort", performer = "Performer"
        case conductor = "Conductor", work = "Work", movement = "Movement", movementNumber = "MovementNumber"
        case ensemble = "Ensemble", location = "Location", grouping = "Grouping", label = "Label"
        case musicBrainzWork = "MUSICBRAINZ_WORKID"

        /// The tag a file's property (TagLib's key, upper case) is, as MPD reads a Vorbis comment: by the tag's own
        /// name, and `MOVEMENTNAME` the movement, `MOVEMENT` its number; nil for any other.
        public init?(propertyKey key: String) {
            guard let name = Self.byPropertyKey[key] else { return nil }
            self = name
        }

        private static let byPropertyKey: [String: Name] = [
            "ORIGINALDATE": .originalDate, "COMPOSER": .composer, "COMPOSERSORT": .composerSort, "PERFORMER": .performer,
            "CONDUCTOR": .conductor, "WORK": .work, "MOVEMENTNAME": .movement, "MOVEMENT": .movementNumber,
            "MOVEMENTNUMBER": .movementNumber, "ENSEMBLE": .ensemble, "LOCATION": .location, "GROUPING": .grouping,
            "LABEL": .label, "MUSICBRAINZ_WORKID": .musicBrainzWork,
        ]
    }

    /// One value of one tag.
    public struct Entry: Sendable, Hashable {
        public var name: Name
        public var value: String
    }

    /// Every value, in the order read.
    public private(set) var entries: [Entry] = []

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }

    /// Adds a value (an empty one is no value); the separators the index keeps them with become spaces.
    public mutating func append(_ name: Name, _ value: String) {
        guard !value.isEmpty else { return }
        entries.append(Entry(name: name, value: String(value.map { $0 == Self.entrySeparator || $0 == Self.nameSeparator ? " " : $0 })))
    }

    /// Removes every value of one tag.
    public mutating func removeAll(_ name: Name) { entries.removeAll { $0.name == name } }

    /// The values of one tag, in order.
    public func values(of name: Name) -> [String] { entries.filter { $0.name == name }.map(\.value) }

    static let entrySeparator: Character = "\u{1E}", nameSeparator: Character = "\u{1F}"

    /// As the library's index keeps them: `NAME` U+001F `VALUE`, entries joined by U+001E; nil when there are none.
    public var storedText: String? {
        isEmpty ? nil : entries.map { $0.name.rawValue + String(Self.nameSeparator) + $0.value }.joined(separator: String(Self.entrySeparator))
    }

    /// Reads ``storedText``; an entry that is not one (an unknown name, no separator) is left out: the index is input
    /// like any file.
    public init(storedText: String) {
        for entry in storedText.split(separator: Self.entrySeparator) {
            guard let separator = entry.firstIndex(of: Self.nameSeparator),
                  let name = Name(rawValue: String(entry[..<separator])) else { continue }
            append(name, String(entry[entry.index(after: separator)...]))
        }
    }
}
