import RepriseCore

/// The songs of an ``MPDLibrarySnapshot`` — each with its MPD name and its track as the index described it — kept
/// compactly for as long as the library does not change: a song is a record of small numbers, about a fifth of a
/// ``LibraryTrack``'s size, its texts ranges of one buffer of UTF-8 (the tag values an album's songs share, such as
/// artist, album and genre, kept once). No string of the index's rows is kept: one left among their freed blocks
/// would keep its page resident. Reading a song builds its track from the record. Exact: a song that does not fit a
/// record (a year or track number beyond 32 bits, ids that cannot be joined, a second title or album…) is kept whole
/// beside it.
public struct MPDSongTable: RandomAccessCollection, Sendable {
    public typealias Element = (name: String, track: LibraryTrack)

    /// One song: texts (a list of ids joined by commas) as positions in ``texts`` (0: none), numbers with a value
    /// that stands for none.
    struct Record: Sendable {
        var name: UInt32, path: UInt32, title: UInt32, artist: UInt32, album: UInt32, albumArtist: UInt32, genre: UInt32
        var artistSort: UInt32, albumSort: UInt32, albumArtistSort: UInt32
        var recording: UInt32, release: UInt32, releaseTrack: UInt32, artistIDs: UInt32, albumArtistIDs: UInt32
        var year: Int32, disc: Int32, track: Int32
        /// The DATE tag as the file has it (0: none).
        var date: UInt32
        var lengthMicroseconds: Int64
        var id: Int64
        /// The file's last change in seconds since 1970 (``noLength``: unknown); its `Format` as MPD writes it (a text).
        var modifiedSeconds: Int64, format: UInt32
        /// Its further tags, as the index keeps them (``MoreTags/storedText``).
        var moreTags: UInt32
        /// The order its file has its tags in: a position in ``orders``.
        var tagOrder: UInt32
    }

    static let noNumber = Int32.min, noLength = Int64.min

    /// What the table holds, in one box: a ``Song`` lent from it (one for each song a listing writes) keeps one
    /// reference, not one for each of its buffers.
    private final class Storage: Sendable {
        let records: [Record]
        /// The music folder with a slash after it: a song's path is this and its name (or its name, when absolute)
        /// unless its record names a path of its own.
        let folderPrefix: String
        /// The texts; the first (position 0) stands for none.
        let texts: MPDTextBuffer
        /// Songs that do not fit a ``Record``, by position.
        let unusual: [Int: LibraryTrack]
        /// The songs' positions in the order filters go through them (MPD's tree order; none given: by name).
        let order: [Int32]?
        /// The orders of tags the songs' files have, each once (the songs of a library share a handful); the first is none.
        let orders: [TagOrder]

        init(records: [Record], folderPrefix: String, texts: MPDTextBuffer, unusual: [Int: LibraryTrack], order: [Int32]?,
             orders: [TagOrder]) {
            (self.records, self.folderPrefix, self.texts) = (records, folderPrefix, texts)
            (self.unusual, self.order, self.orders) = (unusual, order, orders)
        }
    }

    private let storage: Storage

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.records.count }

    /// `songs` as they are (in their order), named as MPD names them under `folderPrefix` (the music folder and a
    /// slash): each track's cover, lyrics and loudness are not kept (MPD serves none of them), nor whether it is
    /// available (only available tracks are snapshot).
    init(_ songs: [(name: String, track: LibraryTrack)], folderPrefix: String, order: [Int32]? = nil) {
        var builder = Builder()
        var records: [Record] = []
        records.reserveCapacity(songs.count)
        var unusual: [Int: LibraryTrack] = [:]
        for (index, (name, track)) in songs.enumerated() {
            guard let year = Self.packed(track.year), let disc = Self.packed(track.disc), let number = Self.packed(track.track),
                  track.lengthMicroseconds != Self.noLength, track.id != Self.noLength, track.fileFacts.modifiedSeconds != Self.noLength,
                  track.furtherValues.isEmpty,
                  let artistIDs = builder.list(track.musicBrainz.artists), let albumArtistIDs = builder.list(track.musicBrainz.albumArtists) else {
                unusual[index] = Self.kept(track)
                records.append(Record(name: builder.unique(name), path: 0, title: 0, artist: 0, album: 0, albumArtist: 0, genre: 0,
                                      artistSort: 0, albumSort: 0, albumArtistSort: 0, recording: 0, release: 0, releaseTrack: 0, artistIDs: 0, albumArtistIDs: 0,
                                      year: 0, disc: 0, track: 0, date: 0, lengthMicroseconds: 0, id: 0, modifiedSeconds: 0, format: 0, moreTags: 0,
                                      tagOrder: 0))
                continue
            }
            let ids = track.musicBrainz
            records.append(Record(
                name: builder.unique(name),
                path: Self.path(ofName: name, under: folderPrefix) == track.path.escaped ? 0 : builder.unique(track.path.escaped),
                title: builder.unique(track.title),
                artist: builder.shared(track.artist), album: builder.shared(track.album), albumArtist: builder.shared(track.albumArtist),
                genre: builder.shared(track.genresText), artistSort: builder.shared(track.sortNames.artist),
                albumSort: builder.shared(track.sortNames.album), albumArtistSort: builder.shared(track.sortNames.albumArtist), recording: builder.unique(ids.recording), release: builder.shared(ids.release),
                releaseTrack: builder.unique(ids.releaseTrack), artistIDs: artistIDs, albumArtistIDs: albumArtistIDs,
                year: year, disc: disc, track: number, date: builder.shared(track.date), lengthMicroseconds: track.lengthMicroseconds ?? Self.noLength,
                id: track.id ?? Self.noLength, modifiedSeconds: track.fileFacts.modifiedSeconds ?? Self.noLength,
                format: builder.shared(track.fileFacts.encoding.flatMap(MPDSongWriter.format(of:))),
                moreTags: builder.unique(track.moreTags.storedText), tagOrder: builder.order(track.tagOrder)))
        }
        builder.texts.shrink()
        storage = Storage(records: records, folderPrefix: folderPrefix, texts: builder.texts, unusual: unusual, order: order,
                          orders: builder.orders)
    }

    public subscript(position: Int) -> Element {
        let record = storage.records[position]
        let name = own(record.name)!
        if let track = storage.unusual[position] { return (name, track) }
        var track = LibraryTrack(
            path: path(of: record), title: own(record.title), artist: own(record.artist),
            album: own(record.album), albumArtist: own(record.albumArtist), year: Self.number(record.year),
            disc: Self.number(record.disc), track: Self.number(record.track),
            lengthMicroseconds: record.lengthMicroseconds == Self.noLength ? nil : record.lengthMicroseconds,
            id: record.id == Self.noLength ? nil : record.id)
        track.genresText = own(record.genre)
        track.date = own(record.date)
        track.sortNames = SortNames(artist: own(record.artistSort), albumArtist: own(record.albumArtistSort), album: own(record.albumSort))
        track.musicBrainz = MusicBrainzIDs(recording: own(record.recording), release: own(record.release),
                                           releaseTrack: own(record.releaseTrack), artists: list(record.artistIDs),
                                           albumArtists: list(record.albumArtistIDs))
        track.fileFacts.modifiedSeconds = record.modifiedSeconds == Self.noLength ? nil : record.modifiedSeconds
        track.moreTags = own(record.moreTags).map(MoreTags.init(storedText:)) ?? MoreTags()
        track.tagOrder = storage.orders[Int(record.tagOrder)]
        return (name, track)
    }

    /// The song at `position` as filters read it (no track built).
    public func song(at position: Int) -> Song { Song(table: self, position: position) }

    /// The positions of the songs `filter` matches, in MPD's tree order (no track built).
    public func positions(matching filter: MPDFilter) -> [Int] {
        guard let order = storage.order else { return indices.filter { filter.matches(Song(table: self, position: $0)) } }
        return order.lazy.map(Int.init).filter { filter.matches(Song(table: self, position: $0)) }
    }

    /// A song of the table as filters read it: each value lent from the table's buffer.
    public struct Song: MPDFilterableSong {
        let table: MPDSongTable
        let position: Int
        /// The song's record; nil when it is kept whole (``unusualTrack``).
        private let record: Record?

        init(table: MPDSongTable, position: Int) {
            self.table = table
            self.position = position
            record = table.storage.unusual.isEmpty || table.storage.unusual[position] == nil ? table.storage.records[position] : nil
        }

        public var name: String { table.name(at: position) }

        /// The whole track, for a song that did not fit a record (nil for every other).
        var unusualTrack: LibraryTrack? { record == nil ? table.storage.unusual[position] : nil }

        var lengthMicroseconds: Int64? {
            guard let length = record?.lengthMicroseconds else { return unusualTrack?.lengthMicroseconds }
            return length == MPDSongTable.noLength ? nil : length
        }

        /// When the song's file last changed, in seconds since 1970.
        var modifiedSeconds: Int64? {
            guard let modified = record?.modifiedSeconds else { return unusualTrack?.fileFacts.modifiedSeconds }
            return modified == MPDSongTable.noLength ? nil : modified
        }

        /// The order the song's file has its tags in (empty: unknown).
        var tagOrder: TagOrder {
            guard let record else { return unusualTrack?.tagOrder ?? TagOrder() }
            return table.storage.orders[Int(record.tagOrder)]
        }

        /// Lends each of the song's further tags (its MPD name, its value) to `body`, in the order read.
        func forEachMoreTag(_ body: (MoreTags.Name, UnsafeBufferPointer<UInt8>) -> Void) {
            guard let record else {
                for entry in unusualTrack?.moreTags.entries ?? [] { _ = MPDNamedTrack.lend(entry.value) { body(entry.name, $0); return false } }
                return
            }
            guard record.moreTags != 0 else { return }
            _ = table.storage.texts.lend(Int(record.moreTags)) { text in
                MPDSongTable.forEachMoreTag(in: text, body)
                return true
            }
        }

        /// Lends the song's `Format` (as MPD writes it) to `body`, when it has one.
        func withFormat(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            guard let record else {
                if let format = unusualTrack?.fileFacts.encoding.flatMap(MPDSongWriter.format(of:)) {
                    _ = MPDNamedTrack.lend(format) { body($0); return true }
                }
                return
            }
            if record.format != 0 { _ = table.storage.texts.lend(Int(record.format)) { body($0); return true } }
        }

        public func anyValue(_ field: MPDSongField, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            anyValue(field, fallsBack: true, body)
        }

        /// ``anyValue(_:_:)``; `fallsBack` false: the album artist and sort tags themselves, none when the file has
        /// none (what a listing writes).
        func anyValue(_ field: MPDSongField, fallsBack: Bool, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
            guard let record else {
                let track = table.storage.unusual[position]!
                if !fallsBack, let own = MPDSongTable.ownValues(field, of: track) { return own.contains { MPDNamedTrack.lend($0, body) } }
                return MPDNamedTrack(name: name, track: track).anyValue(field, body)
            }
            let storage = table.storage
            func text(_ id: UInt32) -> Bool { id != 0 && storage.texts.lend(Int(id), body) }
            func number(_ value: Int32) -> Bool {
                guard value != MPDSongTable.noNumber else { return false }
                // Its digits written on the stack (a listing lends a track and a disc a song): no string made.
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 11) { digits in
                    var magnitude = value.magnitude, start = digits.count
                    repeat {
                        start -= 1
                        digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                        magnitude /= 10
                    } while magnitude > 0
                    if value < 0 {
                        start -= 1
                        digits[start] = UInt8(ascii: "-")
                    }
                    return body(UnsafeBufferPointer(rebasing: digits[start...]))
                }
            }
            func list(_ id: UInt32, separator: UInt8 = UInt8(ascii: ",")) -> Bool {
                id != 0 && storage.texts.lend(Int(id)) { joined in
                    joined.split(separator: separator).contains { body(UnsafeBufferPointer(rebasing: $0)) }
                }
            }
            if let name = field.moreTagName {
                guard record.moreTags != 0 else { return false }
                var found = false
                _ = storage.texts.lend(Int(record.moreTags)) { text in
                    MPDSongTable.forEachMoreTag(in: text) { entry, value in
                        if !found && entry == name { found = body(value) }
                    }
                    return true
                }
                return found
            }
            return switch field {
            case .artist: text(record.artist)
            case .album: text(record.album)
            case .albumArtist: record.albumArtist != 0 || !fallsBack ? text(record.albumArtist) : text(record.artist)
            case .artistSort: record.artistSort != 0 || !fallsBack ? text(record.artistSort) : text(record.artist)
            case .albumSort: record.albumSort != 0 || !fallsBack ? text(record.albumSort) : text(record.album)
            case .albumArtistSort:
                record.albumArtistSort != 0 || !fallsBack ? text(record.albumArtistSort)
                    : record.albumArtist != 0 ? text(record.albumArtist) : record.artistSort != 0 ? text(record.artistSort) : text(record.artist)
            case .title: text(record.title)
            case .track: number(record.track)
            case .genre: list(record.genre, separator: 0x1F) // the genres, as the index joins them
            case .date: record.date != 0 ? text(record.date) : number(record.year)
            case .disc: number(record.disc)
            case .artistIDs: list(record.artistIDs)
            case .release: text(record.release)
            case .albumArtistIDs: list(record.albumArtistIDs)
            case .recording: text(record.recording)
            case .releaseTrack: text(record.releaseTrack)
            case .file: text(record.name)
            default: false
            }
        }
    }

    /// Each entry of further tags kept as ``MoreTags/storedText`` (as UTF-8), its name and its value; an entry of
    /// no known name is passed over.
    static func forEachMoreTag(in text: UnsafeBufferPointer<UInt8>, _ body: (MoreTags.Name, UnsafeBufferPointer<UInt8>) -> Void) {
        for entry in text.split(separator: 0x1E) {
            guard let separator = entry.firstIndex(of: 0x1F),
                  let name = MoreTags.Name(rawValue: String(decoding: UnsafeBufferPointer(rebasing: text[entry.startIndex..<separator]), as: UTF8.self))
            else { continue }
            body(name, UnsafeBufferPointer(rebasing: text[(separator + 1)..<entry.endIndex]))
        }
    }

    /// A field that falls back when filtered (the album artist, the sort names), with the values the file has (none:
    /// empty); nil for every other field.
    static func ownValues(_ field: MPDSongField, of track: LibraryTrack) -> [String]? {
        func values(_ first: String?, _ tag: TagOrder.Tag) -> [String] { first.map { [$0] + track.furtherValues[tag] } ?? [] }
        return switch field {
        case .albumArtist: values(track.albumArtist, .albumArtist)
        case .artistSort: values(track.sortNames.artist, .artistSort)
        case .albumSort: values(track.sortNames.album, .albumSort)
        case .albumArtistSort: values(track.sortNames.albumArtist, .albumArtistSort)
        default: nil
        }
    }

    /// The song's MPD name alone (no track built).
    public func name(at position: Int) -> String { own(storage.records[position].name)! }

    /// The song's file alone (no track built).
    public func path(at position: Int) -> FilePath {
        storage.unusual[position]?.path ?? path(of: storage.records[position])
    }

    private func path(of record: Record) -> FilePath {
        FilePath(escaped: own(record.path) ?? Self.path(ofName: own(record.name)!, under: storage.folderPrefix))
    }

    /// The path a name stands for (the inverse of ``MPDSongWriter/name(ofPath:)``).
    private static func path(ofName name: String, under folderPrefix: String) -> String {
        name.hasPrefix("/") ? name : folderPrefix + name
    }

    private func own(_ id: UInt32) -> String? { id == 0 ? nil : storage.texts[Int(id)] }

    /// A list of ids, kept as one text (they are UUIDs: no comma in any).
    private func list(_ id: UInt32) -> [String] { id == 0 ? [] : storage.texts[Int(id)].split(separator: ",").map(String.init) }

    /// A number as the record keeps it (``noNumber`` for none); nil when it does not fit.
    private static func packed(_ value: Int?) -> Int32? {
        guard let value else { return noNumber }
        guard let small = Int32(exactly: value), small != noNumber else { return nil }
        return small
    }

    private static func number(_ value: Int32) -> Int? { value == noNumber ? nil : Int(value) }

    /// What the snapshot keeps of a track: what MPD serves (no cover, lyrics or loudness).
    static func kept(_ track: LibraryTrack) -> LibraryTrack {
        var kept = track
        kept.cover = nil
        kept.lyrics = nil
        kept.loudness = LoudnessTags()
        return kept
    }

    /// The table being made: texts met once (names, paths, titles) appended, tag values looked up so that each is
    /// kept once.
    private struct Builder {
        var texts = MPDTextBuffer()
        private var known: [String: UInt32] = [:]
        private(set) var orders = [TagOrder()]
        private var knownOrders: [TagOrder: UInt32] = [TagOrder(): 0]

        /// The position of `order` in ``orders``, added there when new.
        mutating func order(_ order: TagOrder) -> UInt32 {
            if let position = knownOrders[order] { return position }
            let position = UInt32(orders.count)
            orders.append(order)
            knownOrders[order] = position
            return position
        }

        init() { _ = texts.append("") }

        mutating func unique(_ value: String?) -> UInt32 {
            guard let value else { return 0 }
            return UInt32(texts.append(value))
        }

        mutating func shared(_ value: String?) -> UInt32 {
            guard let value else { return 0 }
            if let id = known[value] { return id }
            let id = unique(value)
            known[value] = id
            return id
        }

        /// A list of ids as one text; nil when it cannot be one (a value with a comma, or empty).
        mutating func list(_ values: [String]) -> UInt32? {
            if values.isEmpty { return 0 }
            guard values.allSatisfy({ !$0.isEmpty && !$0.contains(",") }) else { return nil }
            return shared(values.joined(separator: ","))
        }
    }
}
