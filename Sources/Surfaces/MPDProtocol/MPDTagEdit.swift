import RepriseCore

/// MPD's `addtagid` and `cleartagid`: a stream's tags in the queue, named by the client (a radio's name and genre).
/// Each MPD tag name is the field ``MPDSongWriter`` writes it from. A tag the queue keeps one value of (Title,
/// Album, Date, Track, Disc, Name, the sort names, the single MusicBrainz ids) has the first value given, the ones
/// after it kept beside it (``TrackTags/furtherValues``), as MPD keeps every value.
enum MPDTagEdit {
    /// The tag MPD knows as `name`, in any case (MPD's `tag_name_parse_i`), spelled as MPD spells it.
    static func tagName(_ name: String) -> String? {
        let lowered = name.lowercased()
        return MPDCommandSet.allMPDTags.first { $0.lowercased() == lowered }
    }

    /// Adds `value` as tag `name` (spelled as ``tagName(_:)`` gives it); an empty value is no value.
    static func add(_ name: String, _ value: String, to tags: inout TrackTags) {
        guard !value.isEmpty else { return }
        // Listed in the order given, as MPD lists a song's tags in the order they were added.
        if let tag = TagOrder.tag(mpdName: name) { tags.tagOrder.note(tag) }
        let tag = TagOrder.tag(mpdName: name)
        /// `checked` as the field's value, or after it when it has one.
        func kept(_ field: WritableKeyPath<TrackTags, String?>, _ checked: String?) {
            guard let checked else { return }
            if tags[keyPath: field] == nil { tags[keyPath: field] = checked } else if let tag { tags.furtherValues.append(tag, checked) }
        }
        func first(_ field: WritableKeyPath<TrackTags, String?>) { kept(field, value) }
        func number(_ field: WritableKeyPath<TrackTags, Int?>) {
            // "3/12" is track 3, as a tag reader takes it; not a number is no value.
            guard let number = Int(value.prefix { $0.isASCII && $0.isNumber }) else { return }
            if tags[keyPath: field] == nil { tags[keyPath: field] = number } else if let tag { tags.furtherValues.append(tag, String(number)) }
        }
        func id(_ field: WritableKeyPath<TrackTags, String?>) { kept(field, MusicBrainzIDs.ids(in: value).first) }
        switch name {
        case "Title": first(\.title)
        case "Artist": tags.artists.append(value)
        case "ArtistSort": first(\.sortNames.artist)
        case "Album": first(\.album)
        case "AlbumSort": first(\.sortNames.album)
        case "AlbumArtist": tags.albumArtists.append(value)
        case "AlbumArtistSort": first(\.sortNames.albumArtist)
        case "Track": number(\.trackNumber)
        case "Disc": number(\.discNumber)
        case "Date": first(\.contentCreated)
        case "Genre": tags.genres.append(value)
        case "Name": first(\.station)
        case "Comment": tags.comments.append(value)
        case "MUSICBRAINZ_ARTISTID": tags.musicBrainz.artists += MusicBrainzIDs.ids(in: value).prefix(1)
        case "MUSICBRAINZ_ALBUMARTISTID": tags.musicBrainz.albumArtists += MusicBrainzIDs.ids(in: value).prefix(1)
        case "MUSICBRAINZ_ALBUMID": id(\.musicBrainz.release)
        case "MUSICBRAINZ_TRACKID": id(\.musicBrainz.recording)
        case "MUSICBRAINZ_RELEASETRACKID": id(\.musicBrainz.releaseTrack)
        default:
            guard let more = MoreTags.Name(rawValue: name) else { return }
            // A stream's composers (GStreamer's) are written only while it has no further tags: they join them.
            if tags.moreTags.isEmpty {
                for composer in tags.composers { tags.moreTags.append(.composer, composer) }
                tags.composers = []
            }
            tags.moreTags.append(more, value)
        }
    }

    /// Removes every value of tag `name` (spelled as ``tagName(_:)`` gives it), or every tag when `name` is nil.
    static func clear(_ name: String?, in tags: inout TrackTags) {
        guard let name else { return tags = TrackTags() }
        if let tag = TagOrder.tag(mpdName: name) {
            tags.tagOrder.remove(tag)
            tags.furtherValues[tag] = []
        }
        switch name {
        case "Title": tags.title = nil
        case "Artist": tags.artists = []
        case "ArtistSort": tags.sortNames.artist = nil
        case "Album": tags.album = nil
        case "AlbumSort": tags.sortNames.album = nil
        case "AlbumArtist": tags.albumArtists = []
        case "AlbumArtistSort": tags.sortNames.albumArtist = nil
        case "Track": tags.trackNumber = nil
        case "Disc": tags.discNumber = nil
        case "Date": tags.contentCreated = nil
        case "Genre": tags.genres = []
        case "Name": tags.station = nil
        case "Comment": tags.comments = []
        case "Composer":
            tags.composers = []
            tags.moreTags.removeAll(.composer)
        case "MUSICBRAINZ_ARTISTID": tags.musicBrainz.artists = []
        case "MUSICBRAINZ_ALBUMARTISTID": tags.musicBrainz.albumArtists = []
        case "MUSICBRAINZ_ALBUMID": tags.musicBrainz.release = nil
        case "MUSICBRAINZ_TRACKID": tags.musicBrainz.recording = nil
        case "MUSICBRAINZ_RELEASETRACKID": tags.musicBrainz.releaseTrack = nil
        default:
            if let more = MoreTags.Name(rawValue: name) { tags.moreTags.removeAll(more) }
        }
    }
}
