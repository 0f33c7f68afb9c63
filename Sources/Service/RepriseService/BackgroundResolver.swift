import LoopKit
import RepriseCore

/// The player's ``MediaResolving`` in the service: playlists are read and their entries checked on a worker
/// thread, so a playlist of 100,000 entries never holds up replies to other calls.
final class BackgroundResolver: MediaResolving {
    private let work: BackgroundWork
    private let fileSystem: FileSystem

    init(work: BackgroundWork, fileSystem: FileSystem) {
        self.work = work
        self.fileSystem = fileSystem
    }

    func resolve(_ uris: [String], then: @escaping (MediaResolution) -> Void) {
        let fileSystem = fileSystem
        work.run({ MediaResolution(resolving: uris, in: fileSystem) }, then: then)
    }

    func vet(_ uri: String, by rules: RendererPushRules, then: @escaping (String?) -> Void) {
        work.run({ rules.refusal(for: uri) }, then: then)
    }
}
