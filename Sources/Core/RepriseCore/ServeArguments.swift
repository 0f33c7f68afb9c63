/// The command line of `reprised`, the service: its own options, then `--` and the media (paths or URIs, taken as
/// they are), or nothing (restore the saved queue). `reprise` builds it (``commandLine``) and parses its own command
/// line with the argument parser; `reprised` parses this and nothing else — a word before `--` is refused.
public struct ServeArguments: Equatable, Sendable {
    public var verbose = false
    public var newInstance = false
    /// Audio settings as config-file keys and values, in the order given.
    public var settings: [Setting] = []
    public var media: [String] = []

    /// The command line that asks `reprised` for exactly this.
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
    }

    /// - Parameter settings: config keys and values, in the order given.
    public init(verbose: Bool = false, newInstance: Bool = false, settings: [(key: String, value: String)] = [],
                media: [String] = []) {
        self.verbose = verbose
        self.newInstance = newInstance
        self.settings = settings.map { Setting(key: $0.key, value: $0.value) }
        self.media = media
    }

    /// Options that take a value, by their config key.
    static let valueOptions = ["--category": "category", "--options": "options", "--replaygain": "replaygain",
                               "--crossfade": "crossfade", "--library": "library"]

    /// Nil when the command line is not one `reprised` takes.
    /// - Parameter currentDirectory: for a relative `--library`.
    public static func parse(_ arguments: [String], currentDirectory: () -> String) -> ServeArguments? {
        var result = ServeArguments()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "--":
                result.media = Array(arguments[index...])
                return result
            case "-v", "--verbose": result.verbose = true
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
}
