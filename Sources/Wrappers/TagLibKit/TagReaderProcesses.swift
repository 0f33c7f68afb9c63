import CTagReaderClient
import Dispatch
import Glibc
import PosixFiles
import RepriseCore
import Synchronization

/// The tag reader processes (`reprise-tag-reader`, beside the running executable) that ``TagLibReader`` asks: TagLib
/// parses files anyone can put in a music folder, so it runs there — a crafted file that crashes or hangs it costs
/// that process (the read falls back to GStreamer), and the service maps none of TagLib or of the C++ library it
/// starts. A read takes an idle process or starts one (so concurrent readers each have their own); a process idle
/// for ``idleSeconds`` is ended, so a service that only plays keeps none.
public final class TagReaderProcesses: Sendable {
    /// One running reader: the service's end of its socket and its process id.
    struct Reader {
        let connection: Int32
        let pid: pid_t
        var idleSinceNanoseconds: UInt64 = 0
    }

    private struct State {
        var idle: [Reader] = []
        var running = 0
        var endingScheduled = false
        var startFailureReported = false
    }

    /// The processes every reader in this process shares, started from `reprise-tag-reader` beside the executable.
    public static let shared = TagReaderProcesses(path: ProcessArguments.sibling("reprise-tag-reader"))

    public let path: String
    public let idleSeconds: Double
    /// The longest a process may take to answer for one file before it is ended (and the file left to GStreamer).
    public let timeoutMilliseconds: Int32
    private let state = Mutex(State())

    public init(path: String, idleSeconds: Double = 10, timeoutMilliseconds: Int32 = 20_000) {
        self.path = path
        self.idleSeconds = idleSeconds
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// How many reader processes are running now (idle or reading).
    public var runningCount: Int { state.withLock { $0.running } }

    /// The process ids of the idle readers.
    public var idleProcessIDs: [Int32] { state.withLock { $0.idle.map(\.pid) } }

    /// Reads `descriptor` as `fileExtension` in a reader process: rp_tag_reader_read's status (0, -1, -2, or -3 when
    /// no process answered properly). A reused process that fails is replaced once; a new one that fails is not
    /// asked again for the same file.
    func read(descriptor: Int32, size: Int64, fileExtension: String, pictureLimit: Int, valueLimit: Int,
              valueCountLimit: Int, into file: inout rp_taglib_file) -> Int32 {
        for _ in 0..<2 {
            let reused = state.withLock { state in state.idle.popLast() }
            guard let reader = reused ?? start() else { return -3 }
            let status = rp_tag_reader_read(reader.connection, descriptor, size, fileExtension, pictureLimit, valueLimit,
                                            valueCountLimit, timeoutMilliseconds, &file)
            guard status == -3 else {
                giveBack(reader)
                return status
            }
            end(reader)
            if reused == nil { return -3 }
        }
        return -3
    }

    /// Ends every idle reader now (a busy one ends when given back after its idle time).
    public func endIdle() {
        let readers = state.withLock { state in
            defer { state.idle = [] }
            return state.idle
        }
        readers.forEach(end)
    }

    private func start() -> Reader? {
        var connection: Int32 = -1
        var pid: pid_t = 0
        let failed = rp_tag_reader_start(path, &connection, &pid)
        guard failed == 0 else {
            let report = state.withLock { state in
                defer { state.startFailureReported = true }
                return !state.startFailureReported
            }
            if report {
                let reason = String(cString: strerror(failed))
                var line = "reprise: warning: " + TerminalText.sanitized("tags: cannot start \(path) (\(reason)): tags come "
                                                                        + "from GStreamer's discoverer alone") + "\n"
                line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
            }
            return nil
        }
        state.withLock { $0.running += 1 }
        return Reader(connection: connection, pid: pid)
    }

    private func giveBack(_ reader: Reader) {
        var reader = reader
        reader.idleSinceNanoseconds = DispatchTime.now().uptimeNanoseconds
        let schedule = state.withLock { state in
            state.idle.append(reader)
            defer { state.endingScheduled = true }
            return !state.endingScheduled
        }
        if schedule { scheduleEnding() }
    }

    private func scheduleEnding() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + idleSeconds) { [self] in
            let limit = UInt64(idleSeconds * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            let (expired, again) = state.withLock { state in
                let expired = state.idle.filter { now &- $0.idleSinceNanoseconds >= limit }
                state.idle.removeAll { now &- $0.idleSinceNanoseconds >= limit }
                state.endingScheduled = !state.idle.isEmpty
                return (expired, state.endingScheduled)
            }
            expired.forEach(end)
            if again { scheduleEnding() }
        }
    }

    /// Closes the reader's socket and ends it (it holds no state worth a goodbye: SIGKILL, then reaped).
    private func end(_ reader: Reader) {
        close(reader.connection)
        kill(reader.pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(reader.pid, &status, 0) < 0 && errno == EINTR {}
        state.withLock { $0.running -= 1 }
    }
}
