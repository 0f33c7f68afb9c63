import BusInterfaces
import RepriseCore
import SDBus

extension PlayerError {
    /// The D-Bus error a refusal of the player is: bad input, an unsupported scheme, a failure, or too much waiting work.
    public var dbusError: DBusError {
        switch self {
        case .invalidArgument(let m): .invalidArgs(m)
        case .unsupportedScheme(let m): .notSupported(m)
        case .unplayable(let m): .failed(m)
        case .busy(let m): .limitsExceeded(m)
        }
    }
}

extension Reply where Value == Void {
    /// Answers a request the player carried out later: nil is success.
    public func answer(_ error: PlayerError?) {
        if let error { fail(error.dbusError) } else { send() }
    }
}
