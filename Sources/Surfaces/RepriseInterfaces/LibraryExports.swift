import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// The music library on the bus: app.reprise.Library1, GNOME Shell's and KRunner's search providers, and the
/// MediaServer2 tree under its own name (taken by ``claimMediaServerName()``). Built before the ``DBusAdaptor``,
/// which announces Library1's properties; follows the feed itself for what MediaServer2 clients hear (containers
/// updated when the library's outline or the playlist folders changed).
public final class LibraryExports: ChangeListener {
    private let bus: any ObjectBus
    private let library: LibraryAccess
    private let log: Log
    /// app.reprise.Library1's handler, watched by the adaptor's announcer.
    let interface: LibraryInterface
    private let search: DesktopSearch
    private let tree: MediaServerTree
    private var lastOutline: LibraryOutline
    private var mediaServerNameOwned = false

    /// Exports Library1 (throws when it cannot); the search providers and MediaServer2 are offered when they can be.
    public init(bus: any ObjectBus, library: LibraryAccess, playlists: PlaylistLibrary, player: Player, remote: RemoteControl,
                log: Log) throws(DBusError) {
        self.bus = bus
        self.library = library
        self.log = log
        interface = LibraryInterface(library: library, playlists: playlists, player: player, remote: remote)
        try bus.export(Library1Export(interface), at: RepriseObjects.ownPath)
        search = DesktopSearch(library: library, player: player, remote: remote, log: log)
        do {
            try bus.export(ShellSearchProvider2Export(GnomeSearchProvider(search: search)), at: GnomeSearchProvider.objectPath)
            try bus.export(Krunner1Export(KRunnerProvider(search: search)), at: KRunnerProvider.objectPath)
        } catch {
            log.warning("could not export the desktop search providers: \(error)")
        }
        // The standard browsing interface, under a name of its own.
        tree = MediaServerTree(library: library, playlists: playlists)
        lastOutline = library.outline
        do {
            let (objects, containers, items) = MediaServerObject.exports(of: tree)
            try bus.exportTree(objects, under: MediaServerTree.root)
            try bus.exportTree(containers, under: MediaServerTree.root)
            try bus.exportTree(items, under: MediaServerTree.root)
            // An item path kept from an earlier run is looked up in the index before its properties are read.
            try bus.addFilter(under: MediaServerTree.root) { [weak tree] path, interface, member in
                guard let tree, interface == "org.freedesktop.DBus.Properties", ["Get", "GetAll"].contains(member),
                      tree.isUnlistedItem(path) else { return nil }
                return { call in tree.answerProperties(call, at: path) }
            }
        } catch {
            log.warning("could not export MediaServer2: \(error)")
        }
    }

    /// Takes MediaServer2's own name; false when another process has it.
    @discardableResult
    public func claimMediaServerName() -> Bool {
        guard (try? bus.requestName(MediaServerTree.busName)) == true else {
            log.info("\(MediaServerTree.busName) is taken: no MediaServer2 here")
            return false
        }
        mediaServerNameOwned = true
        return true
    }

    /// Gives MediaServer2's name back (on stop).
    public func releaseMediaServerName() {
        guard mediaServerNameOwned else { return }
        mediaServerNameOwned = false
        bus.releaseName(MediaServerTree.busName)
        log.info("released \(MediaServerTree.busName)")
    }

    public func didChange(_ change: Change) {
        if change.aspects.contains(.library) { libraryChanged() }
        if change.aspects.contains(.storedPlaylists) { playlistsChanged(edited: change.playlists.edited.map(\.id)) }
    }

    /// MediaServer2 clients hear that the playlists container and the playlists written again changed.
    private func playlistsChanged(edited: [String]) {
        let playlists = MediaServerTree.root + "/Playlists"
        for path in [MediaServerTree.root, playlists] + edited.map({ playlists + "/" + MediaServerTree.encode($0) }) {
            try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
        }
    }

    /// MediaServer2 clients hear that the top containers changed.
    private func libraryChanged() {
        guard library.outline != lastOutline else { return }
        lastOutline = library.outline
        for path in [MediaServerTree.root] + ["Artists", "Albums", "Genres"].map({ MediaServerTree.root + "/" + $0 }) {
            try? UPnPMediaContainer2Signals(bus: bus, path: path).updated()
        }
    }
}
