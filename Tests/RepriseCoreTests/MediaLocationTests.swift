import CoreTestDoubles
import Foundation
import Testing
import PosixFiles
@testable import RepriseCore

@Suite struct MediaLocationTests {
    func scratchDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func directoriesExpandToAudioFilesInNaturalNameOrder() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["10 ten.ogg", "2 two.FLAC", "1 one.mp3", "notes.txt", ".hidden.ogg", "cover.jpg"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: Data([1]))
        }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("sub.ogg"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("3 link.ogg").path,
                                                   withDestinationPath: dir.appendingPathComponent("1 one.mp3").path)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("4 dangling.ogg").path,
                                                   withDestinationPath: "/nonexistent/file.ogg")
        let result = MediaLocation.expand([dir.path], relativeTo: "/", in: PosixFileSystem())
        #expect(result.uris.map { URL(string: $0)!.lastPathComponent } == ["1 one.mp3", "2 two.FLAC", "3 link.ogg", "10 ten.ogg"])
        #expect(result.problems.isEmpty)
    }

    @Test func argumentsBecomeUrisAndProblemsAreReported() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("a b.ogg").path, contents: Data([1]))
        let result = MediaLocation.expand(["a b.ogg", "missing.ogg", "https://radio.example/live", "ftp://x/y.ogg"],
                                          relativeTo: dir.path, in: PosixFileSystem())
        #expect(result.uris == [dir.appendingPathComponent("a b.ogg").absoluteString, "https://radio.example/live"])
        #expect(result.problems.count == 2)
    }

    @Test func uriParsing() {
        let web = MediaURI("HTTPS://user@radio.example:8000/live%20stream?x=1#y")
        #expect(web?.scheme == "https" && web?.host == "radio.example" && web?.path == "/live stream")
        #expect(MediaURI("file:///music/a%20b%C3%A9.flac")?.path == "/music/a bé.flac")
        #expect(MediaURI("file:///music/bad%zz") == nil)
        #expect(MediaURI("no scheme here") == nil)
        #expect(MediaURI("1abc:/x") == nil)
        #expect(MediaURI(":/x") == nil && MediaURI("a b:/x") == nil)
        // The parts between delimiters, as RFC 3986 splits them.
        let ipv6 = MediaURI("Rtsp+X://[::1]/a")
        #expect(ipv6?.scheme == "rtsp+x" && ipv6?.host == "[::1]" && ipv6?.path == "/a")
        #expect(MediaURI("http://a@b@host:80")?.host == "host" && MediaURI("http://a@b@host:80")?.path == "")
        #expect(MediaURI("file:///x")?.host == "" && MediaURI("urn:isbn:1")?.host == nil && MediaURI("urn:isbn:1")?.path == "isbn:1")
        #expect(MediaURI("mailto:/")?.path == "/" && MediaURI("x:")?.path == "" && MediaURI("x://")?.host == "")
        #expect(MediaURI("file:///a?%zz")?.path == "/a", "a query is not the path's: not decoded")
        // A percent sign without its two digits, at the end too.
        for cut in ["file:///a%", "file:///a%4", "file:///a%4g", "file:///%%41"] { #expect(MediaURI(cut) == nil, "\(cut)") }
        #expect(MediaURI("file:///a%41%2f%c3%a9")?.path == "/aA/é")
        #expect(MediaURI("file:///caf%E9.ogg")?.path == RawPath.string(fromBytes: Array("/caf".utf8) + [0xE9] + Array(".ogg".utf8)),
                "a byte that is not UTF-8 kept as RawPath's escape")
        #expect(MediaURI.file(path: "/m/a b#1%.ogg") == "file:///m/a%20b%231%25.ogg")
        #expect(MediaURI(MediaURI.file(path: "/m/ça & co?.ogg"))?.path == "/m/ça & co?.ogg")
        #expect(MediaURI.absolutePath("../x/./y.ogg", relativeTo: "/a/b") == "/a/x/y.ogg")
        #expect(MediaURI.absolutePath("/abs", relativeTo: "/a") == "/abs")
    }

    @Test func validationRejectsWhatCannotBePlayed() throws {
        let dir = try scratchDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: PlayerError.self) { try MediaLocation.validate("ftp://host/file.ogg", in: PosixFileSystem()) }
        #expect(throws: PlayerError.self) { try MediaLocation.validate("file:///no/such/file.ogg", in: PosixFileSystem()) }
        #expect(throws: PlayerError.self) { try MediaLocation.validate(dir.absoluteString, in: PosixFileSystem()) }
        #expect(throws: PlayerError.self) { try MediaLocation.validate("", in: PosixFileSystem()) }
        #expect(throws: PlayerError.self) { try MediaLocation.validate("http://", in: PosixFileSystem()) }
        try MediaLocation.validate("https://radio.example/live", in: PosixFileSystem())
    }

    @Test func anUnplayableOpenGoesBackToWhatItInterrupted() throws {
        let (player, engine, _) = makePlayer(tracks: 2)
        player.play()
        player.engineDidReadTags(TrackTags(title: "One"))
        player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        engine.position = 12_000_000
        player.pause()
        var outcome: PlayerError?
        player.open("https://radio.example/broken") { outcome = $0 }
        #expect(player.status == .playing)
        player.engineDidFail("not media")
        #expect(outcome == .unplayable("not media"))
        #expect(player.status == .paused)
        #expect(player.queue.playOrder.map(\.uri) == [uri(1), uri(2)])
        #expect(Array(engine.requests.suffix(2)) == [.load(uri(1), playing: false), .seek(12_000_000)])
        #expect(player.announcedTrack?.title == "One")
    }

    @Test func openInsertsAfterTheCurrentEntryAndReportsTheOutcome() throws {
        let (player, engine, _) = makePlayer(tracks: 2)
        var outcomes: [PlayerError?] = []
        player.open("https://radio.example/live") { outcomes.append($0) }
        #expect(engine.loads == ["https://radio.example/live"])
        #expect(player.queue.playOrder.map(\.uri) == [uri(1), "https://radio.example/live", uri(2)])
        #expect(player.status == .playing)
        #expect(outcomes.isEmpty)
        player.engineDidPreroll(lengthMicroseconds: nil, seekable: false)
        #expect(outcomes.count == 1 && outcomes[0] == nil)
        player.open("https://radio.example/broken") { outcomes.append($0) }
        player.engineDidFail("Could not determine type of stream.")
        #expect(outcomes.count == 2)
        #expect(outcomes[1] == .unplayable("Could not determine type of stream."))
        #expect(!player.queue.playOrder.map(\.uri).contains("https://radio.example/broken"))
        #expect(player.queue.current?.uri == "https://radio.example/live")
        #expect(engine.requests.last == .load("https://radio.example/live", playing: true))
        player.open("smb://server/share/a.ogg") { outcomes.append($0) }
        #expect(outcomes.last == .unsupportedScheme("URI scheme 'smb' is not supported (use file, http, https)"))
    }
}

@Suite struct NaturalOrderTests {
    @Test func numbersCompareByValueAndLettersIgnoreCase() {
        let names = ["track 10.ogg", "Track 2.ogg", "track 1.ogg", "b.ogg", "A.ogg", "track 02b.ogg", "10.ogg", "9.ogg"]
        #expect(names.sorted(by: MediaLocation.naturallyPrecedes)
                == ["9.ogg", "10.ogg", "A.ogg", "b.ogg", "track 1.ogg", "Track 2.ogg", "track 02b.ogg", "track 10.ogg"])
        #expect(!MediaLocation.naturallyPrecedes("a", "a"))
        #expect(MediaLocation.naturallyPrecedes("a", "a1"))
    }
}
