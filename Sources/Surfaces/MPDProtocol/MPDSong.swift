import RepriseCore

/// The tag types a connection wants written (`tagtypes`), as listings check them, several times a song: when it
/// wants every tag Reprise writes (as a connection does until it says otherwise), no name is looked up.
public struct MPDWantedTags: Sendable {
    public let names: Set<String>
    private let wantsEveryTag: Bool

    public init(_ names: Set<String>) {
        self.names = names
        wantsEveryTag = MPDSongWriter.tagTypes.allSatisfy(names.contains)
    }

    /// Whether tag `key` (one of ``MPDSongWriter/tagTypes``) is written.
    public func contains(_ key: String) -> Bool { wantsEveryTag || names.contains(key) }
}

/// How a queue entry or a library track is written to an MPD client: `file:` (relative to the music folder when it
/// is inside it), its tags in MPD's names (of those the connection asked for), `Time`/`duration`, and for the
/// queue `Pos`/`Id`.
public struct MPDSongWriter: Sendable {
    /// The tag names Reprise has, as `tagtypes` lists them (MPD 0.23 lists no `Comment`: it is not sent).
    public static let tagTypes = ["Artist", "ArtistSort", "Album", "AlbumSort", "AlbumArtist", "AlbumArtistSort", "Title", "Track", "Name", "Genre", "Date",
                                  "OriginalDate", "Composer", "ComposerSort", "Performer", "Conductor", "Work", "Movement", "MovementNumber",
                                  "Ensemble", "Location", "Grouping", "Disc", "Label", "MUSICBRAINZ_ARTISTID", "MUSICBRAINZ_ALBUMID",
                                  "MUSICBRAINZ_ALBUMARTISTID", "MUSICBRAINZ_TRACKID", "MUSICBRAINZ_RELEASETRACKID", "MUSICBRAINZ_WORKID"]

    /// The music folder, without a trailing slash: files inside it are named relative to it.
    public let musicFolder: String
    /// The music folder with a slash after it: what a file's name is relative to.
    let folderPrefix: String

    public init(musicFolder: String) {
        var folder = musicFolder
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        self.musicFolder = folder
        folderPrefix = folder == "/" ? "/" : folder + "/"
    }

    /// The name an MPD client sees for `uri`: a path relative to the music folder, an absolute path for other local
    /// files, the URI itself for streams.
    public func name(of uri: String) -> String {
        guard let parsed = MediaURI(uri), parsed.scheme == "file" else { return uri }
        return name(ofLocalPath: parsed.path)
    }

    /// The URI the player is given for what a client named `name`: a path relative to the music folder, an absolute
    /// path, or a URI with a scheme — `SCHEME://…`, as MPD tells one (a file named `Live: 2020.ogg` is a file).
    public func uri(forName name: String) -> String {
        if name.contains(text: "://"), MediaURI(name) != nil { return name }
        return uri(ofLibraryName: name)
    }

    /// The URI of the library's song named `name` (a path relative to the music folder, or absolute outside it).
    public func uri(ofLibraryName name: String) -> String {
        if name.hasPrefix("/") { return MediaURI.file(path: name) }
        return MediaURI.file(path: (musicFolder == "/" ? "" : musicFolder) + "/" + name)
    }

    /// The name of a library track's file: relative to the music folder (an absolute path outside it).
    public func name(ofPath path: FilePath) -> String { name(ofLocalPath: path.escaped) }

    /// `path` relative to the music folder when it is inside it (the folder's bytes and a slash first), else as it is.
    private func name(ofLocalPath path: String) -> String {
        let bytes = path.utf8
        guard bytes.starts(with: folderPrefix.utf8) else { return path }
        return String(path[bytes.index(bytes.startIndex, offsetBy: folderPrefix.utf8.count)...])
    }

    /// Writes a library track.
    public func write(_ track: LibraryTrack, name: String, to call: MPDCall) {
        write(track, name: name, wanted: call.session.wantedTags, into: &call.session.output)
    }

    /// Writes a library track into `response` (off the loop: a listing of the whole library is made where the index
    /// is read), its fields as they are — no tags made in between — in the order ``writeTags(_:lengthMicroseconds:to:)``
    /// writes them; `wanted`: the connection's tag types.
    public func write(_ track: LibraryTrack, name: String, wanted: MPDWantedTags, into response: inout MPDResponse) {
        response.add("file", name)
        Self.writeFileFacts(track.fileFacts, into: &response)
        var run = ValueRun.all, index = 0 // the place's run of values, and the tag's next value's index
        func tag(_ key: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            defer { index += 1 }
            if run.lists(index), wanted.contains(key) { response.add(key, value) }
        }
        func list(_ key: String, _ values: [String]) {
            for value in values { tag(key, value) }
        }
        /// A tag kept with one value: that value, then the file's later ones.
        func first(_ key: String, _ value: String?, _ further: TagOrder.Tag) {
            tag(key, value)
            if value != nil, !track.furtherValues.isEmpty { list(key, track.furtherValues[further]) }
        }
        let ids = track.musicBrainz
        Self.writeTags(in: track.tagOrder, moreTags: { written in
            run = .all
            for entry in track.moreTags.entries where !written(TagOrder.Tag(entry.name)) {
                index = 0
                tag(entry.name.rawValue, entry.value)
            }
        }) { kind, placeRun in
            run = placeRun
            index = 0
            switch kind {
            case .title: first("Title", track.title, .title)
            case .artist: list("Artist", track.artists)
            case .artistSort: first("ArtistSort", track.sortNames.artist, .artistSort)
            case .album: first("Album", track.album, .album)
            case .albumSort: first("AlbumSort", track.sortNames.album, .albumSort)
            case .albumArtist: first("AlbumArtist", track.albumArtist, .albumArtist)
            case .albumArtistSort: first("AlbumArtistSort", track.sortNames.albumArtist, .albumArtistSort)
            case .track: first("Track", track.track.map(String.init), .track)
            case .disc: first("Disc", track.disc.map(String.init), .disc)
            case .date: first("Date", track.date ?? track.year.map(String.init), .date)
            case .genre: list("Genre", track.genres)
            case .musicBrainzArtist: list("MUSICBRAINZ_ARTISTID", ids.artists)
            case .musicBrainzAlbum: first("MUSICBRAINZ_ALBUMID", ids.release, .musicBrainzAlbum)
            case .musicBrainzAlbumArtist: list("MUSICBRAINZ_ALBUMARTISTID", ids.albumArtists)
            case .musicBrainzTrack: first("MUSICBRAINZ_TRACKID", ids.recording, .musicBrainzTrack)
            case .musicBrainzReleaseTrack: first("MUSICBRAINZ_RELEASETRACKID", ids.releaseTrack, .musicBrainzReleaseTrack)
            default: if let name = kind.moreTagName { list(name.rawValue, track.moreTags.values(of: name)) }
            }
        }
        Self.writeLength(track.lengthMicroseconds, into: &response)
    }

    /// Writes a song of the library's snapshot as ``write(_:name:wanted:into:)`` writes its track, each value lent
    /// from the table (nothing built: a listing of the whole library writes straight from it); `writesFormat` false:
    /// without its `Format`.
    public func write(_ song: MPDSongTable.Song, wanted: MPDWantedTags, writesFormat: Bool = true, into response: inout MPDResponse) {
        if var track = song.unusualTrack {
            if !writesFormat { track.fileFacts.encoding = nil }
            return write(track, name: song.name, wanted: wanted, into: &response)
        }
        var run = ValueRun.all // the place's run of values
        func tag(_ key: String, _ field: MPDSongField) {
            var isWanted: Bool? // asked once the song has a value
            var index = 0
            _ = song.anyValue(field, fallsBack: false) { value in
                let writes = isWanted ?? (key == "file" || wanted.contains(key))
                isWanted = writes
                defer { index += 1 }
                if writes, run.lists(index) { response.add(key, utf8: value) }
                return !writes || run.isPast(index) // every value of the run, or none
            }
        }
        tag("file", .file)
        if let modified = song.modifiedSeconds { response.add("Last-Modified", timeSince1970: modified) }
        if writesFormat { song.withFormat { response.add("Format", utf8: $0) } }
        Self.writeTags(in: song.tagOrder, moreTags: { written in
            song.forEachMoreTag { name, value in
                if !written(TagOrder.Tag(name)), wanted.contains(name.rawValue) { response.add(name.rawValue, utf8: value) }
            }
        }) { kind, placeRun in
            run = placeRun
            switch kind {
            case .title: tag("Title", .title)
            case .artist: tag("Artist", .artist)
            case .artistSort: tag("ArtistSort", .artistSort)
            case .album: tag("Album", .album)
            case .albumSort: tag("AlbumSort", .albumSort)
            case .albumArtist: tag("AlbumArtist", .albumArtist)
            case .albumArtistSort: tag("AlbumArtistSort", .albumArtistSort)
            case .track: tag("Track", .track)
            case .disc: tag("Disc", .disc)
            case .date: tag("Date", .date)
            case .genre: tag("Genre", .genre)
            case .musicBrainzArtist: tag("MUSICBRAINZ_ARTISTID", .artistIDs)
            case .musicBrainzAlbum: tag("MUSICBRAINZ_ALBUMID", .release)
            case .musicBrainzAlbumArtist: tag("MUSICBRAINZ_ALBUMARTISTID", .albumArtistIDs)
            case .musicBrainzTrack: tag("MUSICBRAINZ_TRACKID", .recording)
            case .musicBrainzReleaseTrack: tag("MUSICBRAINZ_RELEASETRACKID", .releaseTrack)
            default:
                guard let name = kind.moreTagName, wanted.contains(name.rawValue) else { return }
                var index = 0
                song.forEachMoreTag { entry, value in
                    guard entry == name else { return }
                    if run.lists(index) { response.add(name.rawValue, utf8: value) }
                    index += 1
                }
            }
        }
        Self.writeLength(song.lengthMicroseconds, into: &response)
    }

    /// Writes the queue entry at list `position` (with its MPD priority when it has one).
    public func write(_ entry: QueueEntry, position: Int, priority: Int = 0, to call: MPDCall) {
        write(uri: entry.uri, tags: entry.tags, lengthMicroseconds: entry.lengthMicroseconds, range: entry.range,
              file: entry.fileFacts, to: call)
        call.add("Pos", position)
        call.add("Id", entry.id)
        if priority > 0 { call.add("Prio", priority) }
    }

    /// Writes a song: its name, the part of it played (MPD's `Range: START-END`, in seconds to the millisecond), what
    /// its file says of itself, tags and length.
    public func write(uri: String, tags: TrackTags, lengthMicroseconds: Int64?, range: PlayRange? = nil, file: FileFacts? = nil,
                      to call: MPDCall) {
        call.add("file", name(of: uri))
        if let range {
            call.add("Range", Self.millisecondsText(range.startMicroseconds) + "-" + (range.endMicroseconds.map(Self.millisecondsText) ?? ""))
        }
        if let file { Self.writeFileFacts(file, into: &call.session.output) }
        writeTags(tags, lengthMicroseconds: lengthMicroseconds, to: call)
    }

    private func writeTags(_ tags: TrackTags, lengthMicroseconds: Int64?, to call: MPDCall) {
        let wanted = call.session.wantedTags
        var run = ValueRun.all // the place's run of values
        func tag(_ key: String, _ values: [String]) {
            guard !values.isEmpty, wanted.contains(key) else { return } // most songs have few of the tags: nothing hashed for the others
            var index = 0
            for value in values where !value.isEmpty {
                if run.lists(index) { call.add(key, value) }
                index += 1
            }
        }
        let sortNames = tags.sortNames, ids = tags.musicBrainz
        func one(_ value: String?) -> [String] { value.map { [$0] } ?? [] }
        /// A tag kept with one value: that value, then those a client gave after it.
        func first(_ value: String?, _ kind: TagOrder.Tag) -> [String] {
            tags.furtherValues.isEmpty ? one(value) : one(value) + tags.furtherValues[kind]
        }
        // The further tags (its composers among them); a stream's composers, which GStreamer reads, else.
        func more(_ name: MoreTags.Name) -> [String] {
            name == .composer && tags.moreTags.isEmpty ? tags.composers : tags.moreTags.values(of: name)
        }
        Self.writeTags(in: tags.tagOrder, moreTags: { written in
            run = .all
            if tags.moreTags.isEmpty, !written(.composer) { tag("Composer", tags.composers) }
            for entry in tags.moreTags.entries where !written(TagOrder.Tag(entry.name)) { tag(entry.name.rawValue, [entry.value]) }
            if !written(.name) { tag("Name", first(tags.station, .name)) }
        }) { kind, placeRun in
            run = placeRun
            switch kind {
            case .title: tag("Title", first(tags.title, .title))
            case .artist: tag("Artist", tags.artists)
            case .artistSort: tag("ArtistSort", first(sortNames.artist, .artistSort))
            case .album: tag("Album", first(tags.album, .album))
            case .albumSort: tag("AlbumSort", first(sortNames.album, .albumSort))
            case .albumArtist: tag("AlbumArtist", tags.albumArtists)
            case .albumArtistSort: tag("AlbumArtistSort", first(sortNames.albumArtist, .albumArtistSort))
            case .track: tag("Track", first(tags.trackNumber.map(String.init), .track))
            case .disc: tag("Disc", first(tags.discNumber.map(String.init), .disc))
            case .date: tag("Date", first(tags.contentCreated, .date))
            case .genre: tag("Genre", tags.genres)
            case .musicBrainzArtist: tag("MUSICBRAINZ_ARTISTID", ids.artists)
            case .musicBrainzAlbum: tag("MUSICBRAINZ_ALBUMID", first(ids.release, .musicBrainzAlbum))
            case .musicBrainzAlbumArtist: tag("MUSICBRAINZ_ALBUMARTISTID", ids.albumArtists)
            case .musicBrainzTrack: tag("MUSICBRAINZ_TRACKID", first(ids.recording, .musicBrainzTrack))
            case .musicBrainzReleaseTrack: tag("MUSICBRAINZ_RELEASETRACKID", first(ids.releaseTrack, .musicBrainzReleaseTrack))
            case .name: tag("Name", first(tags.station, .name))
            default: if let name = kind.moreTagName { tag(name.rawValue, more(name)) }
            }
        }
        Self.writeLength(lengthMicroseconds, into: &call.session.output)
    }

    /// `Last-Modified` and `Format`, where MPD writes them: after the name and range, before the tags.
    private static func writeFileFacts(_ file: FileFacts, into response: inout MPDResponse) {
        if let modified = file.modifiedSeconds { response.add("Last-Modified", timeSince1970: modified) }
        if let format = file.encoding.flatMap(format) { response.add("Format", format) }
    }

    /// The format MPD 0.23's decoders give audio of `encoding` (its `Format` and status `audio`):
    /// `RATE:BITS:CHANNELS`, BITS `f` for float. Vorbis and AAC (FFmpeg's) decode to float; Opus to 16 bits at
    /// 48 kHz; MP3 (libmad) to 24; FLAC and WavPack keep their sample size; WAV and AIFF (libsndfile) give 16 bits
    /// up to 16, else 32 (float stays float); ALAC, TTA, Monkey's Audio and WMA Lossless (FFmpeg's) 16 or 32, WMA and
    /// Speex (FFmpeg's) float. Each checked against Debian's mpd (`MPDDifferentialTests`, `MPDFurtherTagsTests`).
    public static func format(of encoding: AudioEncoding) -> String? {
        let bits: String
        switch encoding.codec {
        case .vorbis, .aac, .pcmFloat, .wma, .speex: bits = "f"
        case .opus: return "48000:16:\(encoding.channels)"
        case .mpeg: bits = "24"
        case .flac, .wavPack:
            guard let size = encoding.bitsPerSample, [8, 16, 24, 32].contains(size) else { return nil }
            bits = String(size)
        case .pcm, .alac, .wmaLossless, .trueAudio, .monkeysAudio: // decoded to 16- or 32-bit samples
            guard let size = encoding.bitsPerSample, size <= 32 else { return nil }
            bits = size <= 16 ? "16" : "32"
        }
        return "\(encoding.sampleRate):\(bits):\(encoding.channels)"
    }

    /// Writes a song's tags through `write`, one place at a time: first the places the file gives (`order`), in it,
    /// each with its run of the tag's values; then the other tags, all their values, in a fixed order — title, artist,
    /// album, album artist (each with its sort name), track, disc, date, genre, the further tags (`moreTags`, told
    /// which tags were written already), the MusicBrainz ids.
    static func writeTags(in order: TagOrder, moreTags: ((TagOrder.Tag) -> Bool) -> Void, _ write: (TagOrder.Tag, ValueRun) -> Void) {
        var written: UInt64 = 0
        var listed: [Int]? // each tag's values listed at its earlier places, once a tag has more than one
        for place in order.places {
            let bit: UInt64 = 1 << place.tag.rawValue
            defer { written |= bit }
            guard written & bit != 0 || place.count > 0 else {
                write(place.tag, .all)
                continue
            }
            if listed == nil { listed = Array(repeating: 0, count: TagOrder.Tag.allCases.count) }
            let first = listed![Int(place.tag.rawValue)]
            listed![Int(place.tag.rawValue)] += place.count
            write(place.tag, ValueRun(first: first, count: place.count))
        }
        let isWritten = { (tag: TagOrder.Tag) in written & (1 << tag.rawValue) != 0 }
        for tag in fixedHead where !isWritten(tag) { write(tag, .all) }
        moreTags(isWritten)
        for tag in fixedTail where !isWritten(tag) { write(tag, .all) }
    }

    /// The values of a tag one place lists: `count` of them from the `first` (count 0: all from the first on).
    struct ValueRun {
        var first: Int
        var count: Int
        static let all = ValueRun(first: 0, count: 0)

        /// Whether the tag's value at `index` (among those listed, in order) is this run's.
        func lists(_ index: Int) -> Bool { index >= first && (count == 0 || index - first < count) }

        /// Whether the run ends before the value at `index`.
        func isPast(_ index: Int) -> Bool { count > 0 && index - first >= count - 1 }
    }

    private static let fixedHead: [TagOrder.Tag] = [.title, .artist, .artistSort, .album, .albumSort, .albumArtist,
                                                    .albumArtistSort, .track, .disc, .date, .genre]
    private static let fixedTail: [TagOrder.Tag] = [.musicBrainzArtist, .musicBrainzAlbum, .musicBrainzAlbumArtist,
                                                    .musicBrainzTrack, .musicBrainzReleaseTrack]

    /// `12.345`: seconds with three decimals, as MPD writes a range.
    static func millisecondsText(_ microseconds: Int64) -> String {
        let milliseconds = microseconds / 1000
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    private static func writeLength(_ lengthMicroseconds: Int64?, into response: inout MPDResponse) {
        guard let length = lengthMicroseconds, length >= 0 else { return }
        let seconds = Double(length) / 1_000_000
        response.add("Time", Int64(seconds.rounded()))
        response.add("duration", seconds: seconds)
    }
}
