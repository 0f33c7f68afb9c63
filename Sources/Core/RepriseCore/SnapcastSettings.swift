/// A Snapcast stream Reprise feeds (config keys `snapcast-pipe`, `snapcast-sampleformat`): the FIFO snapserver
/// reads (its `pipe://` source) becomes an output, a pipe sink Reprise loads into the sound server while it runs.
public struct SnapcastSettings: Sendable, Equatable {
    /// The FIFO (absolute, or `~/…`); nil: no Snapcast output.
    public var pipe: String?
    /// The stream's sample format as snapserver's `sampleformat` writes it (rate:bits:channels); snapserver's default.
    public var rate = 48000
    public var bits = 16
    public var channels = 2

    /// The sink's name in the sound server (and so the output's name).
    public static let sinkName = "reprise_snapcast"
    /// What the sink is called where people see it (MPD's outputs, `reprise output list`).
    public static let sinkDescription = "Snapcast"
    /// snapserver's default `buffer`: how much later the rooms play what reaches the pipe (the output's delay unless
    /// `output-delay-reprise_snapcast` says otherwise).
    public static let defaultBufferMilliseconds = 1000

    public init() {}

    mutating func set(_ key: String, _ value: String) throws(PlayerError) -> Bool {
        switch key {
        case "snapcast-pipe":
            if ["", "off"].contains(value) { pipe = nil; return true }
            guard value.hasPrefix("/") || value.hasPrefix("~/"), value.utf8.count <= 4096,
                  !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || "\"'\\".unicodeScalars.contains($0) }) else {
                throw .invalidArgument("snapcast-pipe takes an absolute path (or ~/…) without quotes, backslashes or control characters")
            }
            pipe = value
        case "snapcast-sampleformat":
            let parts = value.split(separator: ":").map { Int($0) }
            guard parts.count == 3, let rate = parts[0], let bits = parts[1], let channels = parts[2],
                  (8000...192_000).contains(rate), [16, 24, 32].contains(bits), (1...8).contains(channels) else {
                throw .invalidArgument("snapcast-sampleformat takes rate:bits:channels as snapserver's sampleformat (e.g. 48000:16:2; 16, 24 or 32 bits)")
            }
            (self.rate, self.bits, self.channels) = (rate, bits, channels)
        default:
            return false
        }
        return true
    }

    /// module-pipe-sink's arguments for writing to `path` (the pipe, `~` expanded) in the stream's format.
    public func pipeSinkArguments(path: String) -> String {
        "file=\"\(path)\" sink_name=\(Self.sinkName) format=s\(bits)le rate=\(rate) channels=\(channels) "
            + "sink_properties=device.description=\(Self.sinkDescription)"
    }
}
