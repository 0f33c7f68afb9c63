/// An error as an MPD client reads it: `ACK [code@index] {command} message`.
public struct MPDError: Error, Equatable, Sendable {
    /// MPD's `ACK_ERROR_…` numbers.
    public enum Code: Int, Sendable {
        case notList = 1
        case argument = 2
        case password = 3
        case permission = 4
        case unknown = 5
        case noExist = 50
        case playlistMax = 51
        case system = 52
        case playlistLoad = 53
        case updateAlready = 54
        case playerSync = 55
        case exist = 56
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
