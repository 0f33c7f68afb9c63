/// KDE's own settings file (`kdeglobals`, an INI file KConfig reads for every KDE and Qt application under Plasma):
/// the values of its `[KDE]` group, a later line over an earlier one (and a later file over an earlier: the user's
/// after the system's). KConfig's markers on groups and keys (`[$i]`, `[$e]`) are read past.
public struct KDEGlobals: Equatable, Sendable {
    public private(set) var values: [String: String] = [:]

    public init(files: [String]) {
        for text in files { read(text) }
    }

    /// The double-click interval (`DoubleClickInterval`, milliseconds) in seconds, where it is one a person could use
    /// (50 ms to 5 s).
    public var doubleClickSeconds: Double? {
        values["DoubleClickInterval"].flatMap { Int($0) }.flatMap { (50...5000).contains($0) ? Double($0) / 1000 : nil }
    }

    private mutating func read(_ text: String) {
        var inGroup = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") {
                // "[KDE]", or "[KDE][$i]": the first bracket names the group.
                inGroup = trimmed.dropFirst().prefix { $0 != "]" } == "KDE" && trimmed.dropFirst(4).hasPrefix("]")
                continue
            }
            guard inGroup, !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].prefix { $0 != "[" }.trimmingTrailingSpaces
            values[String(key)] = String(trimmed[trimmed.index(after: equals)...].trimmingTrailingSpaces.drop { $0 == " " })
        }
    }
}

private extension Substring {
    var trimmingTrailingSpaces: Substring {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " || self[index(before: end)] == "\t" { end = index(before: end) }
        return self[startIndex..<end]
    }
}
