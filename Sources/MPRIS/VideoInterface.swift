import RepriseCore
import SDBus

/// What Reprise's own video interface reads and changes; the executable implements it over the video window
/// and playbin.
public protocol VideoControl: AnyObject {
    /// A display exists, so video gets a window (false when headless).
    var hasDisplay: Bool { get }
    /// The loaded media has a video stream (and, with a display, its window is open).
    var hasVideo: Bool { get }
    var isFullscreen: Bool { get }
    func setFullscreen(_ on: Bool)
    func raise()
    var aspectMode: AspectMode { get }
    func setAspectMode(_ mode: AspectMode)
    /// Width ÷ height of the video as displayed (0 when there is none).
    var aspectRatio: Double { get }
    var audioTracks: [StreamChoice] { get }
    var currentAudioTrack: Int { get }
    func selectAudioTrack(_ index: Int) throws(PlayerError)
    var subtitleTracks: [StreamChoice] { get }
    /// -1 when subtitles are off.
    var currentSubtitleTrack: Int { get }
    /// -1 turns subtitles off.
    func selectSubtitleTrack(_ index: Int) throws(PlayerError)
    var speeds: [Double] { get }
    /// Network media has been buffering for more than two seconds.
    var isLoading: Bool { get }
}

public enum VideoNames {
    public static let interface = "app.reprise.Video1"

    public static let description = DBusInterfaces.appRepriseVideo1
}

/// app.reprise.Video1 at /app/reprise/Reprise (``MPRIS/repriseObjectPath``).
public final class VideoInterface: InterfaceImplementation {
    private let control: VideoControl
    private let player: Player
    private let bus: Bus
    private var announced = AnnouncedProperties([]) { _ in nil }

    public init(bus: Bus, control: VideoControl, player: Player) throws(DBusError) {
        self.bus = bus
        self.control = control
        self.player = player
        try bus.export(VideoNames.description, at: MPRIS.repriseObjectPath, implementation: self)
        announced = AnnouncedProperties(VideoNames.description.properties.map(\.name)) { [unowned self] in try? get($0) }
    }

    /// Announces the properties that changed since the last call (one PropertiesChanged).
    public func announceChanges() {
        let changed = announced.refresh()
        guard !changed.isEmpty else { return }
        try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: VideoNames.interface, names: changed)
    }

    public func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let args = call.arguments
        do throws(PlayerError) {
            switch (call.member, args.first) {
            case ("SetFullscreen", .bool(let on)?):
                control.setFullscreen(on)
            case ("SetAspectMode", .string(let name)?):
                guard let mode = AspectMode(rawValue: name) else { throw .invalidArgument("unknown aspect mode '\(name)' (fit, fill)") }
                control.setAspectMode(mode)
            case ("SelectAudioTrack", .int32(let index)?):
                try control.selectAudioTrack(Int(index))
            case ("SelectSubtitleTrack", .int32(let index)?):
                try control.selectSubtitleTrack(Int(index))
            case ("SkipInterstitial", _):
                try player.skipInterstitial()
            default:
                throw .invalidArgument("bad arguments for \(call.member)")
            }
        } catch {
            throw .invalidArgs(error.message)
        }
        announceChanges()
        return .reply([])
    }

    public func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "HasVideo": return .bool(control.hasVideo)
        case "Fullscreen": return .bool(control.isFullscreen)
        case "AspectMode": return .string(control.aspectMode.rawValue)
        case "AspectRatio": return .double(control.aspectRatio)
        case "AudioTracks": return Self.encode(control.audioTracks)
        case "AudioTrack": return .int32(Int32(clamping: control.currentAudioTrack))
        case "SubtitleTracks": return Self.encode(control.subtitleTracks)
        case "SubtitleTrack": return .int32(Int32(clamping: control.currentSubtitleTrack))
        case "Speeds": return .array(elementSignature: "d", control.speeds.map(DBusValue.double))
        case "Loading": return .bool(control.isLoading)
        case "Interstitials":
            let items = player.interstitials.interstitials.enumerated().map { index, item in
                DBusValue.structure([.string(item.title ?? ""), .int64(item.startMicroseconds), .int64(item.endMicroseconds),
                                     .bool(item.forbidsSeekingWithin), .bool(item.forbidsSkippingPast),
                                     .int64(item.skippableAfterMicroseconds ?? -1)])
            }
            return .array(elementSignature: "(sxxbbx)", items)
        case "ActiveInterstitial": return .int32(Int32(clamping: player.activeInterstitialIndex ?? -1))
        case "CanSkipInterstitial": return .bool(player.canSkipInterstitial)
        default: throw DBusError.unknownProperty(property)
        }
    }

    public func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.readOnly(property, "\(property) is read-only (use the Set/Select methods)")
    }

    static func encode(_ choices: [StreamChoice]) -> DBusValue {
        .array(elementSignature: "(isssb)", choices.map {
            .structure([.int32(Int32(clamping: $0.index)), .string($0.language), .string($0.title), .string($0.codec), .bool($0.isExternal)])
        })
    }
}
