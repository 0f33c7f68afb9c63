import BusInterfaces
import RepriseCore
import SDBus

/// What Reprise's scrobbling interface reads and changes; the service's scrobbler implements it.
public protocol ScrobbleControl: AnyObject {
    var isEnabled: Bool { get }
    var server: String { get }
    var queued: Int { get }
    var sent: Int { get }
    var dropped: Int { get }
    var lastError: String { get }
    var lastSent: Int64 { get }
    var retryAt: Int64 { get }
    /// Turns scrobbling on or off; on while on tries to send now.
    func setEnabled(_ on: Bool)
    // Publishes ``ChangeAspects/scrobbling`` into the player's feed when any of the above changed.
}

/// app.reprise.Scrobble1: listens sent to a ListenBrainz server, the queue and the last error.
final class ScrobbleInterface: Scrobble1Handler {
    private let control: ScrobbleControl

    init(control: ScrobbleControl) { self.control = control }

    var enabled: Bool { control.isEnabled }
    func set(enabled value: Bool) throws(DBusError) { control.setEnabled(value) }
    var server: String { control.server }
    var queued: UInt32 { UInt32(clamping: control.queued) }
    var sent: UInt64 { UInt64(clamping: control.sent) }
    var dropped: UInt64 { UInt64(clamping: control.dropped) }
    var lastError: String { control.lastError }
    var lastSent: Int64 { control.lastSent }
    var retryAt: Int64 { control.retryAt }
}
