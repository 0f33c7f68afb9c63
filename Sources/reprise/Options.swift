/// The command line: `reprise [--verbose] [--category NAME] [--options A,B] [--silent] [FILE|DIR|PLAYLIST|URI ...]`.
struct Options {
    static let version = "0.1.0"
    static let usage = """
        Usage: reprise [OPTIONS] [FILE|DIR|PLAYLIST|URI ...]

        Plays the given media in order and offers MPRIS2 control on the session bus
        as org.mpris.MediaPlayer2.reprise (playerctl, desktop media keys, headsets).
        A directory plays its audio files, recursively, in album and track order;
        a playlist (.m3u, .m3u8, .pls, .xspf) plays its entries.

        Options:
              --category NAME     audio category: ambient, soloAmbient, playback (default),
                                  record, playAndRecord
              --options A,B       mixWithOthers, duckOthers, notifyOthersOnDeactivation
              --silent            start in silent mode
          -v, --verbose   log every event
          -h, --help      show this help
              --version   show the version
        """

    var verbose = false
    var showHelp = false
    var showVersion = false
    var media: [String] = []
    var unknown: [String] = []
    /// Audio settings given on the command line, as config-file keys and values (applied over the file).
    var audio: [(key: String, value: String)] = []

    init(_ arguments: [String]) {
        var onlyMedia = false
        var pendingKey: String?
        for argument in arguments {
            if let key = pendingKey {
                audio.append((key, argument))
                pendingKey = nil
                continue
            }
            if onlyMedia || !argument.hasPrefix("-") || argument == "-" {
                media.append(argument)
                continue
            }
            switch argument {
            case "--": onlyMedia = true
            case "-v", "--verbose": verbose = true
            case "-h", "--help": showHelp = true
            case "--version": showVersion = true
            case "--category": pendingKey = "category"
            case "--options": pendingKey = "options"
            case "--silent": audio.append(("silent", "true"))
            default:
                if let equals = argument.firstIndex(of: "="), ["--category", "--options"].contains(argument[..<equals]) {
                    audio.append((String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals]),
                                  String(argument[argument.index(after: equals)...])))
                } else {
                    unknown.append(argument)
                }
            }
        }
        if let key = pendingKey { unknown.append("--" + key + " (needs a value)") }
    }
}
