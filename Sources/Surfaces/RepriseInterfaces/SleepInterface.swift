import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Sleep1: a sleep timer that fades out and pauses. Its properties are announced when a timer is set,
/// ends or is cancelled, not as it counts down.
final class SleepInterface: Sleep1Handler {
    private let player: Player

    init(player: Player) { self.player = player }

    func start(when: String) throws(DBusError) {
        do throws(PlayerError) { try player.setSleep(try SleepRequest.parse(when)) } catch { throw error.dbusError }
    }

    func cancel() throws(DBusError) {
        do throws(PlayerError) { try player.setSleep(.off) } catch { throw error.dbusError }
    }

    var timer: String { player.sleepTimer?.kind.rawValue ?? "off" }
    var remaining: Int64 { player.sleepRemainingMicroseconds ?? -1 }

    /// What decides an announcement: the timer's kind and serial (a new timer of the same kind is announced too),
    /// not the time left, which changes continuously.
    var announcementKey: String? { player.sleepTimer.map { "\($0.kind.rawValue) \($0.serial)" } }
}
