import BusInterfaces
import MPRIS
import RepriseCore
import SDBus

/// app.reprise.Chapters1: the chapters of what plays (from its table of contents, MP4 `chpl` box or Vorbis
/// `CHAPTERnnn` comments) and moving between them.
final class ChaptersInterface: Chapters1Handler {
    private let player: Player

    init(player: Player) { self.player = player }

    func goTo(index: UInt32) throws(DBusError) {
        do throws(PlayerError) { try player.goToChapter(Int(index)) } catch { throw error.dbusError }
    }

    func next() throws(DBusError) {
        do throws(PlayerError) { try player.nextChapter() } catch { throw error.dbusError }
    }

    func previous() throws(DBusError) {
        do throws(PlayerError) { try player.previousChapter() } catch { throw error.dbusError }
    }

    var chapters: [ChapterEntry] {
        player.chapters.chapters.map { ChapterEntry(title: $0.title, start: $0.startMicroseconds) }
    }

    var current: Int32 { Int32(clamping: player.announcedChapterIndex ?? -1) }

    var skip: Bool { player.chapterSkip }

    func set(skip value: Bool) throws(DBusError) { player.setChapterSkip(value) }
}
