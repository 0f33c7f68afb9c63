import BusInterfaces
import SDBus

/// What Reprise's MPD server interface reads; the service's MPD component implements it.
public protocol MPDServerStatus: AnyObject {
    /// Where clients reach the server ("127.0.0.1:6600", a socket's path).
    var addresses: [String] { get }
    var clientCount: Int { get }
}

/// app.reprise.MPDServer1: where MPD clients reach Reprise, and how many are connected.
final class MPDServerInterface: MPDServer1Handler {
    private let status: MPDServerStatus

    init(status: MPDServerStatus) { self.status = status }

    var addresses: [String] { status.addresses }
    var clients: UInt32 { UInt32(clamping: status.clientCount) }
}
