import Foundation

/// One-line-per-event logging to stderr (which systemd forwards to the journal).
public final class Log: Sendable {
    public let verbose: Bool

    public init(verbose: Bool) { self.verbose = verbose }

    public func info(_ message: @autoclosure () -> String) { write("reprise: " + message()) }

    public func warning(_ message: @autoclosure () -> String) { write("reprise: warning: " + message()) }

    public func debug(_ message: @autoclosure () -> String) {
        if verbose { write("reprise: debug: " + message()) }
    }

    private func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
