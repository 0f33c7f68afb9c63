import BusInterfaces
import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2
final class RootInterface: MediaPlayer2Handler {
    private let application: MPRISService.Identity
    private let onQuit: () -> Void
    private lazy var mimeTypes = application.supportedMimeTypes()

    init(identity: MPRISService.Identity, onQuit: @escaping () -> Void) {
        application = identity
        self.onQuit = onQuit
    }

    func raise() throws(DBusError) { video?.raise() }

    /// Answers first, then quits (the caller hears the answer before the name goes).
    func quit(reply: Reply<Void>) throws(DBusError) {
        reply.send()
        onQuit()
    }

    var canQuit: Bool { true }
    var fullscreen: Bool { video?.isFullscreen ?? false }
    var canSetFullscreen: Bool { video.map { $0.hasDisplay && $0.hasVideo } ?? false }
    var canRaise: Bool { canSetFullscreen }
    var hasTrackList: Bool { true }
    var identity: String { application.name }
    var desktopEntry: String { application.desktopEntry }
    var supportedUriSchemes: [String] { SupportedSchemes.all }
    var supportedMimeTypes: [String] { mimeTypes }

    /// While CanSetFullscreen is false setting it has no effect.
    func set(fullscreen value: Bool) throws(DBusError) {
        video?.setFullscreen(value)
        onFullscreenSet?()
    }

    /// The video window, when the executable has one to offer.
    weak var video: VideoControl?
    var onFullscreenSet: (() -> Void)?
    static let announcedProperties = ["Fullscreen", "CanSetFullscreen", "CanRaise"]
}
