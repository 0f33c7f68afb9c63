import Foundation
import Testing
import TestSupport

/// The fuzzer in bounded form (`make fuzz` runs it long): thousands of hostile D-Bus calls from several connections,
/// then hostile MPD requests over its socket; every one answered (an MPD request: or its connection closed, as MPD
/// closes one on a line too long or not a command), no crash or hang, memory bounded, and afterwards Reprise still plays.
@Suite(.serialized) struct HostileInputTests {
    @Test func thousandsOfHostileCallsAreAllAnsweredAndChangeNothingThatMatters() throws {
        let fuzzer = packageRoot.appendingPathComponent(".build/debug/reprise-fuzz").path
        let result = try runCommand(fuzzer, ["--calls", "4000", "--mpd-requests", "4000", "--connections", "4", "--binary", repriseBinary])
        let report = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any] ?? [:]
        #expect(result.status == 0, "\(result.output)\n\(result.errors)")
        #expect(report["calls"] as? Int == 4000 && report["replies"] as? Int == 4000)
        #expect(report["unanswered"] as? Int == 0)
        let mpdReplied = report["mpdReplied"] as? Int ?? 0, mpdClosed = report["mpdClosed"] as? Int ?? 0
        #expect(mpdReplied + mpdClosed == 4000 && mpdReplied > 3000 && report["mpdUnanswered"] as? Int == 0, "\(result.output)")
        #expect(report["alive"] as? Bool == true && report["playsAfter"] as? Bool == true && report["stateWhole"] as? Bool == true)
    }

    /// The same with hostile files among the strings and in the library (FIFOs, devices, lying MP4 boxes, hundreds
    /// of chapter comments, hostile sidecars) and an index holding rows no scan writes.
    @Test func hostileFilesAndAHostileIndexAreSurvived() throws {
        let fuzzer = packageRoot.appendingPathComponent(".build/debug/reprise-fuzz").path
        let result = try runCommand(fuzzer, ["--calls", "3000", "--connections", "4", "--binary", repriseBinary, "--hostile-files",
                                             "--max-rss-growth", "64"])
        let report = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any] ?? [:]
        #expect(result.status == 0, "\(result.output)\n\(result.errors)")
        #expect(result.errors.contains("the index has hostile rows"))
        #expect(report["replies"] as? Int == 3000 && report["unanswered"] as? Int == 0)
        #expect(report["alive"] as? Bool == true && report["playsAfter"] as? Bool == true && report["stateWhole"] as? Bool == true)
    }

    /// `make soak` in short: a mixed workload with calls and outputs coming and going; every call answered,
    /// Reprise announces the interruptions, still plays afterwards, and its memory stays flat.
    @Test func aShortSoakIsAnsweredThroughoutAndStaysFlat() throws {
        let soak = packageRoot.appendingPathComponent(".build/debug/reprise-soak").path
        let result = try runCommand(soak, ["--seconds", "15", "--binary", repriseBinary])
        #expect(result.status == 0, "\(result.output)\n\(result.errors)")
        #expect(result.output.contains("# Soak: passed"))
        #expect(result.output.contains("| unanswered calls | 0 |"))
        #expect(!result.output.contains("Reprise announced 0 began"), "\(result.output)")
    }
}
