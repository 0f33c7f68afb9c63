import RepriseCore
import SDBus

extension PlayerError {
    var dbusError: DBusError {
        switch self {
        case .invalidArgument(let m): .invalidArgs(m)
        case .unsupportedScheme(let m): .notSupported(m)
        case .unplayable(let m): .failed(m)
        }
    }
}

extension MethodCall {
    /// Replies to a request the player carries out later (see ``MethodOutcome/deferred``): nil is success.
    func answer(_ error: PlayerError?) {
        if let error { fail(error.dbusError) } else { reply() }
    }
}
