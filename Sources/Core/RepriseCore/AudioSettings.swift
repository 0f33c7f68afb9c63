/// The audio-session settings at start-up: from `$XDG_CONFIG_HOME/reprise/config`, then the command line.
///
/// The config file has `key = value` lines (`#` starts a comment):
/// `category = playback`, `options = duckOthers, notifyOthersOnDeactivation`, `silent = false`,
/// `trigger-roles = phone`, `speeds = 0.5, 1, 1.25, 1.5, 2` (the speeds offered for video; the system list by default),
/// `replaygain = auto` (off, track, album, auto), `replaygain-preamp = 0`, `replaygain-fallback = 0` (dB),
/// `crossfade = 0` (seconds, 0.5–12; 0 or off: none), `chapter-skip = off` (on: Next and Previous step through the
/// chapters of a chaptered track), `equalizer = off` (on, or a preset: flat, bass, treble, vocal, loudness, or one of
/// the user's), `equalizer-preset-NAME = g1, …, g10` (a preset of the user's: ten gains in dB), `measure-loudness = on`
/// (off: the library does not measure the loudness of tracks without ReplayGain tags), `library = ~/Music, /mnt/music` (the music folders the library
/// indexes; `$XDG_MUSIC_DIR` by default; `off`: none), `scrobble = off` (listenbrainz: listens sent there),
/// `listenbrainz-url`, `listenbrainz-token-file` (see ``ScrobbleSettings``), `mpd = on` and the MPD server's
/// `mpd-…` keys (see ``MPDSettings``), `snapcast-pipe` and `snapcast-sampleformat` (see ``SnapcastSettings``),
/// `output-delay-NAME = MS` (how late the listener hears output NAME), `renderer-local-addresses = refuse` (allow: a UPnP
/// control point may push URLs to this machine's own addresses).
public struct AudioSettings: Sendable, Equatable {
    public var category: AudioCategory = .playback
    public var options: AudioOptions = []
    public var silent = false
    /// Stream roles that count as calls (resumable interruptions).
    public var triggerRoles: Set<String> = ["phone"]
    /// The playback speeds offered (window keys [ and ], Reprise's video interface).
    public var speeds = SpeedList()
    /// Loudness levelling between tracks.
    public var replayGain = ReplayGainSettings()
    /// Overlap between tracks.
    public var crossfade = CrossfadeSettings()
    /// Next and Previous step through a chaptered track's chapters.
    public var chapterSkip = false
    /// Whether the library measures the loudness of tracks without ReplayGain tags (`measure-loudness = off`: no).
    public var measureLoudness = true
    /// The equalizer at start, with the user's presets.
    public var equalizer = Equalizer()
    /// `equalizer = …` as written (applied once every preset of the file is known).
    private var equalizerChoice: String?
    /// Where listens are sent.
    public var scrobble = ScrobbleSettings()
    /// The library's music folders (absolute, or starting with `~/`); nil: the user's music folder.
    public var libraryFolders: [String]?
    /// The MPD protocol server.
    public var mpd = MPDSettings()
    /// The Snapcast stream fed as an output.
    public var snapcast = SnapcastSettings()
    /// `renderer-local-addresses = allow`: a UPnP control point may push URLs to loopback and link-local addresses
    /// (a media server on this machine); refused by default (see ``RendererPushRules``).
    public var rendererAllowsLocalAddresses = false
    /// How much later than Reprise plays it the listener hears it, in milliseconds, by output name
    /// (`output-delay-NAME = MS`): Position follows what is heard there.
    public var outputDelays: [String: Int] = [:]

    public init() {}

    /// Reads a config file's text; unknown keys and bad values are errors naming the line.
    public init(config text: String) throws(PlayerError) {
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            guard !line.trimmingWhitespace().isEmpty else { continue }
            guard let equals = line.firstIndex(of: "=") else { throw .invalidArgument("config line \(number + 1): expected key = value") }
            let key = line[..<equals].trimmingWhitespace(), value = line[line.index(after: equals)...].trimmingWhitespace()
            do throws(PlayerError) {
                try set(key, value)
            } catch {
                throw .invalidArgument("config line \(number + 1): \(error.message)")
            }
        }
        if let equalizerChoice {
            do throws(PlayerError) { try equalizer.apply([equalizerChoice]) } catch {
                throw .invalidArgument("config: equalizer: \(error.message)")
            }
        }
    }

    /// on/off, true/false, yes/no, 1/0 (nil: none of them).
    public static func switchValue(_ value: String) -> Bool? {
        ["true": true, "yes": true, "on": true, "1": true, "false": false, "no": false, "off": false, "0": false][value.lowercased()]
    }

    /// Sets one setting by its config-file key.
    public mutating func set(_ key: String, _ value: String) throws(PlayerError) {
        let list = value.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        switch key {
        case "category":
            guard let parsed = AudioCategory(name: value) else {
                throw .invalidArgument("unknown category '\(value)' (known: \(AudioCategory.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            category = parsed
        case "options":
            options = try AudioOptions(names: list)
        case "silent":
            guard let parsed = Self.switchValue(value) else { throw .invalidArgument("silent must be true or false") }
            silent = parsed
        case "measure-loudness":
            guard let parsed = Self.switchValue(value) else { throw .invalidArgument("measure-loudness must be on or off") }
            measureLoudness = parsed
        case "chapter-skip":
            guard let parsed = Self.switchValue(value) else { throw .invalidArgument("chapter-skip must be on or off") }
            chapterSkip = parsed
        case "trigger-roles":
            triggerRoles = Set(list)
        case "speeds":
            speeds = try SpeedList(config: value)
        case "crossfade":
            crossfade.seconds = try CrossfadeSettings.seconds(value)
        case "replaygain":
            replayGain.mode = try ReplayGainSettings.mode(named: value)
        case "replaygain-preamp":
            replayGain.preampDecibels = try ReplayGainSettings.decibels(value, for: "replaygain-preamp")
        case "replaygain-fallback":
            replayGain.fallbackDecibels = try ReplayGainSettings.decibels(value, for: "replaygain-fallback")
        case "equalizer":
            equalizerChoice = value
        case _ where key.hasPrefix("equalizer-preset-") && key.count > "equalizer-preset-".count:
            let name = String(key.dropFirst("equalizer-preset-".count)).lowercased()
            guard Equalizer.builtInPresets.allSatisfy({ $0.name != name }), !["on", "off"].contains(name) else {
                throw .invalidArgument("\(name) is a built-in preset's name")
            }
            guard equalizer.userPresets.count < 64 || equalizer.userPresets[name] != nil else { throw .invalidArgument("at most 64 presets") }
            equalizer.userPresets[name] = try Equalizer.gains(value, for: key)
        case _ where key.hasPrefix("output-delay-") && key.count > "output-delay-".count:
            let name = String(key.dropFirst("output-delay-".count))
            guard name.utf8.count <= 256, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "._:-".unicodeScalars.contains($0)) }) else {
                throw .invalidArgument("\(key): an output's name has letters, digits and . _ : - only")
            }
            guard let milliseconds = Int(value), (0...60_000).contains(milliseconds) else {
                throw .invalidArgument("\(key) takes milliseconds, 0 to 60000")
            }
            guard outputDelays.count < 64 || outputDelays[name] != nil else { throw .invalidArgument("at most 64 output delays") }
            outputDelays[name] = milliseconds
        case "renderer-local-addresses":
            guard let allow = ["allow": true, "refuse": false][value.lowercased()] else {
                throw .invalidArgument("renderer-local-addresses takes allow or refuse")
            }
            rendererAllowsLocalAddresses = allow
        case "library":
            if ["off", "none"].contains(value.lowercased()) { return libraryFolders = [] }
            guard !list.isEmpty, list.allSatisfy({ $0.hasPrefix("/") || $0.hasPrefix("~/") || $0 == "~" }) else {
                throw .invalidArgument("library takes absolute folders (or ~/…), separated by commas, or off")
            }
            libraryFolders = Array(list.prefix(64))
        default:
            if try scrobble.set(key, value) { return }
            if try snapcast.set(key, value) { return }
            guard try mpd.set(key, value) else { throw .invalidArgument("unknown setting '\(key)'") }
        }
    }
}
