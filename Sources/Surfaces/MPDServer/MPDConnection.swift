import Glibc
import LoopKit
import MPDProtocol

/// One client's socket: bytes read into lines for its ``MPDSession``, replies written as the socket takes them.
/// A line longer than ``MPDServer/Limits/lineBytes`` or input the session refuses closes this connection only.
/// Before each command the session runs, more than ``MPDServer/Limits/outputBytes`` of replies left unread closes
/// the connection (one long reply alone is sent whole), and a run that has held the loop for
/// ``MPDServer/Limits/sliceNanoseconds`` is paused until the loop's next turn, after other clients.
final class MPDConnection: MPDSessionOwner {
    let fd: Int32
    let session: MPDSession
    /// Where it came from, for the log ("127.0.0.1:40312", "socket").
    let peer: String
    private unowned let server: MPDServer
    private var input: [UInt8] = []
    /// Replies to send, in order, in the blocks the session gave them (a long listing is sent from where it was built).
    private var output: [[UInt8]] = []
    /// The bytes of `output`'s first block already sent, and those of all its blocks not sent yet.
    private var sent = 0, unsent = 0
    /// A block of 1 MiB or more went out since the output was last empty.
    private var sentLongBlock = false
    private var readWatch: DescriptorWatch?
    private var writeWatch: DescriptorWatch?
    /// Lines are being handed to the session (a command finishing inside it does not start another pass).
    private var isProcessing = false
    private(set) var isClosed = false
    /// The loop's clock when the client last sent something or a reply went out.
    private(set) var lastActivity: UInt64
    /// When the work of the current loop callback began, in nanoseconds.
    private var sliceStart: UInt64 = 0
    /// The paused session's resumption at the loop's next turn.
    private var resumption: LoopTimer?

    init(fd: Int32, peer: String, session: MPDSession, server: MPDServer) {
        self.fd = fd
        self.peer = peer
        self.session = session
        self.server = server
        lastActivity = MPDServer.nowMilliseconds()
        session.owner = self
    }

    func start(on loop: EventLoop) {
        readWatch = loop.watch(fd, for: .readable) { [weak self] in self?.readable() ?? false }
        enqueue(Array("OK MPD \(MPDServer.protocolVersion)\n".utf8))
        flush()
    }

    /// Whether the client is waiting in `idle` (exempt from the timeout).
    var isIdling: Bool { session.isIdle }

    func sessionHasOutput(_ session: MPDSession) {
        flush()
        processLines() // lines that came while a command ran
    }

    func sessionReplied(_ session: MPDSession) { flush() }

    func sessionShouldPause(_ session: MPDSession) -> Bool {
        // Replies left unread while more are asked for (in a list or not): past the limit the client is closed, as
        // MPD closes it, and its replies' memory released. One long reply alone is sent whole, as the client reads.
        if unsent + session.outputCount > MPDServer.Limits.outputBytes {
            flush() // what the socket takes at once
            if isClosed { return true }
            if unsent > MPDServer.Limits.outputBytes {
                close(reason: "more than \(MPDServer.Limits.outputBytes) bytes of replies not read")
                return true
            }
        }
        guard MPDServer.nowNanoseconds() &- sliceStart > MPDServer.Limits.sliceNanoseconds else { return false }
        resumeAtNextTurn()
        return true
    }

    private func resumeAtNextTurn() {
        guard resumption == nil else { return }
        resumption = server.loop.once(afterMilliseconds: 0) { [weak self] in
            guard let self, !self.isClosed else { return }
            self.resumption = nil
            self.sliceStart = MPDServer.nowNanoseconds()
            self.session.resume()
        }
    }

    private func readable() -> Bool {
        guard !isClosed else { return false }
        let chunk = server.readBuffer
        let result = Sockets.read(fd, into: chunk)
        switch result {
        case .wouldBlock:
            return true
        case .closed:
            close(reason: nil)
            return false
        case .bytes(let count):
            lastActivity = MPDServer.nowMilliseconds()
            sliceStart = MPDServer.nowNanoseconds()
            input.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<count]))
            processLines()
            guard !isClosed else { return false }
            if input.count > MPDServer.Limits.lineBytes && !input.contains(0x0A) {
                close(reason: "a line longer than \(MPDServer.Limits.lineBytes) bytes")
                return false
            }
            if input.count > MPDServer.Limits.waitingInputBytes {
                close(reason: "more than \(MPDServer.Limits.waitingInputBytes) bytes sent while a command ran")
                return false
            }
            return true
        }
    }

    /// Hands complete lines to the session while it takes them, then sends what it answered.
    private func processLines() {
        guard !isProcessing else { return }
        isProcessing = true
        defer { isProcessing = false }
        var start = 0
        // A command may close the connection (its input then released): nothing of the input is touched after that.
        while !isClosed, !session.isBusy, !session.isClosing, let end = input[start...].firstIndex(of: 0x0A) {
            var line = Array(input[start..<end])
            if line.last == 0x0D { line.removeLast() }
            start = end + 1
            guard line.count <= MPDServer.Limits.lineBytes else { return close(reason: "a line longer than \(MPDServer.Limits.lineBytes) bytes") }
            session.receive(line)
        }
        guard !isClosed else { return }
        if start > 0 { input.removeFirst(start) }
        flush()
    }

    private func flush() {
        guard !isClosed else { return }
        // The limit is on replies left unread while more are asked for: one long reply (a large library's
        // listallinfo) is sent whole however long it is, as the client reads it; the session is paused before its
        // next command while more than the limit waits (``sessionShouldPause(_:)``).
        for block in session.takeOutputBlocks() { enqueue(block) }
        while let block = output.first {
            guard let written = Sockets.write(fd, block[sent...]) else { return close(reason: nil) }
            if written == 0 { break }
            sent += written
            unsent -= written
            lastActivity = MPDServer.nowMilliseconds()
            if sent == block.count {
                if block.count >= 1 << 20 { sentLongBlock = true }
                output.removeFirst()
                sent = 0
            }
        }
        if output.isEmpty {
            // A long reply (a large library's listallinfo) was built in large blocks that malloc keeps for later:
            // given back to the system once it is sent, so that memory does not stay at its peak.
            if sentLongBlock { MallocTuning.returnFreedMemory() }
            sentLongBlock = false
            writeWatch?.cancel()
            writeWatch = nil
            if session.isClosing { close(reason: nil) }
        } else if writeWatch == nil {
            writeWatch = server.loop.watch(fd, for: .writable) { [weak self] in
                guard let self, !self.isClosed else { return false }
                self.writeWatch = nil
                self.sliceStart = MPDServer.nowNanoseconds()
                self.flush()
                return false
            }
        }
    }

    /// Queues `block` to be sent after what waits; a short one joins a short last block not being sent yet, so that
    /// small replies go out in one write.
    private func enqueue(_ block: [UInt8]) {
        unsent += block.count
        let short = MPDResponse.blockBytes
        let lastWaits = output.count > (sent > 0 ? 1 : 0) // the last block is not the one being sent
        if block.count < short, lastWaits, output[output.count - 1].count < short {
            output[output.count - 1].append(contentsOf: block)
        } else {
            output.append(block)
        }
    }

    /// Closes the socket (once); `reason` is logged when it is the server's doing.
    func close(reason: String?) {
        guard !isClosed else { return }
        isClosed = true
        resumption?.cancel()
        resumption = nil
        readWatch?.cancel()
        writeWatch?.cancel()
        Glibc.close(fd)
        let held = unsent + input.count
        output = []
        (sent, unsent) = (0, 0)
        input = []
        if held >= 1 << 20 { MallocTuning.returnFreedMemory() }
        server.connectionClosed(self, reason: reason)
    }
}
