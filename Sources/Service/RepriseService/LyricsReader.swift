import LoopKit
import PosixFiles
import RepriseCore
import TagLibKit

/// The lyrics of what plays (ID3 SYLT, USLT, Vorbis LYRICS, MP4 ©lyr, or a sidecar): looked up on a background worker when an entry loads — a `.lrc` file beside it with
/// the same name, else the lyrics in its tags — and, when synced, each line announced as it begins: one timer set
/// for the next line's time (set again after every seek, pause and rate change), never a periodic tick.
final class LyricsReader: TimedComponent, PlayerFollower {
    let name = "lyrics"
    private let player: Player
    private let work: BackgroundWork?
    private let fileSystem: FileSystem
    private let log: Log
    private var lookedUpFor: String?
    /// The next synced line's.
    let timer: TimerSlot
    /// What was found for the files loaded lately, used on the worker only.
    private let recent = RecentLyrics()

    init(player: Player, timers: LoopTimers, work: BackgroundWork?, fileSystem: FileSystem, log: Log) {
        self.player = player
        timer = TimerSlot(timers)
        self.work = work
        self.fileSystem = fileSystem
        self.log = log
    }

    /// Whether a line's timer is set (for tests).
    var isWaitingForALine: Bool { timer.isSet }

    /// The current entry's lyrics and the line sung follow the whole player.
    var followedParts: ChangeAspects { .player }
    func follow(_ change: Change) { followPlayback() }

    func followPlayback() {
        lookUp()
        scheduleNextLine()
    }

    private func lookUp() {
        let uri = player.loadedURI
        guard uri != lookedUpFor else { return }
        lookedUpFor = uri
        guard let uri, let location = MediaURI(uri), location.scheme == "file", let work else { return }
        let path = location.path, fileSystem = fileSystem, recent = recent
        work.run({ recent.find(forMediaAt: path, fileSystem: fileSystem) }) { [weak self] found in
            guard let self, !timer.isClosed else { return }
            switch found {
            case .found(let lyrics): player.didFindLyrics(lyrics, for: uri)
            case .refused(let where_, let why): log.info("lyrics in \(where_) not used: \(why)")
            case .none: break
            }
        }
    }

    /// Sets the timer for the next synced line (at once when the line announced is not the one sung now, after a
    /// seek say); none while paused or stopped.
    private func scheduleNextLine() {
        timer.cancel()
        guard !timer.isClosed, player.status == .playing, let lyrics = player.lyrics, lyrics.isSynced else { return }
        let position = player.positionMicroseconds
        let delay: Int64
        if lyrics.lineIndex(at: position) != player.announcedLyricsLine {
            delay = 0
        } else if let next = lyrics.nextLineStart(after: position) {
            delay = Int64(Double(next - position) / max(player.rate, 0.01) / 1000) + 1
        } else {
            return
        }
        timer.set(afterMilliseconds: UInt32(clamping: delay)) { [weak self] in
            self?.player.updateLyricsLine() // a change: followPlayback sets the next timer
            if self?.timer.isSet == false { self?.scheduleNextLine() }
        }
    }

    /// What the worker found.
    enum Found: Sendable {
        case found(Lyrics)
        case refused(String, LyricsRefusal)
        case none
    }

    /// A `.lrc` beside the file (`song.lrc` or `song.LRC` for `song.flac`), else the lyrics in its tags.
    static func find(forMediaAt path: String, fileSystem: FileSystem) -> Found {
        for sidecar in sidecarPaths(of: path) where fileSystem.kind(of: sidecar) != .missing {
            guard let bytes = fileSystem.contents(of: sidecar, limit: LRC.maximumBytes) else {
                return .refused(sidecar, .unreadable)
            }
            switch LRC.parse(bytes, source: .sidecar) {
            case .success(let lyrics): return .found(lyrics)
            case .failure(let refusal): return .refused(sidecar, refusal)
            }
        }
        let fileExtension = MediaLocation.fileExtension(ofPath: path)
        guard TagLibReader.reads(fileExtension: fileExtension), let file = OpenedRegularFile(path: path, followingLinks: true) else { return .none }
        let read = TagLibReader.read(descriptor: file.descriptor, size: file.size, fileExtension: fileExtension, pictureLimit: 0)
        file.close()
        guard let text = read?.tags.lyrics else { return .none }
        switch LRC.parse(text: text, source: .embedded) {
        case .success(let lyrics): return .found(lyrics)
        case .failure(let refusal): return .refused(path, refusal)
        }
    }

    /// `dir/song.lrc` and `dir/song.LRC` for `dir/song.flac` (`dir/song.lrc` for a file with no extension).
    static func sidecarPaths(of path: String) -> [String] {
        var stem = Substring(path)
        if !MediaLocation.fileExtension(ofPath: path).isEmpty, let dot = path.lastIndex(of: ".") { stem = path[..<dot] }
        return [stem + ".lrc", stem + ".LRC"]
    }
}

/// What the lyrics reader found for the files it looked at lately (32 of them), each under the identity the file and
/// its `.lrc` had then (modification times): loading the same file again — a restart, a track on repeat, a client
/// that calls GoTo over and over — reads its tags once, not every time. Used only on the reader's serial worker.
final class RecentLyrics: @unchecked Sendable {
    private var found: [String: LyricsReader.Found] = [:]
    private var order: [String] = []
    static let capacity = 32

    func find(forMediaAt path: String, fileSystem: FileSystem) -> LyricsReader.Found {
        let identity = ([path] + LyricsReader.sidecarPaths(of: path)).map { "\(fileSystem.modificationTime(of: $0) ?? -1)" }
        let key = path + "\u{0}" + identity.joined(separator: ",")
        if let known = found[key] { return known }
        let result = LyricsReader.find(forMediaAt: path, fileSystem: fileSystem)
        found[key] = result
        order.append(key)
        if order.count > Self.capacity { found.removeValue(forKey: order.removeFirst()) }
        return result
    }
}

