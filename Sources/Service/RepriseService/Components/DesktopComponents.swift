import Dispatch
import RepriseCore
import RepriseLibrary
import SDBus

/// Screen locks, as GNOME and KDE announce them on the session bus, told to the audio session; the matches are
/// removed on stop.
final class ScreenLockWatch: ServiceComponent {
    let name = "screen lock"
    static let screenSavers = ["org.gnome.ScreenSaver", "org.freedesktop.ScreenSaver"]
    private let bus: Bus
    private let onChange: (_ locked: Bool) -> Void
    private var matches: [BusMatch] = []

    init(bus: Bus, onChange: @escaping (_ locked: Bool) -> Void) {
        self.bus = bus
        self.onChange = onChange
    }

    func start() throws {
        for screenSaver in Self.screenSavers {
            matches.append(try bus.addMatch(.signals(of: screenSaver, member: "ActiveChanged")) { [onChange] message in
                if case .bool(let locked)? = message.arguments.first { onChange(locked) }
            })
        }
    }

    func stop(_ done: @escaping () -> Void) {
        matches.forEach { $0.remove() }
        matches.removeAll()
        done()
    }
}

/// Trims the cover cache once, in the background (it reads the whole cache directory, so never on the loop).
final class ArtTrim: ServiceComponent {
    let name = "cover cache"
    private let art: ArtCache

    init(art: ArtCache) { self.art = art }

    func start() {
        DispatchQueue.global(qos: .utility).async { [art] in art.trim() }
    }

    func stop(_ done: @escaping () -> Void) { done() }
}
