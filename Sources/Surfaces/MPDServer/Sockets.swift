import Glibc
import LoopKit

/// Listening sockets and their connections' reads and writes, non-blocking, with errors as errno messages.
enum Sockets {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ what: String, _ code: Int32 = errno) { description = "\(what): \(String(cString: strerror(code)))" }
    }

    /// A TCP socket listening on `address` (an IPv4 address; "any": every interface) at `port`.
    static func listenTCP(address: String, port: Int) throws(Failure) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
        let host = address == "any" ? "0.0.0.0" : address == "localhost" ? "127.0.0.1" : address
        guard inet_pton(AF_INET, host, &socketAddress.sin_addr) == 1 else {
            close(fd)
            throw Failure("address \(address)", EINVAL)
        }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let failure = Failure("\(address):\(port)")
            close(fd)
            throw failure
        }
        return fd
    }

    /// A Unix socket listening at `path` (mode 0600). A socket file left by a process that is gone is replaced; one
    /// that answers is not.
    static func listenUnix(path: String) throws(Failure) -> Int32 {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard path.utf8.count < capacity else { throw Failure(path, ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else { throw Failure(path + " (not a socket)", EEXIST) }
            if isAnswering(&socketAddress) { throw Failure(path, EADDRINUSE) }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 64) == 0 else {
            let failure = Failure(path)
            close(fd)
            throw failure
        }
        return fd
    }

    /// Whether something accepts connections at the Unix socket address.
    private static func isAnswering(_ address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// The next waiting connection, non-blocking; nil when none waits (or it failed).
    static func accept(_ listener: Int32) -> Int32? {
        acceptConnection(listener)
    }

    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case closed
    }

    /// The user id of the process at the other end of Unix socket `fd` (`SO_PEERCRED`), nil when it cannot be told.
    static func peerUserID(_ fd: Int32) -> uid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc hides it from Swift without _GNU_SOURCE).
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              Int(length) == MemoryLayout.size(ofValue: credentials) else { return nil }
        return credentials.uid
    }

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if count > 0 { return .bytes(count) }
        if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wouldBlock }
        return .closed
    }

    /// Writes what it can of `bytes`; nil when the connection failed.
    static func write(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int? {
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written >= 0 { return written }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }
}
