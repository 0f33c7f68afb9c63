import Glibc
import LoopKit
import MPDProtocol
import RepriseCore

/// The MPD protocol server: a TCP socket (loopback by default) and a Unix socket, each connection an
/// ``MPDSession`` over the shared ``MPDPlayerBridge``. Everything runs on the event loop, non-blocking: a client
/// that floods, sends garbage or never reads loses its own connection, nothing else.
public final class MPDServer: MPDIdleListener {
    /// The protocol version greeted with (MPD 0.23's).
    public static let protocolVersion = "0.23.5"

    /// MPD's own limits.
    public enum Limits {
        public static let connections = 100
        /// A connection that neither sends nor waits in `idle` for this long is closed.
        public static let timeoutMilliseconds: UInt64 = 60_000
        /// The longest request line.
        public static let lineBytes = 64 * 1024
        /// Replies waiting for a client that does not read: a further command past this closes the client.
        public static let outputBytes = MPDSession.maximumReplyBytes
        /// How long one client's commands may hold the loop before the rest wait for its next turn.
        public static let sliceNanoseconds: UInt64 = 4_000_000
        /// What a client may send while one of its commands runs (a command list's worth).
        public static let waitingInputBytes = MPDSession.maximumCommandListBytes + lineBytes
    }

    let loop: EventLoop
    private let bridge: MPDPlayerBridge
    private let settings: MPDSettings
    private let socketPath: String?
    private let log: Log
    private var listeners: [(fd: Int32, watch: DescriptorWatch, name: String)] = []
    private var connections: [ObjectIdentifier: MPDConnection] = [:]
    private var sweep: LoopTimer?
    private var passwords: MPDPasswords
    /// Where every connection's `read` lands before its bytes join that connection's input: one buffer for all
    /// (they are read one at a time, on the loop), made once rather than allocated and zeroed for each read.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 16)

    /// - Parameter socketPath: the Unix socket's path (nil: none).
    public init(bridge: MPDPlayerBridge, settings: MPDSettings, socketPath: String?, passwords: MPDPasswords, loop: EventLoop, log: Log) {
        self.bridge = bridge
        self.settings = settings
        self.socketPath = socketPath
        self.passwords = passwords
        self.loop = loop
        self.log = log
        bridge.listener = self
        bridge.commands.add(MPDCommand("password", [], 1, 1) { [weak self] call throws(MPDError) in
            guard let self, let permissions = self.passwords.permissions(for: call[0]) else {
                throw MPDError(.password, "incorrect password")
            }
            call.session.permissions = permissions
            return .done
        })
    }

    /// Where clients reach it, for `reprise status` and the log ("127.0.0.1:6600, /run/user/1000/reprise/mpd.socket").
    public var addresses: [String] { listeners.map(\.name) }
    public var clientCount: Int { connections.count }

    /// Opens the sockets. A TCP address other than loopback without a password file is refused; a port in use (a
    /// real MPD runs) is logged and the socket alone serves.
    public func start() {
        if settings.port > 0 {
            if !settings.isLoopback && settings.passwordFile == nil {
                log.warning("MPD server: not listening on \(settings.address): an address other than loopback needs mpd-password-file")
            } else {
                do throws(Sockets.Failure) {
                    let fd = try Sockets.listenTCP(address: settings.address, port: settings.port)
                    addListener(fd, name: "\(settings.address):\(settings.port)")
                } catch {
                    log.warning("MPD server: \(error) — serving on the socket only")
                }
            }
        }
        if let socketPath {
            do throws(Sockets.Failure) {
                addListener(try Sockets.listenUnix(path: socketPath), name: socketPath)
            } catch {
                log.warning("MPD server: socket \(error)")
            }
        }
        if !listeners.isEmpty { log.info("MPD server on \(addresses.joined(separator: ", "))") }
        sweep = loop.every(milliseconds: 5000) { [weak self] in self?.closeSilentConnections() }
    }

    deinit { readBuffer.deallocate() }

    public func stop() {
        sweep?.cancel()
        sweep = nil
        for connection in Array(connections.values) { connection.close(reason: nil) }
        for listener in listeners {
            listener.watch.cancel()
            close(listener.fd)
        }
        if let socketPath, listeners.contains(where: { $0.name == socketPath }) { unlink(socketPath) }
        listeners.removeAll()
    }

    public func subsystemsChanged(_ changed: MPDIdle) {
        for connection in connections.values { connection.session.notify(changed) }
    }

    private func addListener(_ fd: Int32, name: String) {
        let watch = loop.watch(fd, for: .readable) { [weak self] in
            self?.acceptAll(from: fd, name: name)
            return true
        }
        listeners.append((fd, watch, name))
    }

    private func acceptAll(from listener: Int32, name: String) {
        while let fd = Sockets.accept(listener) {
            guard connections.count < Limits.connections else {
                log.info("MPD server: refusing a connection: \(Limits.connections) clients already")
                close(fd)
                continue
            }
            // MPD's rule: only a client of the server's own user, on the Unix socket, may name files outside the
            // music folder (a TCP client could be any local user).
            let isOwnersSocket = name == socketPath && Sockets.peerUserID(fd) == geteuid()
            let session = MPDSession(commands: bridge.commands, permissions: passwords.defaultPermissions,
                                     mayNameLocalFiles: isOwnersSocket, feed: bridge.feed)
            let connection = MPDConnection(fd: fd, peer: name, session: session, server: self)
            connections[ObjectIdentifier(connection)] = connection
            connection.start(on: loop)
            bridge.prepareLibrary() // a client is here: the library as it walks it, made before it asks
        }
    }

    func connectionClosed(_ connection: MPDConnection, reason: String?) {
        connections.removeValue(forKey: ObjectIdentifier(connection))
        if let reason { log.info("MPD server: closed a client of \(connection.peer): \(reason)") }
    }

    private func closeSilentConnections() {
        let now = Self.nowMilliseconds()
        for connection in Array(connections.values) where !connection.isIdling && !connection.session.isCommandRunning {
            if now &- connection.lastActivity > Limits.timeoutMilliseconds { connection.close(reason: nil) }
        }
    }

    /// The monotonic clock in nanoseconds.
    static func nowNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The monotonic clock in milliseconds.
    static func nowMilliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec / 1_000_000)
    }
}
