/// What a file beside the media says about it: `NAME.reprise.json` next to `NAME.webm` (title, subtitle,
/// description, interstitial ranges) and a subtitle file `NAME.srt`/`NAME.vtt` (or `NAME.LANG.srt`/`.vtt`).
public struct MediaSidecar: Sendable, Equatable {
    public var title: String?
    public var subtitle: String?
    public var description: String?
    public var interstitials: [Interstitial] = []

    /// The most bytes of an info sidecar read.
    public static let sizeLimit = 1 << 16

    /// Reads `NAME.reprise.json` beside a `file://` media URI; nil when there is none. A file that is not
    /// valid JSON, or fields of the wrong type, are reported in `problem` and ignored.
    public static func read(for uri: String, in fileSystem: FileSystem, problem: (String) -> Void = { _ in }) -> MediaSidecar? {
        guard let base = basePath(of: uri) else { return nil }
        let path = base + ".reprise.json"
        guard fileSystem.kind(of: path) == .regularFile else { return nil }
        guard let bytes = fileSystem.contents(of: path, limit: sizeLimit) else {
            problem("\(path): unreadable or larger than \(sizeLimit) bytes")
            return nil
        }
        guard let json = JSONValue(parsing: bytes), case .object = json else {
            problem("\(path): not a JSON object")
            return nil
        }
        return MediaSidecar(json: json, problem: { problem("\(path): \($0)") })
    }

    /// The fields of a parsed sidecar; texts are cut like tags (``TrackTags/sanitized()``).
    public init(json: JSONValue, problem: (String) -> Void = { _ in }) {
        let clean = TrackTags(title: json["title"]?.string, album: json["subtitle"]?.string,
                              comments: json["description"]?.string.map { [$0] } ?? []).sanitized()
        title = clean.title
        subtitle = clean.album
        description = clean.comments.first
        for (index, item) in (json["interstitials"]?.array ?? []).prefix(Interstitial.maximumCount).enumerated() {
            if let interstitial = Interstitial(json: item) {
                interstitials.append(interstitial)
            } else {
                problem("interstitial \(index) needs numbers start < end (seconds)")
            }
        }
        interstitials.sort { $0.startMicroseconds < $1.startMicroseconds }
    }

    /// A subtitle file beside a `file://` media URI: `NAME.srt`, `NAME.vtt`, else the first `NAME.*.srt`/`.vtt`
    /// by name. Returns its `file://` URI.
    public static func subtitleURI(for uri: String, in fileSystem: FileSystem) -> String? {
        guard let base = basePath(of: uri) else { return nil }
        for ext in subtitleExtensions where fileSystem.kind(of: base + "." + ext) == .regularFile {
            return MediaURI.file(path: base + "." + ext)
        }
        let slash = base.lastIndex(of: "/")!
        let directory = String(base[..<slash]), name = String(base[base.index(after: slash)...])
        let candidates = (fileSystem.entries(of: directory.isEmpty ? "/" : directory) ?? []).filter { entry in
            guard entry.hasPrefix(name + "."), let dot = entry.lastIndex(of: ".") else { return false }
            return subtitleExtensions.contains(entry[entry.index(after: dot)...].lowercased())
        }.sorted()
        return candidates.first.map { MediaURI.file(path: directory + "/" + $0) }
    }

    /// The language a sidecar subtitle's name gives (`film.en.srt` → "en").
    public static func subtitleLanguage(ofURI uri: String) -> String? {
        guard let name = MediaURI(uri)?.lastPathComponent else { return nil }
        let parts = name.split(separator: ".")
        guard parts.count >= 3, (2...3).contains(parts[parts.count - 2].count) else { return nil }
        return String(parts[parts.count - 2])
    }

    static let subtitleExtensions = ["srt", "vtt"]

    /// The media's path without its extension, for `file://` URIs.
    static func basePath(of uri: String) -> String? {
        guard let parsed = MediaURI(uri), parsed.scheme == "file", parsed.path.hasPrefix("/"),
              let name = parsed.lastPathComponent else { return nil }
        guard !parsed.path.hasSuffix("/") else { return nil }
        let directory = String(parsed.path.dropLast(name.count))
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return directory + name }
        return directory + String(name[..<dot])
    }
}

/// A range of the media that is an interstitial (an advert, an intro) and what it forbids.
public struct Interstitial: Sendable, Equatable {
    public var title: String?
    public var startMicroseconds: Int64
    public var endMicroseconds: Int64
    /// While it plays, Seek and SetPosition are refused.
    public var forbidsSeekingWithin = false
    /// A seek or skip from before its end to beyond it plays it first (then goes on to the target).
    public var forbidsSkippingPast = false
    /// After it has played this long, it may be skipped (nil: never).
    public var skippableAfterMicroseconds: Int64?

    public static let maximumCount = 64

    public func contains(_ microseconds: Int64) -> Bool { (startMicroseconds..<endMicroseconds).contains(microseconds) }
}

extension Interstitial {
    /// `{"start": s, "end": s, "title": "…", "restrictions": ["noSeekingWithin", "noSkippingPast"], "skippableAfter": s}`
    init?(json: JSONValue) {
        func microseconds(_ seconds: Double?) -> Int64? {
            guard let seconds, seconds >= 0, seconds < 1e9 else { return nil }
            return Int64(seconds * 1_000_000)
        }
        guard let start = microseconds(json["start"]?.number), let end = microseconds(json["end"]?.number), start < end
        else { return nil }
        let restrictions = Set((json["restrictions"]?.array ?? []).compactMap(\.string))
        self.init(title: TrackTags(title: json["title"]?.string).sanitized().title, startMicroseconds: start,
                  endMicroseconds: end, forbidsSeekingWithin: restrictions.contains("noSeekingWithin"),
                  forbidsSkippingPast: restrictions.contains("noSkippingPast"),
                  skippableAfterMicroseconds: microseconds(json["skippableAfter"]?.number))
    }
}
