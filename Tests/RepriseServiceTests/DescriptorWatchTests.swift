import Glibc
import LoopKit
import Testing

/// ``EventLoop/watch(_:for:_:)`` on a real loop, over a socket pair: a read and a write watch on one socket both
/// run (epoll takes a descriptor once; the second is GLib's), a handler returning false ends its watch, a cancelled
/// watch never runs again, and many sockets ready at once are all heard (sd-event dispatches one source a turn).
@Suite struct DescriptorWatchTests {
    /// Runs the loop until `done` holds or `limit` milliseconds pass.
    static func run(_ loop: EventLoop, limit milliseconds: UInt32 = 2_000, until done: @escaping () -> Bool) {
        let check = loop.every(milliseconds: 1) { if done() { loop.quit() } }
        let limit = loop.once(afterMilliseconds: milliseconds) { loop.quit() }
        loop.run()
        check.cancel()
        limit.cancel()
    }

    static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test func watchesRunEndAndCancel() throws {
        let loop = try #require(EventLoop())
        let (ours, theirs) = try Self.socketPair()
        defer { close(ours); close(theirs) }
        var reads = 0, writes = 0
        let readWatch = loop.watch(ours, for: .readable) {
            var byte: UInt8 = 0
            while read(ours, &byte, 1) == 1 { reads += 1 }
            return reads < 3
        }
        let writeWatch = loop.watch(ours, for: .writable) {
            writes += 1
            return true
        }
        Self.run(loop) { writes > 0 }
        #expect(writes > 0, "a write watch beside a read watch on the same socket never ran")
        writeWatch.cancel()
        #expect(!writeWatch.isActive)
        let writesAtCancel = writes
        _ = write(theirs, "ab", 2)
        Self.run(loop) { reads == 2 }
        #expect(reads == 2)
        #expect(writes == writesAtCancel, "a cancelled watch ran again")
        _ = write(theirs, "c", 1)
        Self.run(loop) { reads == 3 }
        #expect(reads == 3 && !readWatch.isActive, "a handler that returned false left its watch running")
        _ = write(theirs, "d", 1)
        Self.run(loop, limit: 100) { false }
        #expect(reads == 3, "an ended watch ran again")
        readWatch.cancel() // after it ended: nothing

        // Many sockets ready at once are all heard (one test: the loops share GLib's default context).
        var pairs: [(Int32, Int32)] = []
        defer { for (a, b) in pairs { close(a); close(b) } }
        var watches: [DescriptorWatch] = []
        var heard = 0
        for _ in 0..<20 {
            let pair = try Self.socketPair()
            pairs.append(pair)
            watches.append(loop.watch(pair.0, for: .readable) {
                var byte: UInt8 = 0
                while read(pair.0, &byte, 1) == 1 { heard += 1 }
                return true
            })
        }
        for (_, theirs) in pairs { _ = write(theirs, "x", 1) }
        Self.run(loop) { heard == 20 }
        #expect(heard == 20)
        for watch in watches { watch.cancel() }
    }
}
