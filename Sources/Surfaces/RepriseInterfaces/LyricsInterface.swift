import BusInterfaces
import RepriseCore
import SDBus

/// app.reprise.Lyrics1: the lyrics of what plays, their times and the line sung now.
final class LyricsInterface: Lyrics1Handler {
    private let player: Player

    init(player: Player) { self.player = player }

    var lines: [LyricsLine] {
        (player.lyrics?.lines ?? []).map { LyricsLine(start: $0.startMicroseconds ?? -1, text: $0.text) }
    }

    var synced: Bool { player.lyrics?.isSynced ?? false }

    var current: Int32 { Int32(clamping: player.announcedLyricsLine ?? -1) }

    var source: String { player.lyrics?.source.rawValue ?? "" }
}
