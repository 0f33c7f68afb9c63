import RepriseCore

/// The command lines `reprise` serves itself: the service's options and media written as paths (with a `/`) or URIs,
/// anything after `--`, or nothing (restore the saved queue). Anything else — a bare word, which may be a verb
/// (`play`) or a file here (`song.ogg`), `--help`, `--version`, an unknown option — is for `reprise-cli`, which
/// parses the whole command line as it always has and, to serve, runs `reprise` again with `--` before the media.
public struct ServeArguments: Equatable, Sendable {
    public var verbose = false
    public var enqueue = false
    public var newInstance = false
    /// Audio settings as config-file keys and values, in the order given.
    public var settings: [Setting] = []
    public var media: [String] = []

    /// The command line that asks `reprise` for exactly this (what `reprise-cli` runs to serve).
    public var commandLine: [String] {
        var line: [String] = []
        if verbose { line.append("--verbose") }
        if newInstance { line.append("--new-instance") }
        for setting in settings {
            if setting.key == "silent" { line.append("--silent") } else { line += ["--" + setting.key, setting.value] }
        }
        return line + ["--"] + media
    }

    public struct Setting: Equatable, Sendable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(verbose: Bool = false, newInstance: Bool = false, settings: [Setting] = [], media: [String] = []) {
        self.verbose = verbose
        self.newInstance = newInstance
        self.settings = settings
        self.media = media
    }

    /// Options that take a value, by their config key.
    static let valueOptions = ["--category": "category", "--options": "options", "--replaygain": "replaygain",
                               "--crossfade": "crossfade", "--library": "library"]

    /// Nil when the command line is not (only) a request to serve.
    /// - Parameters:
    ///   - exists: whether a path names something on disk.
    ///   - currentDirectory: for a relative `--library`.
    public static func parse(_ arguments: [String], exists: (String) -> Bool,
                             currentDirectory: () -> String) -> ServeArguments? {
        var result = ServeArguments()
        var index = 0, onlyMedia = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyMedia {
                result.media.append(argument)
                continue
            }
            if !argument.hasPrefix("-") || argument == "-" {
                guard isMedia(argument, exists: exists) else { return nil }
                result.media.append(argument)
                continue
            }
            switch argument {
            case "--": onlyMedia = true
            case "-v", "--verbose": result.verbose = true
            case "--enqueue": result.enqueue = true
            case "--new-instance": result.newInstance = true
            case "--silent": result.settings.append(Setting(key: "silent", value: "true"))
            default:
                let (name, inline) = split(argument)
                guard let key = valueOptions[name] else { return nil }
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard index < arguments.count else { return nil }
                    value = arguments[index]
                    index += 1
                }
                let absolute = key == "library" && !value.hasPrefix("/") ? currentDirectory() + "/" + value : value
                result.settings.append(Setting(key: key, value: absolute))
            }
        }
        return result
    }

    /// `--name=value` as (name, value); `--name` as (name, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// A URI with a scheme, or a path (with a `/`: never a verb) that is there.
    static func isMedia(_ argument: String, exists: (String) -> Bool) -> Bool {
        if let colon = argument.firstIndex(of: ":"), argument[colon...].hasPrefix("://") {
            let scheme = argument[..<colon]
            if scheme.count > 1, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) { return true }
        }
        return argument.contains("/") && exists(argument)
    }
}
