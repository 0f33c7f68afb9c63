import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Controls1: the custom actions and their layout (the seeds' control bar), what played before,
/// and queue requests MPRIS lacks (replace or enqueue many URIs, clear).
final class ControlsInterface: Controls1Handler {
    private let player: Player
    var onUserAction: ((PolicyEvent) -> Void)?

    init(player: Player) { self.player = player }

    func invoke(action: String) throws(DBusError) {
        do throws(PlayerError) { try CustomActions.invoke(action, on: player) } catch { throw error.dbusError }
    }

    func openMedia(uris: [String], enqueue: Bool, reply: Reply<Void>) throws(DBusError) {
        if enqueue {
            player.appendTracks(uris, completion: reply.answer)
        } else {
            onUserAction?(.userChangedTrack)
            player.replaceQueue(validating: uris, completion: reply.answer)
        }
    }

    func clear() throws(DBusError) {
        onUserAction?(.userStopped)
        player.clear()
    }

    var actions: DBusValue {
        .array(elementSignature: "(sssb)", CustomActions.all(for: player).map {
            .structure([.string($0.id), .string($0.label), .string($0.icon), .bool($0.enabled)])
        })
    }

    var layout: DBusValue {
        let layout = CustomActions.layout(for: player)
        return .structure([.strings(layout.bottomRow), .strings(layout.expandedRow)])
    }

    var history: [String] { player.queue.playedEntries.map { MPRIS.trackPath(forEntry: $0.id) } }
}
