import Glibc
import LoopKit
import MPRIS
import RepriseCore
import BusInterfaces
import SDBus

/// `reprise ui`: a terminal now-playing view for any MPRIS player. Playback view (title, artist, album,
/// progress, the control bar in the seeds' order and the expandable custom-action row), queue view
/// (chronological, current marked with its elapsed time; Enter plays an entry), or with `--mini` one line.
/// It follows PropertiesChanged and Seeked; the clock only redraws once a second while playing.
final class NowPlayingView {
    private let client: ServiceClient
    private let mini: Bool
    private var state = NowPlayingState()
    private var showingQueue = false
    /// The library browser (Reprise only), after the queue in the Tab cycle.
    private var browse: BrowseView?
    private var showingHistory = false
    private var expanded = false
    private var queue: [[String: DBusValue]] = []
    private var history: [[String: DBusValue]] = []
    private var selection = 0
    private var message = ""
    private var loop: EventLoop?
    private var exitStatus: Int32 = 0
    /// Said on standard error once the terminal is restored, when the player went away.
    private var goneMessage: String?

    init(client: ServiceClient, mini: Bool) {
        self.client = client
        self.mini = mini
    }

    func run() -> Int32 {
        guard let loop = EventLoop() else { return 1 }
        self.loop = loop
        do {
            try client.bus.attach(toEvent: loop.sdEvent)
            try subscribe()
        } catch {
            printError("reprise: \(error)")
            return 1
        }
        refreshAll()
        Terminal.take(fullScreen: !mini)
        defer { Terminal.restore() }
        loop.onReadable(0) { [unowned self] in
            guard let bytes = Terminal.readInput() else {
                quit()
                return false
            }
            Key.decode(bytes).forEach(handle)
            return true
        }
        for number in [SIGINT, SIGTERM, SIGHUP] { loop.onSignal(number) { [unowned self] in quit() } }
        loop.onSignal(SIGWINCH) { [unowned self] in draw() }
        loop.every(milliseconds: 1000) { [unowned self] in if state.status == "Playing" { draw() } }
        draw()
        if goneMessage == nil { loop.run() }
        Terminal.restore()
        if let goneMessage { printError("reprise: \(goneMessage)") }
        return exitStatus
    }

    private func quit() { loop?.quit() }

    // MARK: Following the player

    private func subscribe() throws {
        let (sender, path) = (client.destination, RepriseObjects.mprisPath)
        // PropertiesChanged from both objects: the MPRIS one and Reprise's own (Controls1).
        try client.bus.addMatch(.propertiesChanged(sender: sender)) {
            [unowned self] message in
            guard let interface = message.arguments.first?.stringValue, message.arguments.count >= 2,
                  let changed = message.arguments[1].dictionary else { return }
            if interface == MPRIS.playerInterface {
                let trackChanged = changed["Metadata"] != nil && changed["Metadata"]?.dictionary?["mpris:trackid"] != state.trackID
                state.apply(changed)
                if changed["PlaybackStatus"] != nil || trackChanged { refreshPosition() }
                if trackChanged && showingQueue { refreshQueue() }
            } else if interface == Controls1Proxy.interface {
                state.applyControls(changed)
            } else if interface == Sound1Proxy.interface {
                if let equalizer = changed["Equalizer"]?.stringValue { state.equalizer = equalizer }
            } else if interface == Lyrics1Proxy.interface {
                state.applyLyrics(changed)
            } else if interface == Chapters1Proxy.interface || interface == Sleep1Proxy.interface {
                state.applyListening(changed, at: monotonicSeconds())
            } else if interface == MPRIS.trackListInterface {
                if showingQueue { refreshQueue() }
            }
            draw()
        }
        try client.bus.addMatch(MediaPlayer2PlayerSignals.seekedMatch(sender: sender, path: path)) {
            [unowned self] message in
            if case .int64(let position)? = message.arguments.first { setPosition(position) }
            draw()
        }
        try client.bus.addMatch(MediaPlayer2TrackListSignals.allMatch(sender: sender, path: path)) { [unowned self] _ in
            if showingQueue { refreshQueue() }
            draw()
        }
        try client.bus.onDisconnect { [unowned self] in
            exitStatus = 1
            quit()
        }
        try client.onOwnerGone { [unowned self] in
            exitStatus = 1
            goneMessage = client.goneMessage
            quit()
        }
    }

    private func refreshAll() {
        if let values = try? client.player.allProperties() { state.apply(values) }
        if let values = try? client.controls.allProperties() { state.applyControls(values) }
        for values in [try? client.chapters.allProperties(), try? client.sleep.allProperties()] {
            if let values { state.applyListening(values, at: monotonicSeconds()) }
        }
        if let values = try? client.lyrics.allProperties() { state.applyLyrics(values) }
        if let equalizer = try? client.sound.equalizer { state.equalizer = equalizer }
        refreshPosition()
    }

    private func refreshPosition() {
        setPosition(ReportedNumbers.microseconds(try? client.player.position))
    }

    private func setPosition(_ position: Int64) {
        state.position = position
        state.positionTime = monotonicSeconds()
    }

    private func refreshQueue() {
        queue = (try? client.metadata(of: client.trackList.tracks)) ?? []
        if showingHistory, let ids = try? client.controls.history {
            history = (try? client.metadata(of: ids)) ?? []
        }
        selection = min(selection, max(0, queue.count - 1))
    }

    // MARK: Keys

    private func handle(_ key: Key) {
        message = ""
        if browse != nil {
            if browse?.handle(key, client: client) == .leave { browse = nil }
            return draw()
        }
        switch key {
        case .character("q"), .character("Q"): return quit()
        case .character(" "): send { player throws(DBusError) in try player.playPause() }
        case .left: send { player throws(DBusError) in try player.seek(offset: -CustomActions.skipMicroseconds) }
        case .right: send { player throws(DBusError) in try player.seek(offset: CustomActions.skipMicroseconds) }
        case .character("n"): send { player throws(DBusError) in try player.next() }
        case .character("p"): send { player throws(DBusError) in try player.previous() }
        case .character("["): stepSpeed(by: -1)
        case .character("]"): stepSpeed(by: 1)
        case .character("o"): expanded.toggle()
        case .character("e"): nextEqualizerPreset()
        case .character("P"): togglePictureInPicture()
        case .tab where showingQueue && hasLibrary:
            showingQueue = false
            browse = BrowseView(client: client)
        case .tab:
            showingQueue.toggle()
            if showingQueue {
                refreshQueue()
                selection = queue.firstIndex { $0["mpris:trackid"] == state.trackID } ?? 0
            }
        case .character("h") where showingQueue:
            showingHistory.toggle()
            refreshQueue()
        case .up where showingQueue: selection = max(0, selection - 1)
        case .down where showingQueue: selection = min(max(0, queue.count - 1), selection + 1)
        case .enter where showingQueue:
            if queue.indices.contains(selection), let id = queue[selection]["mpris:trackid"]?.stringValue {
                do { try client.trackList.goTo(trackId: id) } catch { message = "\(error)" }
            }
        default: break
        }
        draw()
    }

    /// Whether the player has Reprise's library (another player's view cycles playback and queue only).
    private lazy var hasLibrary: Bool = (try? client.library.folders) != nil

    /// Sends a request to the player; a refusal is shown on the status line.
    /// `e`: the equalizer's next preset (off, then each preset but flat, then off again); Reprise only.
    private func nextEqualizerPreset() {
        guard let presets = try? client.sound.equalizerPresets else { return message = "this player has no equalizer" }
        let cycle = ["off"] + presets.filter { $0 != "flat" }
        let next = cycle[((cycle.firstIndex(of: state.equalizer) ?? 0) + 1) % cycle.count]
        do throws(DBusError) { try client.sound.set(equalizer: next) } catch { message = "\(error)" }
    }

    /// `P` (p is Previous here): Picture in Picture on or off for the video window; Reprise only.
    private func togglePictureInPicture() {
        guard let on = try? client.video.pictureInPicture else { return message = "this player has no Picture in Picture" }
        guard (try? client.video.hasVideo) == true else { return message = "no video is playing" }
        do throws(DBusError) { try client.video.set(pictureInPicture: !on) } catch { message = "\(error)" }
    }

    private func send(_ request: (MediaPlayer2PlayerProxy) throws(DBusError) -> Void) {
        do throws(DBusError) { try request(client.player) } catch { message = "\(error)" }
    }

    private func stepSpeed(by step: Int) {
        let speeds = CustomActions.speeds
        let index = speeds.firstIndex { $0 >= state.rate - 0.001 } ?? 1
        let target = speeds[min(max(0, index + step), speeds.count - 1)]
        do {
            try client.player.set(rate: target)
            state.rate = target // keys can come faster than the PropertiesChanged that confirms it
        } catch {
            message = "\(error)"
        }
    }

    // MARK: Drawing

    private func draw() {
        let (columns, rows) = Terminal.size
        if mini {
            Terminal.write("\r\u{1B}[2K" + fit(miniLine(), columns))
            return
        }
        var lines = browse?.lines(rows: rows) ?? (showingQueue ? queueLines(rows: rows) : playbackLines(columns: columns))
        lines.append("")
        lines.append(browse != nil ? BrowseView.hint
                     : showingQueue ? "↑/↓ choose  Enter play  h history  Tab \(hasLibrary ? "library" : "playback")  q quit"
                     : "Space play/pause  ←/→ 10 s  n/p next/prev  [ ] speed  e EQ  P pip  o more  Tab queue  q quit")
        if !message.isEmpty { lines.append(message) }
        // The line being sung in bold: the attribute goes around the sanitised, fitted text, never inside it.
        let screen = lines.prefix(rows).map { line in
            line.hasPrefix(Self.sungLinePrefix) ? "\u{1B}[1m" + fit(line, columns) + "\u{1B}[0m" : fit(line, columns)
        }.joined(separator: "\r\n\u{1B}[K")
        Terminal.write("\u{1B}[H\u{1B}[2J" + screen)
    }

    /// How the lyrics line sung now starts (drawn in bold).
    static let sungLinePrefix = "   ♪ "

    private func playbackLines(columns: Int) -> [String] {
        let now = monotonicSeconds()
        let position = state.position(at: now)
        let length = state.length
        let barWidth = max(10, min(60, columns - 20))
        let filled = length.map { $0 > 0 ? Int(Double(barWidth) * Double(position) / Double($0)) : 0 } ?? 0
        var bar = Array(String(repeating: "=", count: min(barWidth, filled)) + String(repeating: "-", count: max(0, barWidth - filled)))
        // Chapter starts marked on the progress line.
        if let length, length > 0 {
            for start in state.chapterStarts where start > 0 && start < length {
                bar[min(barWidth - 1, Int(Double(barWidth) * Double(start) / Double(length)))] = "|"
            }
        }
        var lines = [" \(client.destination) — \(state.status)", "", "   " + state.title]
        if !state.artist.isEmpty { lines.append("   " + state.artist) }
        if !state.album.isEmpty { lines.append("   " + state.album) }
        if let chapter = state.metadata["reprise:chapter"]?.stringValue { lines.append("   § " + chapter) }
        if let sleep = state.sleepLine(at: now) { lines.append("   ☾ " + sleep) }
        if state.equalizer != "off" { lines.append("   EQ " + state.equalizer) }
        if let (current, next) = state.lyricsNow {
            lines += ["", Self.sungLinePrefix + current]
            if let next { lines.append("     " + next) }
        }
        lines += ["", "   \(clock(position)) [\(String(bar))] \(length.map(clock) ?? "–")", ""]
        if expanded && !state.expandedRow.isEmpty {
            lines.append("   " + state.expandedRow.map { "[\(state.label(of: $0))]" }.joined(separator: "  "))
        }
        lines.append("   " + state.bottomRow.map { "[\(state.label(of: $0))]" }.joined(separator: "  "))
        return lines
    }

    private func queueLines(rows: Int) -> [String] {
        var lines = [" Queue — \(queue.count) entries", ""]
        let position = state.position(at: monotonicSeconds())
        if showingHistory { lines += history.map { "   · " + ($0["xesam:title"]?.stringValue ?? "?") } }
        let visible = max(1, rows - 6)
        let start = max(0, min(selection - visible / 2, queue.count - visible))
        for (index, entry) in queue.enumerated().dropFirst(start).prefix(visible) {
            let current = entry["mpris:trackid"] == state.trackID
            let cursor = index == selection ? ">" : " "
            var line = cursor + (current ? "▶ " : "  ") + "\(index + 1). " + (entry["xesam:title"]?.stringValue ?? "?")
            if current { line += "  \(clock(position)) / \(entry["mpris:length"]?.int64Value.map(clock) ?? "–")" }
            lines.append(line)
        }
        if queue.isEmpty { lines.append("   (the queue is empty, or this player has no track list)") }
        return lines
    }

    private func miniLine() -> String {
        let icon = state.status == "Playing" ? "▶" : (state.status == "Paused" ? "❚❚" : "■")
        var line = "\(icon) \(state.title)"
        if !state.artist.isEmpty { line += " — " + state.artist }
        line += "  \(clock(state.position(at: monotonicSeconds())))  [|◀] [\(state.status == "Playing" ? "❚❚" : "▶")] [▶|]"
        return line
    }

    /// `text` made safe for the terminal and cut to `columns` cells: every line of the view goes through here.
    private func fit(_ text: String, _ columns: Int) -> String {
        TerminalText.fitted(TerminalText.sanitized(text), columns)
    }
}
