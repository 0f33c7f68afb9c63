import RepriseCore
import RepriseLibrary

/// Tells the player the measured loudness of the file that loads, when the library measured it (its tags carry no
/// ReplayGain): ReplayGain then levels it as if tagged.
final class MeasuredGainLookup: ChangeListener {
    private let player: Player
    private let library: LibraryService
    private var lookedUpFor: String?

    init(player: Player, library: LibraryService) {
        self.player = player
        self.library = library
    }

    func didChange(_ change: Change) {
        if change.aspects.contains(.measurements) { return lookUp() }
        guard change.aspects.contains(.current), player.loadedURI != lookedUpFor else { return }
        lookedUpFor = player.loadedURI
        lookUp()
    }

    /// Asks the library for the loaded file's measurement (again after each step of measuring: it may be new).
    private func lookUp() {
        guard let uri = player.loadedURI, let location = MediaURI(uri), location.scheme == "file" else { return }
        library.measuredLoudness(at: FilePath(escaped: location.path)) { [weak self] found in
            guard let self, let found else { return }
            player.didMeasureLoudness(track: found.track, album: found.album, for: uri)
        }
    }
}
