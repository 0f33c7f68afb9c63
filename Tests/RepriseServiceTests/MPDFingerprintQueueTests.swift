import Glibc
import LoopKit
import MPDProtocol
import Testing
@testable import RepriseService

/// The music folder's fingerprints on a real loop and worker: a FIFO and a missing file are answered as MPD answers
/// them without waiting on either, and no more fingerprints wait at once than the cap: the one past it is told so at
/// once, and once the others are answered a new one is made again.
@Suite struct MPDFingerprintQueueTests {
    @Test func aFIFOIsNotWaitedOnAndTheQueueIsCapped() throws {
        let loop = try #require(EventLoop())
        let files = MPDMusicFolderFiles(work: nil, fingerprintWork: BackgroundWork(loop: loop, label: "test", background: true))
        let folder = "/tmp/reprise-fingerprint-\(getpid())"
        mkdir(folder, 0o700)
        defer { unlink(folder + "/pipe.flac"); rmdir(folder) }
        #expect(mkfifo(folder + "/pipe.flac", 0o600) == 0)
        let cap = MPDMusicFolderFiles.fingerprintsWaitingAtMost
        var outcomes: [MPDFingerprint] = []
        for _ in 0..<cap + 1 {
            files.fingerprint(of: folder + "/pipe.flac") { outcome in
                outcomes.append(outcome)
                if outcomes.count == cap + 1 { loop.quit() }
            }
        }
        #expect(outcomes == [.busy], "the one past the cap is answered at once")
        let guardTimer = loop.once(afterMilliseconds: 10_000) { loop.quit() }
        loop.run()
        #expect(outcomes == [.busy] + Array(repeating: .undecodable, count: cap))
        var again: MPDFingerprint?
        files.fingerprint(of: folder + "/missing.flac") { outcome in
            again = outcome
            loop.quit()
        }
        loop.run()
        guardTimer.cancel()
        #expect(again == .cannotOpen(reason: "No such file or directory"))
    }
}
