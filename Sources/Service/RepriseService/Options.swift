import RepriseCore

/// What the service starts with (from the `serve` command line).
public struct Options {
    public static let version = RepriseVersion.current

    public var verbose = false
    public var media: [String] = []
    /// Audio settings given on the command line, as config-file keys and values (applied over the file).
    public var audio: [(key: String, value: String)] = []

    public init(verbose: Bool = false, media: [String] = [], audio: [(key: String, value: String)] = []) {
        self.verbose = verbose
        self.media = media
        self.audio = audio
    }
}
