import Foundation
import SDBus
import Testing
import TestSupport

/// Chapters made with ffmpeg at test time: an M4B audiobook (AAC, Nero `chpl` box), Matroska audio (a table of
/// contents), Opus (ffmpeg's CHAPTER comments), Ogg Vorbis and FLAC (CHAPTERnnn comments written as tags).
@Suite(.serialized) struct ChaptersTests {
    static let chapters = ["Opening", "Middle", "Ending"]
    static let interface = "app.reprise.Chapters1"

    /// A 12 s tone with chapters at 0, 4 and 8 s, in the format of `name`'s extension.
    static func book(_ name: String, in directory: String, seconds: Int = 12, chapterStarts: [Int] = [0, 4, 8],
                     titles: [String] = chapters) throws -> String {
        let path = directory + "/" + name
        var metadata = ";FFMETADATA1\ntitle=Book\nartist=Reader\n"
        for (index, start) in chapterStarts.enumerated() {
            let end = index + 1 < chapterStarts.count ? chapterStarts[index + 1] : seconds
            metadata += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(start * 1000)\nEND=\(end * 1000)\ntitle=\(titles[index])\n"
        }
        let metadataPath = path + ".ffmetadata"
        try metadata.write(toFile: metadataPath, atomically: true, encoding: .utf8)
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds):sample_rate=8000",
                         "-i", metadataPath, "-map", "0", "-map_metadata", "1", "-map_chapters", "1", "-ac", "1"]
        if name.hasSuffix(".m4b") { arguments += ["-c:a", "aac", "-b:a", "24k"] }
        if name.hasSuffix(".ogg") || name.hasSuffix(".flac") {
            // ffmpeg writes chapters as comments only for Opus: the others get them as tags.
            for (index, start) in chapterStarts.enumerated() {
                let number = String(format: "%03d", index)
                arguments += ["-metadata", String(format: "CHAPTER\(number)=%02d:%02d:%02d.000", start / 3600, start / 60 % 60, start % 60),
                              "-metadata", "CHAPTER\(number)NAME=\(titles[index])"]
            }
        }
        let result = try runCommand("ffmpeg", arguments + [path])
        guard result.status == 0 else { throw HarnessError(message: "ffmpeg \(name): \(result.errors)") }
        return path
    }

    func chapterList(_ session: Session) throws -> [(title: String, start: Double)] {
        let result = try runCommand(repriseBinary, ["chapters", "--json"], environment: session.environment)
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return (json?["chapters"] as? [[String: Any]] ?? []).map { ($0["title"] as? String ?? "", $0["start"] as? Double ?? -1) }
    }

    func chapter(_ session: Session) -> String? { session.metadata()["reprise:chapter"]?.stringValue }

    @Test(arguments: ["book.m4b", "book.mka", "book.opus", "book.ogg", "book.flac"])
    func chaptersAreListedFromEveryFormat(_ name: String) throws {
        let session = try Session()
        defer { session.close() }
        let file = try Self.book(name, in: session.directory)
        try session.launch([file])
        #expect(session.waitFor { session.status() == "Playing" && chapter(session) == "Opening" },
                "\(name): chapter \(chapter(session) ?? "none")")
        let listed = try chapterList(session)
        #expect(listed.map(\.title) == Self.chapters, "\(name): \(listed)")
        #expect(listed.map { Int($0.start.rounded()) } == [0, 4, 8], "\(name): \(listed)")
        let text = try runCommand(repriseBinary, ["chapters"], environment: session.environment)
        #expect(text.output.contains("▶ 1. 0:00  Opening"), "\(text.output)")
        let status = try runCommand(repriseBinary, ["status"], environment: session.environment)
        #expect(status.output.contains("chapter Opening"), "\(status.output)")
    }

    /// 20 CHAPTERnnn pairs are 40 values of one tag: all of them are read (16 values a tag reached Reprise: 8 chapters).
    @Test(arguments: ["many.flac", "many.ogg"])
    func aBookWithManyChapterCommentsKeepsThemAll(_ name: String) throws {
        let session = try Session()
        defer { session.close() }
        let titles = (1...20).map { "Part \($0)" }
        let file = try Self.book(name, in: session.directory, seconds: 40, chapterStarts: Array(stride(from: 0, to: 40, by: 2)), titles: titles)
        let pid = try session.launch([file]) { session.status() == "Playing" && chapter(session) == "Part 1" }
        #expect(session.waitFor { ((try? chapterList(session)) ?? []).count == 20 }, "\(name): \((try? chapterList(session)) ?? [])")
        #expect(try chapterList(session).map(\.title) == titles)
        #expect(session.log(of: pid).contains("the sound server's copy is cut (extended-comment: 40 values)"), "\(session.log(of: pid))")
    }

    /// Chapter skip: the MPRIS Next and Previous a headset's buttons and media keys send (here playerctl's) step
    /// through the chapters, then to the other track; CanGoNext/CanGoPrevious say what they will do.
    @Test func chapterSkipMakesNextAndPreviousStepThroughChapters() throws {
        let session = try Session()
        defer { session.close() }
        let book = try Self.book("book.ogg", in: session.directory)
        let tail = session.directory + "/tail.ogg"
        try generateTone(at: tail, seconds: 6, tags: "title=Tail", encoder: ["vorbisenc", "!", "oggmux"])
        try session.launch([book, tail]) { session.status() == "Playing" && chapter(session) == "Opening" }
        func canGo(_ name: String) -> Bool { (try? session.get(name)) == .bool(true) }
        #expect(!canGo("CanGoPrevious"), "the first track, chapter skip off")
        let on = try runCommand(repriseBinary, ["chapter-skip", "on"], environment: session.environment)
        #expect(on.status == 0 && on.output == "on\n", "\(on.output)\(on.errors)")
        #expect(try session.get("Skip", interface: Self.interface) == .bool(true))

        #expect(try session.playerctl("-p", "reprise", "next").status == 0)
        #expect(session.waitFor { chapter(session) == "Middle" }, "\(chapter(session) ?? "none")")
        #expect(session.title() == "Book" && (session.position() ?? 0) < 7_000_000)
        #expect(session.waitFor { canGo("CanGoPrevious") }, "Previous now goes to the first chapter")
        #expect(try session.playerctl("-p", "reprise", "next").status == 0)
        #expect(session.waitFor { chapter(session) == "Ending" })
        #expect(canGo("CanGoNext"), "the next track follows the last chapter")
        // Within 3 s of a chapter's start, Previous goes to the chapter before; in the first chapter, to the
        // previous track — here there is none.
        #expect(try session.playerctl("-p", "reprise", "previous").status == 0)
        #expect(session.waitFor { chapter(session) == "Middle" })
        #expect(try session.playerctl("-p", "reprise", "previous").status == 0)
        #expect(session.waitFor { chapter(session) == "Opening" && !canGo("CanGoPrevious") })
        // From the last chapter, Next goes to the next track.
        try session.call("GoTo", [.uint32(2)], interface: Self.interface)
        #expect(session.waitFor { chapter(session) == "Ending" })
        #expect(try session.playerctl("-p", "reprise", "next").status == 0)
        #expect(session.waitFor { session.title() == "Tail" })
        // Off: Next and Previous move between tracks again.
        #expect(try runCommand(repriseBinary, ["chapter-skip", "off"], environment: session.environment).output == "off\n")
        #expect(try session.playerctl("-p", "reprise", "previous").status == 0)
        #expect(session.waitFor { session.title() == "Book" && chapter(session) == "Opening" })
        #expect(try session.playerctl("-p", "reprise", "next").status == 0)
        #expect(session.waitFor { session.title() == "Tail" })
        let bad = try runCommand(repriseBinary, ["chapter-skip", "sometimes"], environment: session.environment)
        #expect(bad.status == 64 || bad.status == 2, "\(bad.status) \(bad.errors)")
    }

    @Test func movingByChapterFromTheCLIDBusAndTheCustomActions() throws {
        let session = try Session()
        defer { session.close() }
        let file = try Self.book("book.m4b", in: session.directory)
        try session.launch([file]) { session.status() == "Playing" && chapter(session) == "Opening" }
        session.clearSignals()

        #expect(try runCommand(repriseBinary, ["chapter", "next"], environment: session.environment).status == 0)
        #expect(session.waitFor { chapter(session) == "Middle" })
        #expect(session.waitFor { !session.seeked.isEmpty })
        #expect(session.seeked.first.map { abs($0 - 4_000_000) < 100_000 } == true, "Seeked \(session.seeked)")
        #expect(try session.get("Current", interface: Self.interface) == .int32(1))

        // Within 3 s of a chapter's start, previous goes to the one before.
        #expect(try runCommand(repriseBinary, ["chapter", "previous"], environment: session.environment).status == 0)
        #expect(session.waitFor { chapter(session) == "Opening" })

        // GoTo over D-Bus, then previous more than 3 s into it restarts it.
        try session.call("GoTo", [.uint32(2)], interface: Self.interface)
        #expect(session.waitFor { chapter(session) == "Ending" })
        try session.call("GoTo", [.uint32(1)], interface: Self.interface)
        #expect(session.waitFor { chapter(session) == "Middle" && (session.position() ?? 0) > 7_200_000 })
        try session.call("Previous", interface: Self.interface)
        #expect(session.waitFor { chapter(session) == "Middle" && (session.position() ?? .max) < 5_000_000 })

        // Out of range and on a track without chapters: clear errors.
        #expect(session.dbusError { try session.call("GoTo", [.uint32(7)], interface: Self.interface) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")
        let bad = try runCommand(repriseBinary, ["chapter", "9"], environment: session.environment)
        #expect(bad.status != 0 && bad.errors.contains("chapters 1 to 3"), "\(bad.errors)")
        let huge = try runCommand(repriseBinary, ["chapter", "5000000000"], environment: session.environment)
        #expect(huge.status == 1 && huge.errors.contains("chapters 1 to 3"), "past UInt32 (it trapped): \(huge.errors)")

        // The custom actions.
        let actions = try runCommand(repriseBinary, ["actions"], environment: session.environment)
        #expect(actions.output.contains("next-chapter") && actions.output.contains("previous-chapter"), "\(actions.output)")
        try session.call("Invoke", [.string("next-chapter")], interface: "app.reprise.Controls1")
        #expect(session.waitFor { chapter(session) == "Ending" })
    }

    @Test func aLongBookResumesInsideItsChapter() throws {
        let session = try Session()
        defer { session.close() }
        // 11 minutes: long enough for its position to be remembered; chapters at 0, 5 and 10 minutes.
        let file = try Self.book("long.m4b", in: session.directory, seconds: 660, chapterStarts: [0, 300, 600])
        try session.launch([file]) { session.status() == "Playing" && chapter(session) == "Opening" }
        #expect(try runCommand(repriseBinary, ["chapter", "2"], environment: session.environment).status == 0)
        #expect(session.waitFor { chapter(session) == "Middle" && (session.position() ?? 0) > 300_500_000 })
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })

        try session.launch([file])
        #expect(session.waitFor { chapter(session) == "Middle" }, "chapter \(chapter(session) ?? "none")")
        #expect((session.position() ?? 0) > 300_000_000, "resumed at \(session.position() ?? 0)")
    }
}
