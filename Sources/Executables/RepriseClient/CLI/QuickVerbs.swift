import RepriseCore

/// The verbs people bind to keys — `status`, `toggle`, `play`, `pause`, `next`, `previous` — and `search WORDS…`,
/// with only `--json` and `--player NAME`, run without the argument parser: building its command tree of every verb costs a static
/// binary ~5 ms of protocol-conformance lookups, more than the verb itself. Anything else (another option, help,
/// a mistake) is left to the parser, which runs the same code (``Status/show(_:)``, ``PlayerMethodCommand/act(_:)``).
public enum QuickVerbs {
    /// The exit status of the verb `arguments` names (without the program's name), or nil when the full parser is
    /// needed.
    public static func run(_ arguments: [String]) -> Int32? {
        guard let verb = arguments.first else { return nil }
        var target = Target(), words: [String] = []
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            if word == "--json", !target.json {
                target.json = true
            } else if word == "--player", target.player == nil, let name = rest.popFirst(), !name.hasPrefix("-"), !name.isEmpty {
                target.player = name
            } else if word.hasPrefix("--player="), target.player == nil, word.count > "--player=".count {
                target.player = String(word.dropFirst("--player=".count))
            } else if verb == "search", !word.hasPrefix("-") {
                words.append(word)
            } else {
                return nil
            }
        }
        let action: (Target) throws -> Void
        if verb == "search" {
            guard !LibraryQuery(words.joined(separator: " ")).isEmpty else { return nil } // the parser explains
            action = { try Search.show($0, words: words, limit: 50) }
        } else if let named = Self.action(verb) {
            action = named
        } else {
            return nil
        }
        // Only the verbs' own failures are caught there; they throw nothing else.
        return (try? runReportingFailure { try action(target) }) ?? 1
    }

    private static func action(_ verb: String) -> ((Target) throws -> Void)? {
        switch verb {
        case "status": Status.show
        case "toggle": Toggle.act
        case "play": Play.act
        case "pause": Pause.act
        case "next": Next.act
        case "previous": Previous.act
        default: nil
        }
    }
}
