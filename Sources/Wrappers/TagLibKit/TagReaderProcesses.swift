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

    /// The most requests under way to one reader at once (their descriptors are in flight on its socket).
    static let window = 32

    /// Reads each request's file (extension in lower case) in a reader process, the requests sent ahead of their
    /// answers a ``window`` at a time (one wake-up of the reader serves many files): for each, a status (0, -1 or -2
    /// as rp_tag_reader_receive's, or -3 when no process answered properly) and what was read. A reused process
    /// that fails is replaced and the file asked again; a file a new process fails on is not asked again.
    /// `flags`: the requests' (`RP_TAG_READ_COMMENTS_AS_WRITTEN`, or none); `propertiesLimit`: the most bytes of
    /// records an answer may carry (0: as the value limits allow; a file with more is `RP_TAG_TOO_LARGE`).
    func read(_ requests: [TagLibReader.File], pictureLimit: Int, valueLimit: Int, valueCountLimit: Int,
              propertiesLimit: Int = 0, flags: UInt32 = 0) -> [(status: Int32, file: rp_taglib_file)] {
        var results = Array(repeating: (status: Int32(-3), file: rp_taglib_file()), count: requests.count)
        var next = 0
        while next < requests.count {
            let reused = state.withLock { state in state.idle.popLast() }
            guard let reader = reused ?? start() else { break }
            var failedAt: Int?
            while failedAt == nil && next < requests.count {
                let end = min(next + Self.window, requests.count)
                var sent = next
                while sent < end {
                    let request = requests[sent]
                    let status = rp_tag_reader_send(reader.connection, request.descriptor, request.size, request.fileExtension,
                                                    pictureLimit, valueLimit, valueCountLimit, propertiesLimit, flags)
                    if status == -3 { break }
                    results[sent].status = status == 0 ? 1 : status // 1: an answer is awaited
                    sent += 1
                }
                for index in next..<end where failedAt == nil {
                    guard index < sent else { failedAt = index; break }
                    guard results[index].status == 1 else { continue }
                    results[index].status = rp_tag_reader_receive(reader.connection, pictureLimit, valueLimit, valueCountLimit,
                                                                  propertiesLimit, timeoutMilliseconds, &results[index].file)
                    if results[index].status == -3 { failedAt = index }
                }
                if failedAt == nil { next = end }
            }
            guard let failedAt else {
                giveBack(reader)
                break
            }
            end(reader)
            // Answers after the failure are lost with the process: asked again. The failed file too, when the
            // process was a reused one (it may have been gone before it was asked).
            for index in failedAt..<requests.count where results[index].status == 1 { results[index].status = -3 }
            next = reused != nil ? failedAt : failedAt + 1
        }
        return results
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
