import CoreTestDoubles
import Glibc
import PosixFiles
import Testing
@testable import RepriseCore

@Suite struct ChapterTests {
    let list = ChapterList([Chapter(title: "Two", startMicroseconds: 60_000_000), Chapter(title: "One", startMicroseconds: 0),
                            Chapter(title: "", startMicroseconds: 120_000_000), Chapter(title: "Dup", startMicroseconds: 60_000_000),
                            Chapter(title: "Past the end", startMicroseconds: 500_000_000)],
                           lengthMicroseconds: 180_000_000)

    @Test func chaptersAreSortedCleanedAndNamed() {
        #expect(list.chapters.map(\.title) == ["One", "Two", "Chapter 3"])
        #expect(list.chapters.map(\.startMicroseconds) == [0, 60_000_000, 120_000_000])
    }

    @Test func nextAndPreviousFollowTheThreeSecondRule() {
        #expect(list.index(at: 59_000_000) == 0)
        #expect(list.index(at: 60_000_000) == 1)
        #expect(list.nextStart(after: 10_000_000) == 60_000_000)
        #expect(list.nextStart(after: 130_000_000) == nil, "nothing after the last")
        #expect(list.previousStart(before: 65_000_000) == 60_000_000, "more than 3 s in: the chapter's start")
        #expect(list.previousStart(before: 62_000_000) == 0, "within 3 s: the chapter before")
        #expect(list.previousStart(before: 2_000_000) == 0)
        #expect(list.end(of: 1, lengthMicroseconds: 180_000_000) == 120_000_000)
        #expect(list.end(of: 2, lengthMicroseconds: 180_000_000) == 180_000_000)
    }

    @Test func vorbisChapterCommentsAreRead() {
        let chapters = VorbisChapterComments.chapters(in: [
            "CHAPTER002=00:02:00.500", "chapter001=00:01:00", "CHAPTER001NAME=Second", "CHAPTER000=00:00:00.000",
            "CHAPTER000NAME=First", "CHAPTER003=garbage", "CHAPTERX=00:00:01", "COMMENT=CHAPTER",
        ])
        #expect(chapters.map(\.title) == ["First", "Second", ""])
        #expect(chapters.map(\.startMicroseconds) == [0, 60_000_000, 120_500_000])
    }

    @Test func nerosChplBoxIsReadAndMalformedOnesRefused() {
        func chapter(_ start: UInt64, _ title: String) -> [UInt8] {
            (0..<8).reversed().map { UInt8((start >> (8 * UInt64($0))) & 0xFF) } + [UInt8(title.utf8.count)] + Array(title.utf8)
        }
        let body: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 2] + chapter(0, "Intro") + chapter(40_000_000, "Part 2")
        #expect(MP4Chapters.chapters(inChplBody: body) == [Chapter(title: "Intro", startMicroseconds: 0),
                                                         Chapter(title: "Part 2", startMicroseconds: 4_000_000)])
        #expect(MP4Chapters.chapters(inChplBody: Array(body.dropLast(3))) == nil, "cut short")
        func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
            let size = UInt32(content.count + 8)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + content
        }
        let moov = box("mvhd", [0, 0, 0, 0]) + box("udta", box("meta", []) + box("chpl", body))
        #expect(MP4Chapters.chplBody(inMoovBody: moov) == body)
        #expect(MP4Chapters.chplBody(inMoovBody: [0, 0, 0, 200] + Array("udta".utf8)) == nil, "a size past the end")
    }

    /// A 64-bit box size near `Int64.max` is refused, in a `moov` body and at the top level of a file (it trapped in
    /// `offset + size`).
    @Test func boxSizesNearTheLargestIntegerAreRefusedNotTrapped() throws {
        let huge: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0]
        let udta = [0, 0, 0, 1] + Array("udta".utf8) + huge + [UInt8](repeating: 0, count: 16)
        #expect(MP4Chapters.chplBody(inMoovBody: udta) == nil)
        let ftyp: [UInt8] = [0, 0, 0, 16] + Array("ftypM4A ".utf8) + [0, 0, 0, 0]
        for type in ["free", "moov"] {
            let path = "/tmp/reprise-chapter-test-\(getpid())-\(type).m4b"
            defer { unlink(path) }
            let bytes = ftyp + [0, 0, 0, 1] + Array(type.utf8) + huge + [UInt8](repeating: 0, count: 64)
            let file = try #require(fopen(path, "wb"))
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, bytes.count, file) }
            fclose(file)
            #expect(MP4ChapterReader.chapters(atPath: path) == nil, "\(type)")
        }
    }

    @Test func thePlayerAnnouncesTheChapterAndMovesBetweenThem() throws {
        let (player, engine, observer) = makePlayer()
        player.play()
        player.engineDidPreroll(lengthMicroseconds: 180_000_000, seekable: true)
        player.engineDidReadChapters(list.chapters)
        #expect(player.announcedTrack?.chapter == "One")
        engine.position = 61_000_000
        let changes = observer.trackListChanges.count
        player.updateChapter()
        #expect(player.announcedTrack?.chapter == "Two")
        #expect(observer.trackListChanges.count == changes + 1)
        player.updateChapter()
        #expect(observer.trackListChanges.count == changes + 1, "no change within a chapter")
        try player.nextChapter()
        #expect(observer.seeks.last == 120_000_000)
        #expect(player.announcedTrack?.chapter == "Chapter 3")
        #expect(throws: PlayerError.self) { try player.goToChapter(3) }
        player.next()
        #expect(player.chapters.isEmpty, "another track: its own chapters")
    }

    @Test func chapterSkipIsASwitchInTheConfig() throws {
        #expect(try AudioSettings(config: "chapter-skip = on").chapterSkip)
        #expect(try !AudioSettings(config: "chapter-skip = off").chapterSkip && !AudioSettings().chapterSkip)
        #expect(throws: PlayerError.self) { try AudioSettings(config: "chapter-skip = sometimes") }
    }
}
