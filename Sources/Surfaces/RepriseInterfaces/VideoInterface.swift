import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// What Reprise's own video interface reads and changes; the executable implements it over the video window
/// and playbin.
public protocol VideoControl: WindowControl {
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
    /// The video goes on in a small window above the others.
    var isPictureInPicture: Bool { get }
    func setPictureInPicture(_ on: Bool)
}

/// app.reprise.Video1 at /app/reprise/Reprise (``MPRIS/repriseObjectPath``).
public final class VideoInterface: Video1Handler {
    private let control: VideoControl
    private let player: Player
    /// Announces the properties that changed since the last call (one PropertiesChanged).
    let announceChanges: () -> Void

    init(control: VideoControl, player: Player, announceChanges: @escaping () -> Void) {
        self.control = control
        self.player = player
        self.announceChanges = announceChanges
    }

    /// Carries out a request, then announces what it changed; a refusal is InvalidArgs.
    private func carryOut(_ request: () throws(PlayerError) -> Void) throws(DBusError) {
        do throws(PlayerError) { try request() } catch { throw .invalidArgs(error.message) }
        announceChanges()
    }

    public func setFullscreen(fullscreen: Bool) throws(DBusError) {
        try carryOut { () throws(PlayerError) in control.setFullscreen(fullscreen) }
    }

    public func setAspectMode(mode: String) throws(DBusError) {
        try carryOut { () throws(PlayerError) in
            guard let value = AspectMode(rawValue: mode) else { throw .invalidArgument("unknown aspect mode '\(mode)' (fit, fill)") }
            control.setAspectMode(value)
        }
    }

    public func selectAudioTrack(index: Int32) throws(DBusError) {
        try carryOut { () throws(PlayerError) in try control.selectAudioTrack(Int(index)) }
    }

    public func selectSubtitleTrack(index: Int32) throws(DBusError) {
        try carryOut { () throws(PlayerError) in try control.selectSubtitleTrack(Int(index)) }
    }

    public func skipInterstitial() throws(DBusError) {
        try carryOut { () throws(PlayerError) in try player.skipInterstitial() }
    }

    public var hasVideo: Bool { control.hasVideo }
    public var fullscreen: Bool { control.isFullscreen }
    public var pictureInPicture: Bool { control.isPictureInPicture }
    public func set(pictureInPicture value: Bool) throws(DBusError) {
        control.setPictureInPicture(value)
        announceChanges()
    }
    public var aspectMode: String { control.aspectMode.rawValue }
    public var aspectRatio: Double { control.aspectRatio }
    public var audioTracks: [StreamEntry] { Self.encode(control.audioTracks) }
    public var audioTrack: Int32 { Int32(clamping: control.currentAudioTrack) }
    public var subtitleTracks: [StreamEntry] { Self.encode(control.subtitleTracks) }
    public var subtitleTrack: Int32 { Int32(clamping: control.currentSubtitleTrack) }
    public var speeds: [Double] { control.speeds }
    public var loading: Bool { control.isLoading }
    public var interstitials: [InterstitialEntry] {
        player.interstitialPlayback.schedule.interstitials.map { item in
            InterstitialEntry(title: item.title ?? "", start: item.startMicroseconds, end: item.endMicroseconds,
                              noSeekingWithin: item.forbidsSeekingWithin, noSkippingPast: item.forbidsSkippingPast,
                              skippableAfter: item.skippableAfterMicroseconds ?? -1)
        }
    }
    public var activeInterstitial: Int32 { Int32(clamping: player.interstitialPlayback.active ?? -1) }
    public var canSkipInterstitial: Bool { player.canSkipInterstitial }

    static func encode(_ choices: [StreamChoice]) -> [StreamEntry] {
        choices.map {
            StreamEntry(index: Int32(clamping: $0.index), language: $0.language, title: $0.title, codec: $0.codec, external: $0.isExternal)
        }
    }
}
