import Foundation
import SDBus
import Synchronization
import Testing
import TestSupport

/// Signals handled while a bus call waits, on a real dbus-daemon. libsystemd 252 (Debian 12) gives a waited call up
/// with EINTR when a signal handler runs meanwhile (systemd 253 retries: systemd/systemd#25483). The service's
/// SIGTERM handler is such a handler: a SIGTERM during start-up's `AddMatch` failed the start and the service exited
/// with status 1 instead of stopping cleanly (seen in CI, ScrobbleTests, a SIGTERM right after the name appeared).
@Suite(.serialized) struct BusSignalTests {
    /// How many SIGUSR1 the test's handler has seen.
    static let handled = Atomic<Int>(0)

    @Test func aSignalWithAHandlerDoesNotCutAWaitedCallShort() throws {
        let session = try Session(withPlayerctld: false)
        defer { session.close() }
        // A peer that owns its name and never answers: the call waits out its whole timeout.
        let silent = try Bus.connect(address: session.busAddress)
        #expect(try silent.requestName("org.reprise.test.Silent"))
        let caller = try Bus.connect(address: session.busAddress)

        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in BusSignalTests.handled.add(1, ordering: .relaxed) }
        action.sa_flags = SA_RESTART // as GLib's g_unix_signal_add installs its handler
        var previous = sigaction()
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        // Test threads may start with SIGUSR1 blocked; the service's loop thread has SIGTERM open.
        var open = sigset_t(), mask = sigset_t()
        sigemptyset(&open)
        sigaddset(&open, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &open, &mask)
        defer { pthread_sigmask(SIG_SETMASK, &mask, nil) }
        let before = Self.handled.load(ordering: .relaxed)

        // The signal reaches this very thread while it waits for the reply.
        let waiting = pthread_self()
        let kicker = Thread {
            usleep(200_000)
            pthread_kill(waiting, SIGUSR1)
        }
        kicker.start()
        var outcome = "answered"
        do {
            _ = try caller.call(destination: "org.reprise.test.Silent", path: "/", interface: "org.reprise.test.Silent",
                                member: "Wait", timeoutMicroseconds: 1_500_000)
        } catch {
            outcome = error.description
        }
        #expect(!outcome.contains("EINTR") && !outcome.contains("Interrupted"), "\(outcome)")
        #expect(outcome.contains("Timeout") || outcome.contains("NoReply") || outcome.contains("timed out"), "\(outcome)")
        // Held back during the wait, the signal is handled once it is over, not lost.
        #expect(Self.handled.load(ordering: .relaxed) == before + 1)
        // The connection is still good for the next call.
        #expect(try caller.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                [.string("org.reprise.test.Silent")]) == [.bool(true)])
    }
}
