/// An error as an MPD client reads it: `ACK [code@index] {command} message`.
public struct MPDError: Error, Equatable, Sendable {
    /// MPD's `ACK_ERROR_…` numbers.
    public enum Code: Int, Sendable {
        // 1 to 5, in MPD's order.
        case notList = 1, argument, password, permission, unknown
        // 50 to 56.
        case noExist = 50, playlistMax, system, playlistLoad, updateAlready, playerSync, exist
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func argument(_ message: String) -> MPDError { MPDError(.argument, message) }
    static func noExist(_ message: String) -> MPDError { MPDError(.noExist, message) }

    /// The line sent for this error, raised by the command `command` at `index` in a command list (0 outside one).
    func line(command: String, index: Int) -> String {
        "ACK [\(code.rawValue)@\(index)] {\(command)} \(MPDResponse.oneLine(message))\n"
    }
}
