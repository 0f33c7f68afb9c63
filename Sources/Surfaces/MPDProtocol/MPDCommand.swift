/// One command of the protocol: its name, the permission it needs, how many arguments it takes, and what it does.
public struct MPDCommand {
    public let name: String
    public let permission: MPDPermissions
    /// The fewest and most arguments; `maximum` nil: no limit.
    public let minimum: Int
    public let maximum: Int?
    public let run: (MPDCall) throws(MPDError) -> MPDOutcome

    public init(_ name: String, _ permission: MPDPermissions, _ minimum: Int, _ maximum: Int?,
                run: @escaping (MPDCall) throws(MPDError) -> MPDOutcome) {
        self.name = name
        self.permission = permission
        self.minimum = minimum
        self.maximum = maximum
        self.run = run
    }

    /// MPD's refusal of `count` arguments, or nil when they fit.
    func checkArgumentCount(_ count: Int) -> MPDError? {
        if minimum == maximum, count != minimum { return .argument("wrong number of arguments for \"\(name)\"") }
        if count < minimum { return .argument("too few arguments for \"\(name)\"") }
        if let maximum, count > maximum { return .argument("too many arguments for \"\(name)\"") }
        return nil
    }
}

/// What a command's run asks of the session after it returned.
public enum MPDOutcome {
    /// Done: `OK` follows (or `list_OK`, or the next command of a list).
    case done
    /// Done at once and the connection closes (`close`).
    case close
    /// The connection waits for changes to these subsystems (`idle`); no `OK` now.
    case idle(MPDIdle)
    /// Finishes later, on the loop: `start` is called with the function to call once done (nil: success).
    case later(_ start: (_ finish: @escaping (MPDError?) -> Void) -> Void)
}

/// One call of a command: its arguments, where its reply goes, and the connection's settings it may change.
public final class MPDCall {
    public let arguments: [String]
    public let session: MPDSession

    init(arguments: [String], session: MPDSession) {
        self.arguments = arguments
        self.session = session
    }

    /// Appends `key: value` to the reply.
    public func add(_ key: String, _ value: String) { session.output.add(key, value) }
    public func add(_ key: String, _ value: some BinaryInteger) { session.output.add(key, value) }
    public func add(_ key: String, seconds: Double) { session.output.add(key, seconds: seconds) }
    public func binary(_ data: some Collection<UInt8>) { session.output.binary(data) }
    /// Appends lines made elsewhere (a listing made off the loop).
    public func append(_ response: MPDResponse) { session.output.append(response) }

    /// Argument `index` (the count was checked against the command's).
    public subscript(index: Int) -> String { arguments[index] }
}
