import Foundation
import Glibc

/// A private network namespace with only loopback up, multicast on it and routed to it (SSDP and mDNS stay on
/// the machine): held open by a sleeping `unshare --net` process, killed by PID in ``stop()``. Needs root.
/// Sockets made and programs started inside ``entered(_:)`` belong to it; the namespace is per thread, so the
/// body must not hop threads (no `await` in it).
public final class NetworkNamespace {
    private var holder: Child
    private let namespacePath: String

    public init(directory: String) throws {
        let log = directory + "/netns.log"
        let setup = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && echo ready && exec sleep 86400"
        holder = try Child.spawn("unshare", ["--net", "--", "sh", "-c", setup], environment: nil, stdout: log, stderr: log)
        namespacePath = "/proc/\(holder.pid)/ns/net"
        let ready = eventually(10) {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("ready") || !holder.isRunning()
        }
        guard ready, holder.isRunning() else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            stop()
            throw HarnessError(message: "no network namespace (root is needed): \(output)")
        }
    }

    /// Runs `body` on this thread inside the namespace, then returns the thread to the namespace it was in.
    @discardableResult
    public func entered<Result>(_ body: () throws -> Result) throws -> Result {
        let own = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC)
        let target = open(namespacePath, O_RDONLY | O_CLOEXEC)
        defer {
            if own >= 0 { close(own) }
            if target >= 0 { close(target) }
        }
        guard own >= 0, target >= 0, Self.setNamespace(target) == 0 else {
            throw HarnessError(message: "cannot enter the network namespace: \(String(cString: strerror(errno)))")
        }
        defer {
            if Self.setNamespace(own) != 0 { fatalError("cannot leave the network namespace: \(String(cString: strerror(errno)))") }
        }
        return try body()
    }

    /// setns(2) for a network namespace (glibc declares it only under _GNU_SOURCE, which Swift's Glibc lacks).
    private static func setNamespace(_ descriptor: Int32) -> Int32 {
        typealias SetNS = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "setns") else {
            errno = ENOSYS
            return -1
        }
        let cloneNewNet: Int32 = 0x4000_0000 // CLONE_NEWNET
        return unsafeBitCast(symbol, to: SetNS.self)(descriptor, cloneNewNet)
    }

    /// Ends the namespace (by its holder's PID); what still runs inside it keeps it until it ends.
    public func stop() {
        guard holder.isRunning() else { return }
        kill(holder.pid, SIGKILL)
        _ = holder.wait()
    }

    deinit { stop() }
}
