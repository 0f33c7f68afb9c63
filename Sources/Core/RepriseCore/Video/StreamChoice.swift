/// One audio or subtitle stream the user can pick, as Reprise's interface and command line list them.
public struct StreamChoice: Sendable, Equatable {
    /// The stream's number among its kind (what selecting takes).
    public var index: Int
    /// ISO 639 code, "" when unknown.
    public var language: String
    /// A label for menus: the stream's title, else its language, else "Track N".
    public var title: String
    public var codec: String
    /// It comes from a file beside the media (a sidecar subtitle).
    public var isExternal: Bool

    public init(index: Int, language: String?, title: String?, codec: String?, isExternal: Bool = false) {
        self.index = index
        self.language = language ?? ""
        self.title = TrackTags(title: title).sanitized().title ?? language ?? "Track \(index + 1)"
        self.codec = codec ?? ""
        self.isExternal = isExternal
    }
}
