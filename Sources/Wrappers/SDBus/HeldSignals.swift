import CSDBusShims
import Glibc

/// Runs `body`, which waits inside sd-bus, with the calling thread's handled signals held back until it returns.
/// libsystemd 252 (Debian 12) gives up a synchronous call, a flush or a wait with EINTR when a signal handler runs
/// meanwhile; the service's SIGTERM handler (GLib's) then made a start-up `AddMatch` fail and the service exit 1.
/// Held back, the signal is handled once the wait is over, as the loop would handle it anyway.
@inline(__always)
func withHandledSignalsHeld<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    var previous = sigset_t()
    rp_hold_handled_signals(&previous)
    defer { rp_release_held_signals(&previous) }
    return try body()
}
