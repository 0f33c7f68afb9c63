import BusInterfaces
import Glibc
import LoopKit
import MPRIS
import RepriseCore
import SDBus

/// Reprise on the session bus: owns the plain name (or `.instance<PID>` when another player holds it) once its
/// objects are exported, notices the bus going away, and at the end releases the name, sends what is queued and
/// stops answering.
final class BusComponent: ServiceComponent {
    let name = "session bus"
    let bus: Bus
    private let log: Log
    private let onLost: () -> Void
    /// The name owned, once started.
    private(set) var ownedName = ""
    private(set) var isLost = false

    /// - Parameter onLost: the bus went away (the service stops: it cannot be reached any more).
    init(bus: Bus, log: Log, onLost: @escaping () -> Void) {
        self.bus = bus
        self.log = log
        self.onLost = onLost
    }

    /// Only the instance that owns the plain name keeps the saved state.
    var ownsPlainName: Bool { ownedName == RepriseObjects.busName }

    func start() throws {
        ownedName = try Self.claimName(on: bus)
        try bus.onDisconnect { [unowned self] in
            isLost = true
            onLost()
        }
    }

    func stop(_ done: @escaping () -> Void) {
        if !isLost {
            bus.releaseName(ownedName)
            bus.flush()
            // Nothing is answered once the name is gone, while the rest stops: a reply reaching a client after the
            // name vanished finds it has forgotten us (playerctl 2.4.1's daemon then reads a freed player and
            // crashes; its error path is safe, so unanswered calls are).
            bus.detachFromEvent()
            log.info("released \(ownedName)")
        }
        done()
    }

    /// Owns the plain name, or the per-process instance name when another player holds it.
    private static func claimName(on bus: Bus) throws(DBusError) -> String {
        if try bus.requestName(RepriseObjects.busName) { return RepriseObjects.busName }
        let instance = RepriseObjects.busName + ".instance\(getpid())"
        guard try bus.requestName(instance) else { throw DBusError.failed("\(instance) is taken") }
        return instance
    }
}

/// systemd's side (Type=notify): READY with the name once everything has started, watchdog pings from the loop,
/// STOPPING first when the service stops.
final class SystemdComponent: ServiceComponent {
    let name = "systemd"
    private let notifier = SystemdNotifier()
    private let loop: EventLoop
    private let status: () -> String

    init(loop: EventLoop, status: @escaping () -> String) {
        self.loop = loop
        self.status = status
    }

    func start() {
        notifier.ready(status: status())
        notifier.startWatchdog(on: loop)
    }

    func stop(_ done: @escaping () -> Void) {
        notifier.stopping()
        notifier.stopWatchdog()
        done()
    }
}
