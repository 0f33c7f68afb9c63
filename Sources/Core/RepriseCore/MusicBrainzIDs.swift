/// MusicBrainz identifiers from a file's tags, as Picard writes them: the recording (`MUSICBRAINZ_TRACKID`), the
/// release (`MUSICBRAINZ_ALBUMID`), the track on that release (`MUSICBRAINZ_RELEASETRACKID`), the artists
/// (`MUSICBRAINZ_ARTISTID`) and album artists (`MUSICBRAINZ_ALBUMARTISTID`). Only well-formed UUIDs are kept, lower
/// case: anything else in those tags is not an id.
public struct MusicBrainzIDs: Sendable, Hashable {
    public var recording: String?
    public var release: String?
    public var releaseTrack: String?
    public var artists: [String] = []
    public var albumArtists: [String] = []

    public init(recording: String? = nil, release: String? = nil, releaseTrack: String? = nil, artists: [String] = [],
                albumArtists: [String] = []) {
        self.recording = recording
        self.release = release
        self.releaseTrack = releaseTrack
        self.artists = artists
        self.albumArtists = albumArtists
    }

    public var isEmpty: Bool { self == MusicBrainzIDs() }

    /// The UUIDs in `text` — one, or several separated by `;`, `/`, `,` or spaces, as taggers join them — lower case,
    /// each once, at most ``TrackTags/maximumValueCount``.
    public static func ids(in text: String) -> [String] {
        guard text.utf8.count <= 64 * TrackTags.maximumValueCount else { return [] }
        var found: [String] = []
        for part in text.utf8.split(whereSeparator: { [0x3B, 0x2F, 0x2C, 0x20, 0x09, 0x00].contains($0) }) {
            guard let id = uuid(part), !found.contains(id) else { continue }
            found.append(id)
            if found.count == TrackTags.maximumValueCount { break }
        }
        return found
    }

    /// The first UUID of `values`.
    public static func id(in values: [String]) -> String? { values.lazy.flatMap { ids(in: $0) }.first }

    /// `bytes` as a lower-case UUID (8-4-4-4-12 hexadecimal digits), or nil.
    private static func uuid(_ bytes: Substring.UTF8View.SubSequence) -> String? {
        guard bytes.count == 36 else { return nil }
        var text = ""
        text.reserveCapacity(36)
        for (offset, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return nil }
                text.append("-")
                continue
            }
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): text.append(Character(Unicode.Scalar(byte)))
            case UInt8(ascii: "A")...UInt8(ascii: "F"): text.append(Character(Unicode.Scalar(byte + 0x20)))
            default: return nil
            }
        }
        return text
    }

    /// Ids set in `newer` replace ours; those it lacks keep their value.
    public func merged(with newer: MusicBrainzIDs) -> MusicBrainzIDs {
        var result = self
        if let id = newer.recording { result.recording = id }
        if let id = newer.release { result.release = id }
        if let id = newer.releaseTrack { result.releaseTrack = id }
        if !newer.artists.isEmpty { result.artists = newer.artists }
        if !newer.albumArtists.isEmpty { result.albumArtists = newer.albumArtists }
        return result
    }
}
