import LoopKit
import MPRIS
import RepriseInterfaces
import RepriseLibrary

/// The music library as a component: started once the service's name is owned (the first pass runs in the
/// background) together with MediaServer2's own name; stopped with its timers cancelled and that name released.
final class LibraryComponent: ServiceComponent {
    let name = "library"
    private let library: LibraryService
    private let exports: LibraryExports?

    /// - Parameter exports: the library on the bus, when it could be offered there.
    init(library: LibraryService, exports: LibraryExports?) {
        self.library = library
        self.exports = exports
    }

    func start() {
        exports?.claimMediaServerName()
        library.start()
    }

    func stop(_ done: @escaping () -> Void) {
        library.stop()
        exports?.releaseMediaServerName()
        done()
    }
}

/// Work done every so often while the service runs (looking at the playlist folders, say); its timer is cancelled
/// on stop.
final class PeriodicComponent: ServiceComponent {
    let name: String
    private let loop: LoopTimers
    private let milliseconds: UInt32
    private let action: () -> Void
    private var timer: LoopTimer?

    init(name: String, loop: LoopTimers, everyMilliseconds milliseconds: UInt32, _ action: @escaping () -> Void) {
        self.name = name
        self.loop = loop
        self.milliseconds = milliseconds
        self.action = action
    }

    func start() {
        timer = loop.every(milliseconds: milliseconds, action)
    }

    func stop(_ done: @escaping () -> Void) {
        timer?.cancel()
        timer = nil
        done()
    }
}
