import Glibc
import LoopKit
import Testing

/// The low-priority worker of ``BackgroundWork`` on a real loop: items run in order off the loop, results come back
/// on it, and the worker's thread ends when it runs out of work; the next item starts another.
@Suite struct BackgroundWorkTests {
    /// This thread's id, from `/proc/thread-self` ("PID/task/TID").
    static func threadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard length > 0 else { return -1 }
        let link = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int32(link.split(separator: "/").last ?? "") ?? -1
    }

    @Test func itemsRunInOrderOnAThreadThatEndsWhenIdle() throws {
        let loop = try #require(EventLoop())
        let work = try #require(BackgroundWork(loop: loop, label: "test", background: true))
        let loopThread = Self.threadID()
        var results: [(item: Int, thread: Int32)] = []
        /// Hands `count` items over; the loop runs until all of their results arrived.
        func runItems(_ range: Range<Int>) {
            for item in range {
                work.run({ () -> (Int, Int32) in
                    usleep(1_000)
                    return (item, Self.threadID())
                }) { result in
                    results.append((result.0, result.1))
                    if results.count == range.upperBound { loop.quit() }
                }
            }
            let guardTimer = loop.once(afterMilliseconds: 10_000) { loop.quit() }
            loop.run()
            guardTimer.cancel()
        }
        runItems(0..<5)
        #expect(results.map(\.item) == Array(0..<5))
        #expect(Set(results.map(\.thread)).count == 1 && results[0].thread != loopThread)
        let firstThread = results[0].thread
        // The thread ends once idle: its task leaves /proc.
        var ended = false
        for _ in 0..<500 where !ended {
            ended = access("/proc/self/task/\(firstThread)", F_OK) != 0
            if !ended { usleep(2_000) }
        }
        #expect(ended, "the worker's thread is still there with nothing to do")
        runItems(5..<8)
        #expect(results.map(\.item) == Array(0..<8))
        #expect(results[5].thread != loopThread)
    }
}
