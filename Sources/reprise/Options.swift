/// What the service starts with (from the `serve` command line).
struct Options {
    static let version = "0.2.0"

    var verbose = false
    var media: [String] = []
    /// Audio settings given on the command line, as config-file keys and values (applied over the file).
    var audio: [(key: String, value: String)] = []
}
