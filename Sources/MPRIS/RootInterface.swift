import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2
final class RootInterface: InterfaceImplementation {
    private let identity: MPRISService.Identity
    private let onQuit: () -> Void
    private lazy var mimeTypes = identity.supportedMimeTypes()

    init(identity: MPRISService.Identity, onQuit: @escaping () -> Void) {
        self.identity = identity
        self.onQuit = onQuit
    }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        switch call.member {
        case "Raise":
            video?.raise()
            return .reply([])
        case "Quit":
            call.reply()
            onQuit()
            return .deferred
        default:
            throw DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.member)")
        }
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "CanQuit": .bool(true)
        case "Fullscreen": .bool(video?.isFullscreen ?? false)
        case "CanSetFullscreen", "CanRaise": .bool(video.map { $0.hasDisplay && $0.hasVideo } ?? false)
        case "HasTrackList": .bool(true)
        case "Identity": .string(identity.name)
        case "DesktopEntry": .string(identity.desktopEntry)
        case "SupportedUriSchemes": .strings(SupportedSchemes.all)
        case "SupportedMimeTypes": .strings(mimeTypes)
        default: throw DBusError.unknownProperty(property)
        }
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        // Fullscreen is the only writable property; while CanSetFullscreen is false setting it has no effect.
        guard property == "Fullscreen", case .bool(let on) = value else {
            throw DBusError.readOnly(property)
        }
        video?.setFullscreen(on)
        onFullscreenSet?()
    }

    /// The video window, when the executable has one to offer.
    weak var video: VideoControl?
    var onFullscreenSet: (() -> Void)?
    static let announcedProperties = ["Fullscreen", "CanSetFullscreen", "CanRaise"]
}
