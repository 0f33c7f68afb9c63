/// Hears what a session needs from the connection around it.
public protocol MPDSessionOwner: AnyObject {
    /// Replies were added outside a ``MPDSession/receive(_:)`` call (a command that finished later, an idle woken).
    func sessionHasOutput(_ session: MPDSession)
}

/// One client connection's side of the protocol, without the socket: lines in, replies out. Runs command lists
/// (stopping at the first error), `idle`/`noidle`, commands that finish later (lines that come meanwhile wait),
/// and the connection's own settings (permissions, tag types, binary limit). Owned by the event loop.
public final class MPDSession {
    /// The largest command list, in bytes of its lines (MPD's `max_command_list_size`).
    public static let maximumCommandListBytes = 2 * 1024 * 1024

    public let commands: MPDCommandSet
    public weak var owner: MPDSessionOwner?
    public var permissions: MPDPermissions
    /// The tags the client asked for (`tagtypes`), of those the server has.
    public var tagTypes: Set<String>
    /// The largest binary chunk sent at once (`binarylimit`).
    public var binaryLimit = 8192
    var output = MPDResponse()
    /// True once the connection is to be closed (after the output is sent).
    public private(set) var isClosing = false
    /// The subsystems waited on while in `idle`.
    private var idleSubscriptions: MPDIdle?
    /// What changed since the last idle reply.
    private var pendingIdle: MPDIdle = []
    private var list: (okMode: Bool, lines: [[UInt8]], bytes: Int)?
    /// Lines received while a command runs, in order.
    private var waiting: [[UInt8]] = []
    private var isRunning = false

    public init(commands: MPDCommandSet, permissions: MPDPermissions) {
        self.commands = commands
        self.permissions = permissions
        tagTypes = Set(commands.tagTypes)
    }

    /// Whether the client waits in `idle`.
    public var isIdle: Bool { idleSubscriptions != nil }
    /// Whether a command is still running (lines received wait for it).
    public var isBusy: Bool { isRunning || !waiting.isEmpty }

    /// Takes the replies built so far.
    public func takeOutput() -> [UInt8] { output.take() }
    public var hasOutput: Bool { !output.isEmpty }

    /// Handles one line from the client (without its line feed).
    public func receive(_ line: [UInt8]) {
        guard !isClosing else { return }
        if isRunning {
            waiting.append(line)
            return
        }
        process(line)
    }

    /// Tells the session that `changed` subsystems changed: an idle waiting on one of them wakes.
    public func notify(_ changed: MPDIdle) {
        pendingIdle.formUnion(changed)
        guard let subscriptions = idleSubscriptions, !pendingIdle.intersection(subscriptions).isEmpty else { return }
        wakeIdle(subscriptions)
        owner?.sessionHasOutput(self)
    }

    private func wakeIdle(_ subscriptions: MPDIdle) {
        for name in pendingIdle.intersection(subscriptions).names { output.add("changed", name) }
        output.line("OK")
        pendingIdle.subtract(subscriptions)
        idleSubscriptions = nil
    }

    private func process(_ line: [UInt8]) {
        // Every command starts with a lower-case letter: anything else is not a client of this protocol.
        guard let first = line.first, (0x61...0x7A).contains(first) else { return close() }
        let text = String(decoding: line, as: UTF8.self)
        if text == "noidle" {
            if idleSubscriptions != nil {
                idleSubscriptions = nil
                output.line("OK")
            }
            return
        }
        guard idleSubscriptions == nil else { return close() } // only noidle is valid during idle
        if var open = list {
            if text == "command_list_end" {
                list = nil
                run(open.lines, okMode: open.okMode, from: 0)
            } else {
                open.bytes += line.count + 1
                guard open.bytes <= Self.maximumCommandListBytes else { return close() }
                open.lines.append(line)
                list = open
            }
            return
        }
        switch text {
        case "command_list_begin": list = (false, [], 0)
        case "command_list_ok_begin": list = (true, [], 0)
        default: run([line], okMode: false, from: 0, single: true)
        }
    }

    /// Runs `lines[index...]` of a command list (or the single command), then `OK`; stops at the first error.
    private func run(_ lines: [[UInt8]], okMode: Bool, from index: Int, single: Bool = false) {
        guard index < lines.count else {
            output.line("OK")
            return
        }
        let listIndex = single ? 0 : index
        let request: MPDRequest
        do throws(MPDError) {
            request = try MPDRequest(parsing: lines[index])
        } catch {
            output.line(error.line(command: "", index: listIndex))
            if error.code == .unknown { close() }
            return
        }
        guard let command = commands.command(named: request.name) else {
            output.line(MPDError(.unknown, "unknown command \"\(request.name)\"").line(command: "", index: listIndex))
            return
        }
        guard permissions.isSuperset(of: command.permission) else {
            let refusal = MPDError(.permission, "you don't have permission for \"\(command.name)\"")
            output.line(refusal.line(command: command.name, index: listIndex))
            return
        }
        if let refusal = command.checkArgumentCount(request.arguments.count) {
            output.line(refusal.line(command: command.name, index: listIndex))
            return
        }
        let outcome: MPDOutcome
        do throws(MPDError) {
            outcome = try command.run(MPDCall(arguments: request.arguments, session: self))
        } catch {
            output.line(error.line(command: command.name, index: listIndex))
            return
        }
        let next = { [self] in
            if okMode { output.line("list_OK") }
            run(lines, okMode: okMode, from: index + 1, single: single)
        }
        switch outcome {
        case .done:
            next()
        case .close:
            close()
        case .idle(let subscriptions):
            idleSubscriptions = subscriptions
            if !pendingIdle.intersection(subscriptions).isEmpty { wakeIdle(subscriptions) }
        case .later(let start):
            // Finished at once (inside `start`): go on here. Finished later: go on, then tell the owner.
            isRunning = true
            var finished = false, starting = true
            start { [self] error in
                guard !finished else { return }
                finished = true
                isRunning = false
                if let error {
                    output.line(error.line(command: command.name, index: listIndex))
                } else {
                    next()
                }
                guard !starting else { return }
                drainWaiting()
                owner?.sessionHasOutput(self)
            }
            starting = false
        }
    }

    /// Processes the lines that came while a command ran, until one runs long again.
    private func drainWaiting() {
        while !isRunning, !isClosing, !waiting.isEmpty {
            process(waiting.removeFirst())
        }
    }

    private func close() {
        isClosing = true
        waiting.removeAll()
    }
}
