/// Where the library stands.
public struct LibraryStatus: Sendable, Equatable {
    public var counts = LibraryCounts()
    /// The music folders indexed.
    public var folders: [String] = []
    public var scanning = false
    /// Files looked at and files in the pass under way.
    public var scanned = 0
    public var total = 0
    /// Why there is no library (the database could not be opened), or nil.
    public var problem: String?

    public init() {}
}

/// The music library as the adaptors see it (the service's index on its worker thread): answers come back on the
/// event loop, later.
public protocol LibraryAccess: AnyObject {
    var status: LibraryStatus { get }
    /// Told on the loop when ``status`` changed (a scan began, progressed a step, or ended).
    var onChange: (() -> Void)? { get set }
    func search(_ query: LibraryQuery, limit: Int, then: @escaping (LibraryResults) -> Void)
    func tracks(_ selector: LibrarySelector, then: @escaping ([LibraryTrack]) -> Void)
    func names(_ kind: LibraryNameKind, then: @escaping ([String]) -> Void)
    /// Looks at every folder again (only changed files are read).
    func rescan()
}
