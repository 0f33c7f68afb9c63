import Foundation
import Glibc
import Testing
import TestSupport

/// The cover cache does not grow for ever: at start the least recently used pictures beyond 2,000 go.
@Suite(.serialized) struct ArtCacheTests {

    @Test func theCacheIsTrimmedToTheMostRecentlyUsed() throws {
        let session = try Session()
        defer { session.close() }
        let art = try session.makeHomeFolder(".cache/reprise/art")
        let now = time(nil)
        for index in 0..<2100 {
            let path = art + "/\(String(format: "%064x", index)).png"
            try Data(count: 512).write(to: URL(fileURLWithPath: path))
            var times = [timespec(tv_sec: now - 100_000 + index, tv_nsec: 0), timespec(tv_sec: now - 100_000 + index, tv_nsec: 0)]
            utimensat(AT_FDCWD, path, &times, 0)
        }
        try session.launch([media.covered])
        func count() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: art).count) ?? -1 }
        // 2,000 kept, plus the playing track's cover if it was written after the trim.
        #expect(session.waitFor { count() <= 2001 }, "\(count()) pictures")
        #expect(!FileManager.default.fileExists(atPath: art + "/\(String(format: "%064x", 0)).png"), "the oldest went")
        #expect(FileManager.default.fileExists(atPath: art + "/\(String(format: "%064x", 2099)).png"), "the newest stayed")
        // The playing track's own cover is written (or kept) as the most recent.
        #expect(session.waitFor { session.metadata()["mpris:artUrl"]?.stringValue.map { FileManager.default.fileExists(atPath: String($0.dropFirst(7))) } == true })
    }
}
