import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// What the terminal view knows about the player, kept current from PropertiesChanged and Seeked.
struct NowPlayingState {
    var status = "Stopped"
    var metadata: [String: DBusValue] = [:]
    var rate = 1.0
    var canGoNext = false, canGoPrevious = false
    /// Position at `positionTime` (monotonic seconds); extrapolated while playing.
    var position: Int64 = 0
    var positionTime = 0.0
    /// Reprise's custom actions (id → label, enabled), and the layout; empty for other players.
    var actions: [(id: String, label: String, enabled: Bool)] = []
    var bottomRow: [String] = [ControlLayout.previous, ControlLayout.playPause, ControlLayout.next]
    var expandedRow: [String] = []

    var title: String { metadata["xesam:title"]?.stringValue ?? (metadata.isEmpty ? "Nothing playing" : "Untitled") }
    var artist: String { (metadata["xesam:artist"]?.stringArray ?? []).joined(separator: ", ") }
    var album: String { metadata["xesam:album"]?.stringValue ?? "" }
    var length: Int64? { metadata["mpris:length"]?.int64Value.map { ReportedNumbers.microseconds($0) } }
    var trackID: DBusValue? { metadata["mpris:trackid"] }

    func position(at now: Double) -> Int64 {
        var value = ReportedNumbers.microseconds(position)
        if status == "Playing" { value += Int64(max(0, min(now - positionTime, 1e6)) * ReportedNumbers.rate(rate) * 1e6) }
        if let length { value = min(value, length) }
        return max(0, value)
    }

    mutating func apply(_ changed: [String: DBusValue]) {
        if let value = changed["PlaybackStatus"]?.stringValue { status = value }
        if let value = changed["Metadata"]?.dictionary { metadata = value }
        if let value = changed["Rate"]?.doubleValue { rate = ReportedNumbers.rate(value) }
        if case .bool(let value)? = changed["CanGoNext"] { canGoNext = value }
        if case .bool(let value)? = changed["CanGoPrevious"] { canGoPrevious = value }
    }

    /// Chapter starts (µs) of what plays, for the marks on the progress line.
    var chapterStarts: [Int64] = []
    /// The sleep timer ("off", "duration", …) and its time left as of `sleepTime` (monotonic seconds).
    var sleepTimer = "off"
    var sleepRemaining: Int64 = -1
    var sleepTime = 0.0

    mutating func applyListening(_ changed: [String: DBusValue], at now: Double) {
        if let chapters = Chapters1Values(changed).chapters { chapterStarts = chapters.map(\.start) }
        let sleep = Sleep1Values(changed)
        if let timer = sleep.timer { sleepTimer = timer }
        if let remaining = sleep.remaining {
            sleepRemaining = remaining
            sleepTime = now
        }
    }

    /// The equalizer (Reprise's Sound1): "off", a preset's name or "custom".
    var equalizer = "off"
    /// The lyrics' lines (Reprise's Lyrics1) and the synced line sung now (-1: none).
    var lyricsLines: [String] = []
    var lyricsCurrent = -1

    mutating func applyLyrics(_ changed: [String: DBusValue]) {
        let lyrics = Lyrics1Values(changed)
        if let lines = lyrics.lines { lyricsLines = lines.map(\.text) }
        if let current = lyrics.current { lyricsCurrent = Int(current) }
    }

    /// The synced line sung now and the one after it (nil when none is sung).
    var lyricsNow: (current: String, next: String?)? {
        guard lyricsCurrent >= 0, lyricsCurrent < lyricsLines.count else { return nil }
        let next = lyricsCurrent + 1 < lyricsLines.count ? lyricsLines[lyricsCurrent + 1] : nil
        return (lyricsLines[lyricsCurrent], next)
    }

    /// "pausing in 29:58" while a sleep timer runs (counted down here while playing), else nil.
    func sleepLine(at now: Double) -> String? {
        guard sleepTimer != "off" else { return nil }
        var left = sleepRemaining
        if status == "Playing", left >= 0 { left = max(0, left - Int64(max(0, now - sleepTime) * 1e6)) } // real time
        return sleepText(timer: sleepTimer, remaining: left)
    }

    mutating func applyControls(_ changed: [String: DBusValue]) {
        let controls = Controls1Values(changed)
        if let items = controls.actions { actions = items.map { ($0.id, $0.label, $0.enabled) } }
        if let rows = controls.layout {
            bottomRow = rows.bottom
            expandedRow = rows.expanded
        }
    }

    /// How a control is shown on the bar.
    func label(of control: String) -> String {
        switch control {
        case ControlLayout.previous: return "|◀ Prev"
        case ControlLayout.next: return "Next ▶|"
        case ControlLayout.playPause: return status == "Playing" ? "❚❚ Pause" : "▶ Play"
        case ControlLayout.overflow: return "… More"
        default: return actions.first { $0.id == control }?.label ?? control
        }
    }
}
