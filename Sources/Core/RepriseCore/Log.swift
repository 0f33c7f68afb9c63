/// One-line-per-event logging. The executable writes the lines to stderr (which systemd forwards to
/// the journal); the core only formats them, so it needs no C library.
public final class Log: Sendable {
    public let verbose: Bool
    private let write: @Sendable (String) -> Void

    /// - Parameter write: receives each finished line (without a newline); by default lines are dropped.
    public init(verbose: Bool, write: @escaping @Sendable (String) -> Void = { _ in }) {
        self.verbose = verbose
        self.write = write
    }

    /// Lines name files, tags and devices: they reach a terminal (or the journal) only sanitised.
    public func info(_ message: @autoclosure () -> String) { write("reprise: " + TerminalText.sanitized(message(), keepingTabs: true)) }

    public func warning(_ message: @autoclosure () -> String) {
        write("reprise: warning: " + TerminalText.sanitized(message(), keepingTabs: true))
    }

    public func debug(_ message: @autoclosure () -> String) {
        if verbose { write("reprise: debug: " + TerminalText.sanitized(message(), keepingTabs: true)) }
    }
}

/// `value` with one decimal ("2.5", "-0.3"), for log lines; the standard library has no formatter and Foundation
/// stays out of the service (it would add ~8 MiB of mapped pages).
public func oneDecimal(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    let tenths = Int((value * 10).rounded())
    return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
}
