import Foundation

/// The package's root directory.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The reprise binary under test: `REPRISE_BINARY`, or the debug build.
let repriseBinary: String = ProcessInfo.processInfo.environment["REPRISE_BINARY"]
    ?? packageRoot.appendingPathComponent(".build/debug/reprise").path
