import BusInterfaces
import RepriseCore
import SDBus

/// The video window as the root interface offers it (Fullscreen, Raise).
public protocol WindowControl: AnyObject {
    /// A display exists, so video gets a window (false when headless).
    var hasDisplay: Bool { get }
    /// The loaded media has a video stream (and, with a display, its window is open).
    var hasVideo: Bool { get }
    var isFullscreen: Bool { get }
    func setFullscreen(_ on: Bool)
    func raise()
}

/// org.mpris.MediaPlayer2
final class RootInterface: MediaPlayer2Handler {
    private let application: MPRISExport.Identity
    private let onQuit: () -> Void
    private lazy var mimeTypes = application.supportedMimeTypes()
    /// The video window, when the executable has one to offer.
    private weak var video: WindowControl?
    private let onFullscreenSet: () -> Void

    /// - Parameter onFullscreenSet: follows a write of Fullscreen.
    init(identity: MPRISExport.Identity, window: WindowControl?, onFullscreenSet: @escaping () -> Void, onQuit: @escaping () -> Void) {
        application = identity
        video = window
        self.onFullscreenSet = onFullscreenSet
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
        onFullscreenSet()
    }

    static let announcedProperties = MPRIS.root.properties.filter { !$0.parts.isEmpty }.map(\.name)
}
