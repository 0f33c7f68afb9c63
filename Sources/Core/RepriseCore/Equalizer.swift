/// Reprise's ten-band equalizer: the octave bands 31 Hz … 16 kHz, -12…12 dB each, built-in presets and the user's
/// own. Off, it passes the sound untouched; on, a pre-amplification takes the loudest band's boost off so positive
/// gains never clip.
public struct Equalizer: Equatable, Sendable {
    /// The bands' centre frequencies (Hz).
    public static let frequencies: [Double] = [31, 62, 125, 250, 500, 1000, 2000, 4000, 8000, 16000]
    /// How they are named on the command line (`1k=+3`).
    public static let bandNames = ["31", "62", "125", "250", "500", "1k", "2k", "4k", "8k", "16k"]
    public static let gainRange: ClosedRange<Double> = -12...12
    /// Each band's filter is this share of its frequency wide (half an octave's worth: neighbours overlap little).
    public static let bandwidthRatio = 0.5
    /// How much of a band's gain (dB) a peak filter of that width adds at its neighbours' centres (measured with
    /// GStreamer's equalizer-nbands at 44.1 kHz); ``filterGains`` takes it out.
    static let neighbourShare = 0.105

    /// The presets every user has, in the order they are offered.
    public static let builtInPresets: [(name: String, gains: [Double])] = [
        ("flat", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        ("bass", [6, 5, 4, 2, 0, 0, 0, 0, 0, 0]),
        ("treble", [0, 0, 0, 0, 0, 0, 2, 4, 5, 6]),
        ("vocal", [-2, -2, -1, 1, 3, 3, 2, 1, 0, -1]),
        ("loudness", [5, 4, 2, 0, -1, 0, 0, 2, 4, 5]),
    ]

    public private(set) var isOn = false
    /// The gain asked of each band (dB).
    public private(set) var gains: [Double] = Array(repeating: 0, count: 10)
    /// The preset the gains are (nil: gains of the user's own, set band by band).
    public private(set) var presetName: String? = "flat"
    /// The user's presets (from the config: `equalizer-preset-NAME = g1, …, g10`).
    public var userPresets: [String: [Double]] = [:]

    public init() {}

    /// "off", the preset's name, or "custom".
    public var summary: String { isOn ? presetName ?? "custom" : "off" }

    /// Every preset's name, built-in first.
    public var presetNames: [String] { Self.builtInPresets.map(\.name) + userPresets.keys.sorted() }

    /// The pre-amplification while on (dB, ≤ 0): minus the largest boost.
    public var preampDecibels: Double { isOn ? -max(0, gains.max() ?? 0) : 0 }

    /// The gains to give the band filters so that the level at each band's centre is the gain asked of it: each
    /// filter also lifts its neighbours' centres a little, which is solved away (a few sweeps of the tridiagonal
    /// system); nil when off.
    public var filterGains: [Double]? {
        guard isOn else { return nil }
        var filters = gains
        for _ in 0..<40 {
            filters = gains.indices.map { index in
                let left = index > 0 ? filters[index - 1] : 0, right = index + 1 < filters.count ? filters[index + 1] : 0
                return gains[index] - Self.neighbourShare * (left + right)
            }
        }
        return filters.map { min(12, max(-24, $0)) } // equalizer-nbands' own range
    }

    /// Carries out a request: `off`, `on`, a preset's name, or `BAND=DB` pairs (a band by its frequency — `31`,
    /// `125`, `1k`, `16k` — or its number 1–10; gains -12…12 dB) changing those bands of the gains in use.
    public mutating func apply(_ words: [String]) throws(PlayerError) {
        guard let first = words.first else { return }
        if words.count == 1, !first.contains("=") {
            switch first.lowercased() {
            case "off": return isOn = false
            case "on": return isOn = true
            default:
                guard let preset = preset(named: first.lowercased()) else {
                    throw .invalidArgument("no equalizer preset named '\(first)' (there are \(presetNames.joined(separator: ", ")))")
                }
                gains = preset
                presetName = first.lowercased()
                isOn = true
                return
            }
        }
        var changed = gains
        for word in words {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let band = Self.bandIndex(parts[0]) else {
                throw .invalidArgument("'\(word)' is not BAND=DB (bands: \(Self.bandNames.joined(separator: ", ")), or 1 to 10)")
            }
            changed[band] = try Self.gain(parts[1], for: "band \(Self.bandNames[band])")
        }
        gains = changed
        presetName = Self.builtInPresets.first { $0.gains == changed }?.name ?? userPresets.first { $0.value == changed }?.key
        isOn = true
    }

    /// A preset's gains (built-in or the user's).
    public func preset(named name: String) -> [Double]? {
        Self.builtInPresets.first { $0.name == name }?.gains ?? userPresets[name]
    }

    /// A band's index from its name (`1k`, `125`) or number (1–10).
    public static func bandIndex(_ text: String) -> Int? {
        let name = text.lowercased().replacingHz()
        if let index = bandNames.firstIndex(of: name) { return index }
        if let index = frequencies.firstIndex(where: { String(Int($0)) == name }) { return index }
        if let number = Int(name), (1...10).contains(number), !frequencies.contains(Double(number)) { return number - 1 }
        return nil
    }

    /// A gain in dB ("+3", "-4.5", "6dB"), checked to be in range.
    public static func gain(_ text: String, for what: String) throws(PlayerError) -> Double {
        var digits = text.lowercased()
        if digits.hasSuffix("db") { digits.removeLast(2) }
        guard let value = Double(digits), value.isFinite, gainRange.contains(value) else {
            throw .invalidArgument("\(what): '\(text)' is not a gain from -12 to 12 dB")
        }
        return value
    }

    /// Ten gains separated by commas (a user's preset in the config).
    public static func gains(_ text: String, for what: String) throws(PlayerError) -> [Double] {
        let parts = text.split(separator: ",").map { String($0).trimmingWhitespace() }
        guard parts.count == frequencies.count else { throw .invalidArgument("\(what) takes 10 gains (dB), separated by commas") }
        var values: [Double] = []
        for part in parts { values.append(try gain(part, for: what)) }
        return values
    }
}

private extension String {
    /// "1khz" → "1k", "125hz" → "125".
    func replacingHz() -> String {
        hasSuffix("hz") ? String(dropLast(2)) : self
    }
}
