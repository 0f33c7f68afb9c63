import RepriseCore

/// Hears what a session needs from the connection around it.
public protocol MPDSessionOwner: AnyObject {
    /// Replies were added outside a ``MPDSession/receive(_:)`` call (a command that finished later, an idle woken,
    /// a paused run resumed).
    func sessionHasOutput(_ session: MPDSession)
    /// Asked before each command the session runs: true to pause the run there. The owner then calls
    /// ``MPDSession/resume()`` later — once the client has read enough of the replies waiting for it, or on the loop's
    /// next turn when the run has held the loop long enough.
    func sessionShouldPause(_ session: MPDSession) -> Bool
    /// A run ended with its reply: send what is there now (and only that: no further line is taken meanwhile).
    func sessionReplied(_ session: MPDSession)
}

extension MPDSessionOwner {
    public func sessionReplied(_ session: MPDSession) {}
}

/// One client connection's side of the protocol, without the socket: lines in, replies out. Runs command lists
/// (stopping at the first error) as a loop that the owner may pause between any two commands, `idle`/`noidle`,
/// commands that finish later (lines that come meanwhile wait), and the connection's own settings (permissions,
/// tag types, binary limit, whether it may name local files). Owned by the event loop.
public final class MPDSession {
    /// The largest command list, in bytes of its lines (MPD's `max_command_list_size`).
    public static let maximumCommandListBytes = 2 * 1024 * 1024
    /// The most bytes of replies waiting for a client (MPD's `max_output_buffer_size`, 8 MiB by default): a reply that
    /// would be longer is refused, and a client that leaves more unread is closed.
    public static let maximumReplyBytes = 8 * 1024 * 1024

    public let commands: MPDCommandSet
    public weak var owner: MPDSessionOwner?
    public var permissions: MPDPermissions
    /// Whether the client may name files outside the music folder: MPD allows that only to a client of its own
    /// user on the Unix socket.
    public let mayNameLocalFiles: Bool
    /// The tags the client asked for (`tagtypes`), of those the server has, as listings check them.
    public private(set) var wantedTags: MPDWantedTags
    /// Their names.
    public var tagTypes: Set<String> {
        get { wantedTags.names }
        set { wantedTags = MPDWantedTags(newValue) }
    }
    /// The largest binary chunk sent at once (`binarylimit`).
    public var binaryLimit = 8192
    var output = MPDResponse()
    /// True once the connection is to be closed (after the output is sent).
    public private(set) var isClosing = false
    /// The subsystems waited on while in `idle`.
    private var idleSubscriptions: MPDIdle?
    /// What changed since the last idle reply.
    private var pendingIdle: MPDIdle = []
    /// The command list being received (between `command_list_begin` and `command_list_end`).
    private var receivingList: (okMode: Bool, bytes: Int)?
    private var receivedLines: [[UInt8]] = []
    /// The commands being run: a list, or one command alone.
    private var run: Run?
    /// A command of the run that finishes later has not finished yet.
    public private(set) var isCommandRunning = false
    /// The owner paused the run; it goes on at ``resume()``.
    public private(set) var isPaused = false
    /// Lines received while a run was under way, in order, from `waitingStart`.
    private var waiting: [[UInt8]] = []
    private var waitingStart = 0

    private struct Run {
        let lines: [[UInt8]]
        let okMode: Bool
        /// One command sent alone (its errors say index 0, and no `list_OK`).
        let single: Bool
        var next = 0
    }

    /// Held while each command runs: what it changed is told to followers once its reply is on its way (the run's
    /// last command) or before the next command runs (one of a list, which sees every follower's part done).
    private let feed: ChangeFeed?

    public init(commands: MPDCommandSet, permissions: MPDPermissions, mayNameLocalFiles: Bool = false, feed: ChangeFeed? = nil) {
        self.feed = feed
        self.commands = commands
        self.permissions = permissions
        self.mayNameLocalFiles = mayNameLocalFiles
        wantedTags = commands.allWantedTags // every tag, until the client says otherwise
    }

    /// Whether the client waits in `idle`.
    public var isIdle: Bool { idleSubscriptions != nil }
    /// Whether a run is under way (lines received wait for it).
    public var isBusy: Bool { run != nil || waitingStart < waiting.count }

    /// Takes the replies built so far.
    public func takeOutput() -> [UInt8] { output.take() }
    /// Takes the replies built so far as blocks to send in order (a long reply is one, as it was built).
    public func takeOutputBlocks() -> [[UInt8]] { output.takeBlocks() }
    public var hasOutput: Bool { !output.isEmpty }
    /// The bytes of replies built and not yet taken.
    public var outputCount: Int { output.count }

    /// Handles one line from the client (without its line feed).
    public func receive(_ line: [UInt8]) {
        guard !isClosing else { return }
        if isBusy {
            waiting.append(line)
            return
        }
        process(line)
    }

    /// Goes on with a run the owner paused, then with the lines that waited for it.
    public func resume() {
        guard isPaused else { return }
        isPaused = false
        continueRun()
        drainWaiting()
        owner?.sessionHasOutput(self)
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
        if line.elementsEqual("noidle".utf8) {
            if idleSubscriptions != nil {
                idleSubscriptions = nil
                output.line("OK")
            }
            return
        }
        guard idleSubscriptions == nil else { return close() } // only noidle is valid during idle
        if let list = receivingList {
            if line.elementsEqual("command_list_end".utf8) {
                receivingList = nil
                let lines = receivedLines
                receivedLines = []
                start(Run(lines: lines, okMode: list.okMode, single: false))
            } else {
                // Checked arithmetic is not needed: both terms are bounded (a line by the connection, the sum here).
                let bytes = list.bytes + line.count + 1
                guard bytes <= Self.maximumCommandListBytes else { return close() }
                receivingList = (list.okMode, bytes)
                receivedLines.append(line) // in place: the list so far is never copied
            }
            return
        }
        if line.elementsEqual("command_list_begin".utf8) {
            receivingList = (false, 0)
        } else if line.elementsEqual("command_list_ok_begin".utf8) {
            receivingList = (true, 0)
        } else {
            start(Run(lines: [line], okMode: false, single: true))
        }
    }

    private func start(_ newRun: Run) {
        run = newRun
        continueRun()
    }

    /// Runs the run's commands one after another — a loop, however long the list — until it ends (`OK`), a command
    /// fails (its ACK), a command finishes later, `idle` or `close` ends it, or the owner pauses it.
    private func continueRun() {
        while let current = run, !isCommandRunning, !isPaused, !isClosing {
            if endRunIfComplete() { return }
            let index = current.next
            if let owner, owner.sessionShouldPause(self) {
                isPaused = true
                return
            }
            feed?.hold()
            runCommand(current.lines[index], index: current.single ? 0 : index, okMode: current.okMode)
            endRunIfComplete()
            if feed != nil, run == nil, !isClosing { owner?.sessionReplied(self) } // the reply leaves first
            feed?.release()
        }
    }

    /// Ends the run with `OK` when its last command has succeeded and none is still running.
    @discardableResult
    private func endRunIfComplete() -> Bool {
        guard let run, run.next == run.lines.count, !isCommandRunning else { return false }
        output.line("OK")
        self.run = nil
        return true
    }

    /// Runs one command of the run; on success the run moves past it.
    private func runCommand(_ line: [UInt8], index listIndex: Int, okMode: Bool) {
        let request: MPDRequest
        do throws(MPDError) {
            request = try MPDRequest(parsing: line)
        } catch {
            fail(error.line(command: "", index: listIndex))
            if error.code == .unknown, error != MPDRequest.unclosedQuote { close() } // a bad command name, as MPD
            return
        }
        guard let command = commands.command(named: request.name) else {
            return fail(MPDError(.unknown, "unknown command \"\(request.name)\"").line(command: "", index: listIndex))
        }
        guard permissions.isSuperset(of: command.permission) else {
            let refusal = MPDError(.permission, "you don't have permission for \"\(command.name)\"")
            return fail(refusal.line(command: command.name, index: listIndex))
        }
        if let refusal = command.checkArgumentCount(request.arguments.count) {
            return fail(refusal.line(command: command.name, index: listIndex))
        }
        let outcome: MPDOutcome
        do throws(MPDError) {
            outcome = try command.run(MPDCall(arguments: request.arguments, session: self))
        } catch {
            return fail(error.line(command: command.name, index: listIndex))
        }
        switch outcome {
        case .done:
            succeeded(okMode: okMode)
        case .close:
            run = nil
            close()
        case .idle(let subscriptions):
            run = nil
            idleSubscriptions = subscriptions
            if !pendingIdle.intersection(subscriptions).isEmpty { wakeIdle(subscriptions) }
        case .later(let begin):
            // Finished at once (inside `begin`): the loop in continueRun goes on. Finished later: go on from here,
            // then tell the owner.
            isCommandRunning = true
            var finished = false, starting = true
            begin { [self] error in
                guard !finished else { return }
                finished = true
                isCommandRunning = false
                if let error { fail(error.line(command: command.name, index: listIndex)) } else { succeeded(okMode: okMode) }
                guard !starting else { return }
                continueRun()
                drainWaiting()
                owner?.sessionHasOutput(self)
            }
            starting = false
        }
    }

    private func succeeded(okMode: Bool) {
        if okMode { output.line("list_OK") }
        run?.next += 1
    }

    /// Ends the run with an error line.
    private func fail(_ line: String) {
        output.line(line)
        run = nil
    }

    /// Processes the lines that came while a run was under way, until one is under way again.
    private func drainWaiting() {
        while run == nil, !isClosing, waitingStart < waiting.count {
            let line = waiting[waitingStart]
            waiting[waitingStart] = []
            waitingStart += 1
            process(line)
        }
        if waitingStart == waiting.count {
            waiting.removeAll()
            waitingStart = 0
        }
    }

    private func close() {
        isClosing = true
        run = nil
        waiting.removeAll()
        waitingStart = 0
    }
}
