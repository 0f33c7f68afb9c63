import Foundation

/// Snapcast's stream properties (`Plugin.Stream.Player.GetProperties`) read from Reprise's MPD `status` and
/// `currentsong`.
enum StreamProperties {
    static func from(status: [String: String], song: [String: String]) -> [String: Any] {
        let state = status["state"] ?? "stop"
        let queued = Int(status["playlistlength"] ?? "") ?? 0
        var properties: [String: Any] = [
            "playbackStatus": ["play": "playing", "pause": "paused"][state] ?? "stopped",
            "loopStatus": status["repeat"] == "1" ? (status["single"] == "1" ? "track" : "playlist") : "none",
            "shuffle": status["random"] == "1",
            "canControl": true,
            "canPlay": queued > 0,
            "canPause": queued > 0,
            "canGoNext": status["nextsong"] != nil,
            "canGoPrevious": status["song"] != nil,
            "canSeek": state != "stop" && seconds(status["duration"]).map { $0 > 0 } == true,
        ]
        if let volume = status["volume"].flatMap(Int.init), (0...100).contains(volume) { properties["volume"] = volume }
        if let elapsed = seconds(status["elapsed"]) { properties["position"] = elapsed }
        properties["metadata"] = metadata(song)
        return properties
    }

    /// A song's tags under Snapcast's names (lists where Snapcast wants lists), as snapserver's own meta_mpd.py names
    /// them (MPD's `Date` is `contentCreated`).
    static func metadata(_ song: [String: String]) -> [String: Any] {
        var metadata: [String: Any] = [:]
        let texts = ["file": "url", "Title": "title", "Album": "album", "Date": "contentCreated", "Name": "name", "Id": "trackId",
                     "MUSICBRAINZ_TRACKID": "musicbrainzTrackId", "MUSICBRAINZ_ALBUMID": "musicbrainzAlbumId"]
        for (tag, name) in texts { if let value = song[tag] { metadata[name] = value } }
        let lists = ["Artist": "artist", "AlbumArtist": "albumArtist", "Genre": "genre", "Composer": "composer"]
        for (tag, name) in lists { if let value = song[tag] { metadata[name] = [value] } }
        if let duration = seconds(song["duration"]) { metadata["duration"] = duration }
        if let track = song["Track"].flatMap({ Int($0.split(separator: "/").first ?? "") }) { metadata["trackNumber"] = track }
        if let disc = song["Disc"].flatMap({ Int($0.split(separator: "/").first ?? "") }) { metadata["discNumber"] = disc }
        return metadata
    }

    /// The MPD command for a `Plugin.Stream.Player.Control` command, or nil when Snapcast sent one it does not define.
    static func command(for name: String, parameters: [String: Any], state: String) -> String? {
        switch name {
        case "play": return state == "stop" ? "play" : "pause 0"
        case "pause": return "pause 1"
        case "playPause": return state == "play" ? "pause 1" : (state == "stop" ? "play" : "pause 0")
        case "stop": return "stop"
        case "next": return "next"
        case "previous": return "previous"
        case "seek":
            guard let offset = number(parameters["offset"]) else { return nil }
            return "seekcur " + (offset < 0 ? "-" : "+") + String(format: "%.3f", abs(offset))
        case "setPosition":
            guard let position = number(parameters["position"]), position >= 0 else { return nil }
            return "seekcur " + String(format: "%.3f", position)
        default: return nil
        }
    }

    /// The MPD commands for a `Plugin.Stream.Player.SetProperty` (`{"volume": 40}`…), or nil for a property or a
    /// value Snapcast does not define.
    static func commands(forProperties properties: [String: Any]) -> [String]? {
        var commands: [String] = []
        for (name, value) in properties {
            switch (name, value) {
            case ("volume", _):
                guard let volume = number(value), volume >= 0, volume <= 100 else { return nil }
                commands.append("setvol \(Int(volume.rounded()))")
            case ("rate", _):
                // MPD has no playback rate: 1 is what plays already, any other is refused.
                guard number(value) == 1 else { return nil }
            case ("shuffle", let on as Bool): commands.append("random \(on ? 1 : 0)")
            case ("loopStatus", "none" as String): commands += ["repeat 0", "single 0"]
            case ("loopStatus", "track" as String): commands += ["repeat 1", "single 1"]
            case ("loopStatus", "playlist" as String): commands += ["repeat 1", "single 0"]
            default: return nil
            }
        }
        return properties.isEmpty ? nil : commands
    }

    /// A time in seconds as MPD writes it, when it is one JSON can carry and a player can mean: finite, not
    /// negative, under a million hours (`nan`, `inf` and `1e999` parse as Doubles but are no times).
    static func seconds(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite, value >= 0, value < 3.6e9 else { return nil }
        return value
    }

    /// A finite JSON number.
    private static func number(_ value: Any?) -> Double? {
        guard let number = (value as? NSNumber)?.doubleValue, number.isFinite else { return nil }
        return number
    }
}
