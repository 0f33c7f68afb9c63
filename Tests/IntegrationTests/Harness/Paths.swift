import Foundation

/// The package's root directory.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The reprise binary under test: `REPRISE_BINARY`, or the debug build.
let repriseBinary: String = ProcessInfo.processInfo.environment["REPRISE_BINARY"]
    ?? packageRoot.appendingPathComponent(".build/debug/reprise").path

/// A file under /proc read to its end: procfs reports no size, and Foundation's `String(contentsOfFile:)` then
/// stops after its first 4 KiB (a process's maps, the socket tables).
func procText(_ path: String) -> String {
    String(decoding: FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
}
