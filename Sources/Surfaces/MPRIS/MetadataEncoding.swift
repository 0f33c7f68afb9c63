import BusInterfaces
import RepriseCore
import SDBus

/// Maps a track to the MPRIS Metadata dictionary with the exact types strict clients (BlueZ, GNOME) expect.
public enum MetadataEncoding {
    /// The entries (each sent as a variant of the type given here); empty without a track.
    public static func encode(_ track: TrackInfo?) -> [String: DBusValue] {
        guard let track else { return [:] }
        var entries: [(String, DBusValue)] = [
            ("mpris:trackid", .objectPath(MPRIS.trackPath(forEntry: track.entryID))),
            ("xesam:url", .string(track.url)),
            ("xesam:title", .string(track.title)),
        ]
        if let length = track.lengthMicroseconds { entries.append(("mpris:length", .int64(length))) }
        if let art = track.artURL { entries.append(("mpris:artUrl", .string(art))) }
        let tags = track.tags
        if !tags.artists.isEmpty { entries.append(("xesam:artist", .strings(tags.artists))) }
        if let album = tags.album { entries.append(("xesam:album", .string(album))) }
        if !tags.albumArtists.isEmpty { entries.append(("xesam:albumArtist", .strings(tags.albumArtists))) }
        if let number = tags.trackNumber { entries.append(("xesam:trackNumber", .int32(Int32(clamping: number)))) }
        if let disc = tags.discNumber { entries.append(("xesam:discNumber", .int32(Int32(clamping: disc)))) }
        if !tags.genres.isEmpty { entries.append(("xesam:genre", .strings(tags.genres))) }
        if !tags.composers.isEmpty { entries.append(("xesam:composer", .strings(tags.composers))) }
        let comments = (track.description.map { [$0] } ?? []) + tags.comments
        if !comments.isEmpty { entries.append(("xesam:comment", .strings(Array(comments.prefix(TrackTags.maximumValueCount))))) }
        if let created = tags.contentCreated { entries.append(("xesam:contentCreated", .string(created))) }
        if let lyrics = track.lyricsText { entries.append(("xesam:asText", .string(lyrics))) }
        // MusicBrainz ids, as Rhythmbox defined them (string lists; the track id is the recording's), under its
        // spelling and the all-lower-case one some readers use.
        let ids = tags.musicBrainz
        for (suffix, values) in [("TrackID", ids.recording.map { [$0] } ?? []), ("AlbumID", ids.release.map { [$0] } ?? []),
                                 ("ArtistID", ids.artists), ("AlbumArtistID", ids.albumArtists)] where !values.isEmpty {
            entries.append(("xesam:musicBrainz" + suffix, .strings(values)))
            entries.append(("xesam:musicbrainz" + suffix, .strings(values)))
        }
        // Reprise's own keys (documented in the README): the sidecar's subtitle and description, and the
        // interstitial playing now, the ReplayGain applied to it (dB) and which gain that is (track or album).
        if let subtitle = track.subtitle { entries.append(("reprise:subtitle", .string(subtitle))) }
        if let description = track.description { entries.append(("reprise:description", .string(description))) }
        if let chapter = track.chapter { entries.append(("reprise:chapter", .string(chapter))) }
        if let station = tags.station { entries.append(("reprise:station", .string(station))) }
        if let url = tags.stationURL { entries.append(("reprise:stationURL", .string(url))) }
        if let interstitial = track.activeInterstitial { entries.append(("reprise:interstitial", .string(interstitial))) }
        if let gain = track.replayGain {
            entries.append(("reprise:replayGain", .double(gain.decibels)))
            entries.append(("reprise:replayGainKind", .string(gain.kind.rawValue)))
            if gain.measured { entries.append(("reprise:replayGainMeasured", .bool(true))) }
        }
        return Dictionary(entries, uniquingKeysWith: { first, _ in first })
    }
}
