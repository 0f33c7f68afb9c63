import CSystemd
import Glibc

/// A D-Bus error reply (name and human-readable message), or a local sd-bus failure.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public static func invalidArgs(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message)
    }

    public static func failed(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.Failed", message: message)
    }

    /// No such property on this interface.
    public static func unknownProperty(_ property: String, _ message: String? = nil) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: message ?? "no property \(property)")
    }

    /// The property exists but cannot be set.
    public static func readOnly(_ property: String, _ message: String? = nil) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.PropertyReadOnly", message: message ?? "\(property) is read-only")
    }

    /// A limit against abuse was reached (too much asked at once); the caller may ask again, or ask for less.
    public static func limitsExceeded(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.LimitsExceeded", message: message)
    }

    public static func notSupported(_ message: String) -> DBusError {
        DBusError(name: "org.freedesktop.DBus.Error.NotSupported", message: message)
    }

    /// Wraps a negative errno returned by an sd-bus call.
    public static func errno(_ code: Int32, _ what: String) -> DBusError {
        let text = String(cString: strerror(-code))
        return DBusError(name: "org.freedesktop.DBus.Error.Failed", message: "\(what): \(text)")
    }

    init(_ error: UnsafePointer<sd_bus_error>) {
        name = error.pointee.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        message = error.pointee.message.map { String(cString: $0) } ?? ""
    }

    /// Fills an sd_bus_error (as handed to a vtable callback) and returns the negative value sd-bus expects.
    func fill(_ error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        sd_bus_error_set(error, name, message)
    }

    public var description: String { "\(name): \(message)" }
}

@inline(__always)
func check(_ result: Int32, _ what: @autoclosure () -> String) throws(DBusError) {
    if result < 0 { throw DBusError.errno(result, what()) }
}
