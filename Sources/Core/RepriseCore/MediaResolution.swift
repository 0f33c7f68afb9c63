/// What resolving client URIs gave: the playable entries (each playlist expanded, every entry checked like a
/// client's URI) and a message for each URI or entry left out.
public struct MediaResolution: Sendable, Equatable {
    public var uris: [String] = []
    /// The first ``problemLimit`` messages; ``moreProblems`` counts the rest (a hostile list must not flood the log).
    public var problems: [String] = []
    public var moreProblems = 0
    public static let problemLimit = 20
    /// The first error of a URI given, reported when nothing at all is playable.
    public var firstError: PlayerError?

    public init() {}

    /// Resolves `uris` with ``MediaLocation/resolve(_:in:problems:)``. Reading a playlist checks each of its
    /// entries on the file system, which takes long for a long one: the service does it on a worker thread.
    public init(resolving uris: [String], in fileSystem: FileSystem) {
        var problems: [String] = []
        for uri in uris {
            do throws(PlayerError) {
                self.uris += try MediaLocation.resolve(uri, in: fileSystem, problems: &problems)
            } catch {
                problems.append("\(uri): \(error.message)")
                firstError = firstError ?? error
            }
            if problems.count > Self.problemLimit {
                moreProblems += problems.count - Self.problemLimit
                problems.removeLast(problems.count - Self.problemLimit)
            }
        }
        self.problems = problems
    }

    /// The playable entries, or why there are none.
    public var outcome: Result<[String], PlayerError> {
        uris.isEmpty ? .failure(firstError ?? .invalidArgument("no media given")) : .success(uris)
    }

    /// Whether resolving `uris` may take long: a local playlist among them, or many of them.
    public static func mayTakeLong(_ uris: [String]) -> Bool {
        uris.count > 64 || uris.contains { uri in
            guard let parsed = MediaURI(uri), parsed.scheme == "file" else { return false }
            return PlaylistFormat(fileName: parsed.path) != nil
        }
    }
}

/// Resolves client URIs for the player (see ``MediaResolution``) and answers on the loop's thread, in the order
/// asked. The service's resolver works on a worker thread, so that a long playlist never holds up replies.
public protocol MediaResolving: AnyObject {
    func resolve(_ uris: [String], then: @escaping (MediaResolution) -> Void)
    /// Why a control point's `uri` is refused by `rules`, or nil (``RendererPushRules/refusal(for:)`` looks names up,
    /// so the service's resolver checks on its worker thread).
    func vet(_ uri: String, by rules: RendererPushRules, then: @escaping (String?) -> Void)
}

extension MediaResolving {
    /// At once, on the caller's thread.
    public func vet(_ uri: String, by rules: RendererPushRules, then: @escaping (String?) -> Void) {
        then(rules.refusal(for: uri))
    }
}

/// Resolves at once, on the caller's thread.
public final class ImmediateResolver: MediaResolving {
    private let fileSystem: FileSystem

    public init(fileSystem: FileSystem) { self.fileSystem = fileSystem }

    public func resolve(_ uris: [String], then: @escaping (MediaResolution) -> Void) {
        then(MediaResolution(resolving: uris, in: fileSystem))
    }
}
