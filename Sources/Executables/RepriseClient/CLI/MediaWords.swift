import ArgumentParser
import Synchronization

/// The media of a command line that plays or adds media (`reprise FILE…`, `reprise serve …`, `reprise add …`), taken
/// out before swift-argument-parser sees it. The parser copies an array argument's set of input origins for every
/// value it adds, so its time is quadratic in the number of values (`reprise --enqueue` with 20,000 files took 20 s
/// in the client); taken out here in one linear pass, they come back to the command through ``all(after:)``.
/// What is left (options, their values, the verb) is parsed as before.
public enum MediaWords {
    private static let taken = Mutex<[String]>([])

    /// The value-taking options of serving (an option's next word is its value, not media).
    static let serveValueOptions: Set<String> = ["--category", "--options", "--replaygain", "--crossfade", "--library"]
    /// The value-taking options of `add`.
    static let addValueOptions: Set<String> = ["--artist", "--album", "--genre", "--playlist", "--search", "--player"]

    /// `arguments` without their media words, which are kept for the command; unchanged for any other verb.
    /// - Parameter verbs: every verb's name (a first word that names none is media for the default, serving).
    public static func takeOut(of arguments: [String], verbs: Set<String>) -> [String] {
        let (kept, media) = split(arguments, verbs: verbs)
        taken.withLock { $0 = media }
        return kept
    }

    /// The command's media: what the parser gave it (nothing once taken out), then what was taken out, in order.
    public static func all(after parsed: [String]) -> [String] { parsed + taken.withLock { $0 } }

    /// The parser's own options (completion scripts, completing a word, the help dump): a command line with one of
    /// these is the parser's alone, its words are none of them media (`--generate-completion-script zsh`).
    static let parserOwnOptions = ["--generate-completion-script", "---completion", "--experimental-dump-help"]

    /// The words the parser gets and the media, for a command line that serves or adds; `(arguments, [])` else.
    static func split(_ arguments: [String], verbs: Set<String>) -> (kept: [String], media: [String]) {
        let isParsersOwn = { (word: String) in
            parserOwnOptions.contains { word == $0 || word.hasPrefix($0 + "=") }
        }
        if arguments.contains(where: isParsersOwn) { return (arguments, []) }
        var start = 0, valueOptions = serveValueOptions
        if let first = arguments.first, verbs.contains(first) {
            switch first {
            case "serve": break
            case "add": valueOptions = addValueOptions
            default: return (arguments, [])
            }
            start = 1
        }
        var kept = Array(arguments[..<start]), media: [String] = []
        var index = start
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if word == "--" {
                media += arguments[index...]
                break
            }
            guard word.hasPrefix("-"), word.count > 1 else {
                media.append(word)
                continue
            }
            kept.append(word)
            if valueOptions.contains(word), index < arguments.count {
                kept.append(arguments[index])
                index += 1
            }
        }
        return (kept, media)
    }
}
