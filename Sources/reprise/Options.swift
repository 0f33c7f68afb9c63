/// The command line: `reprise [--verbose] [FILE|DIR|URI ...]`.
struct Options {
    static let version = "0.1.0"
    static let usage = """
        Usage: reprise [OPTIONS] [FILE|DIR|URI ...]

        Plays the given media in order and offers MPRIS2 control on the session bus
        as org.mpris.MediaPlayer2.reprise (playerctl, desktop media keys, headsets).
        A directory plays its audio files in name order.

        Options:
          -v, --verbose   log every event
          -h, --help      show this help
              --version   show the version
        """

    var verbose = false
    var showHelp = false
    var showVersion = false
    var media: [String] = []
    var unknown: [String] = []

    init(_ arguments: [String]) {
        var onlyMedia = false
        for argument in arguments {
            if onlyMedia || !argument.hasPrefix("-") || argument == "-" {
                media.append(argument)
                continue
            }
            switch argument {
            case "--": onlyMedia = true
            case "-v", "--verbose": verbose = true
            case "-h", "--help": showHelp = true
            case "--version": showVersion = true
            default: unknown.append(argument)
            }
        }
    }
}
