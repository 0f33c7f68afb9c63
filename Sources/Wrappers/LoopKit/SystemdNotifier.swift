import CSystemd

/// Tells systemd (when it started us with Type=notify) that we are ready, what we are doing, and that
/// the event loop is alive: watchdog pings come from a loop timer, so a stuck loop gets us restarted.
/// Does nothing when NOTIFY_SOCKET is unset.
public final class SystemdNotifier {
    public init() {}

    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    public func status(_ text: String) { send("STATUS=\(text)") }

    public func stopping() { send("STOPPING=1") }

    /// Starts watchdog pings at half the interval systemd asked for (WATCHDOG_USEC), if it asked.
    public func startWatchdog(on loop: EventLoop) {
        var microseconds: UInt64 = 0
        guard sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 else { return }
        let interval = max(1, UInt32(min(microseconds / 2_000, UInt64(UInt32.max))))
        watchdog = loop.every(milliseconds: interval) { [unowned self] in send("WATCHDOG=1") }
    }

    /// Stops the watchdog pings (the service is stopping).
    public func stopWatchdog() {
        watchdog?.cancel()
        watchdog = nil
    }
    private var watchdog: LoopTimer?

    private func send(_ state: String) { _ = sd_notify(0, state) }
}
