import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Controls1: the custom actions and their layout (the seeds' control bar), what played before,
/// and queue requests MPRIS lacks (replace or enqueue many URIs, clear).
final class ControlsInterface: Controls1Handler {
    private let player: Player
    private let remote: RemoteControl

    /// The video window, whose Picture in Picture is an action while it shows video.
    private weak var video: VideoControl?

    init(player: Player, remote: RemoteControl, video: VideoControl?) {
        self.player = player
        self.remote = remote
        self.video = video
    }

    private var windowActions: [CustomAction] {
        guard let video, video.hasDisplay, video.hasVideo else { return [] }
        return [.pictureInPicture(isOn: video.isPictureInPicture)]
    }

    private var allActions: [CustomAction] { CustomActions.all(for: player) + windowActions }

    func invoke(action: String) throws(DBusError) {
        if action == CustomAction.pictureInPicture(isOn: false).id, let video, !windowActions.isEmpty {
            return video.setPictureInPicture(!video.isPictureInPicture)
        }
        do throws(PlayerError) { try CustomActions.invoke(action, on: player) } catch { throw error.dbusError }
    }

    func openMedia(uris: [String], enqueue: Bool, reply: Reply<Void>) throws(DBusError) {
        if enqueue {
            player.appendTracks(uris, completion: reply.answer)
        } else {
            remote.request(.userChangedTrack) { player.replaceQueue(validating: uris, completion: reply.answer) }
        }
    }

    func clear() throws(DBusError) {
        remote.request(.userStopped) { player.clear() }
    }

    var actions: [ControlAction] {
        allActions.map { ControlAction(id: $0.id, label: $0.label, icon: $0.icon, enabled: $0.enabled) }
    }

    var layout: ControlBarRows {
        let layout = ControlLayout(customIDs: allActions.map(\.id), hasPrevious: player.canGoPrevious, hasNext: player.canGoNext)
        return ControlBarRows(bottom: layout.bottomRow, expanded: layout.expandedRow)
    }

    var history: [String] { player.queue.playedEntries.map { MPRIS.trackPath(forEntry: $0.id) } }
}
