import CoreTestDoubles
import GStreamerKit
import PosixFiles
import RepriseCore
import Testing
@testable import RepriseService

/// The metadata reader with no reading thread (every file to the discoverer) and fake discoverers and a cover store in memory: the current entry first, a few at a
/// time, network streams never fetched twice, pictures kept only when they are pictures, and no nesting however
/// many entries are answered at once.
@Suite struct MetadataReaderTests {
    final class Rig {
        let player: Player
        let loop = ManualLoop()
        let covers = MemoryCovers()
        var readers: [FakeTagReader] = []
        let reader: MetadataReader

        init(uris: [String]) {
            player = Player(engine: ScriptedEngine(), log: Log(verbose: false), fileSystem: PosixFileSystem())
            player.enqueue(uris)
            var made: [FakeTagReader] = []
            reader = MetadataReader(player: player, art: covers, fileSystem: PosixFileSystem(), loop: loop, log: Log(verbose: false),
                                    index: nil, work: nil, concurrency: 2) {
                let fake = FakeTagReader()
                made.append(fake)
                return fake
            }
            player.feed.listen(reader)
            reader.start()
            readers = made
        }

        var reading: [String] { readers.compactMap(\.reading) }

        func answer(_ uri: String, title: String? = nil, image: EmbeddedImage? = nil, error: String? = nil) {
            guard let fake = readers.first(where: { $0.reading == uri }) else { return }
            var tags = StreamTags()
            tags.track.title = title
            fake.answer(DiscoveredMedia(uri: uri, error: error, tags: tags, durationNanoseconds: 5_000_000_000, hasAudio: true,
                                        image: image))
            loop.runOnce()
        }

        func track(_ uri: String) -> TrackInfo? {
            player.queue.entries.first { $0.uri == uri }.flatMap { player.track(id: $0.id) }
        }
    }

    static func file(_ n: Int) -> String { "file:///nonexistent/reprise-tests/\(n).ogg" }

    @Test func readsTwoAtATimeAndMoreAsEachIsAnswered() {
        let rig = Rig(uris: (1...4).map(Self.file))
        #expect(rig.readers.count == 2)
        #expect(Set(rig.reading) == [Self.file(1), Self.file(2)])
        rig.answer(Self.file(1), title: "One")
        #expect(rig.track(Self.file(1))?.title == "One")
        #expect(rig.track(Self.file(1))?.lengthMicroseconds == 5_000_000)
        #expect(Set(rig.reading) == [Self.file(2), Self.file(3)])
        rig.answer(Self.file(2), error: "not media")
        rig.answer(Self.file(3), title: "Three")
        #expect(rig.reading == [Self.file(4)])
    }

    @Test func networkStreamsAreNotFetchedAndThousandsNeverNest() {
        let rig = Rig(uris: (1...5000).map { "http://example.invalid/\($0).ogg" })
        rig.loop.runOnce()
        #expect(rig.reading.isEmpty)
        #expect(rig.player.takeEntryToDescribe() == nil)
    }

    @Test func onlyPicturesAreKeptAsCovers() {
        let rig = Rig(uris: [Self.file(1), Self.file(2)])
        rig.answer(Self.file(1), title: "One", image: EmbeddedImage(bytes: Array("<html>".utf8), mediaType: "image/jpeg"))
        #expect(rig.track(Self.file(1))?.artURL == nil)
        #expect(rig.covers.stored.isEmpty)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]
        rig.answer(Self.file(2), title: "Two", image: EmbeddedImage(bytes: png, mediaType: "image/png"))
        #expect(rig.covers.stored == [png])
        #expect(rig.track(Self.file(2))?.artURL == "file:///covers/0.png")
    }
}

final class FakeTagReader: TagReader {
    var onDiscovered: ((DiscoveredMedia) -> Void)?
    private(set) var reading: String?
    func start() {}
    func discover(_ uri: String) -> Bool {
        reading = uri
        return true
    }
    func answer(_ media: DiscoveredMedia) {
        reading = nil
        onDiscovered?(media)
    }
}

final class MemoryCovers: CoverStore, @unchecked Sendable {
    private(set) var stored: [[UInt8]] = []
    func store(_ bytes: [UInt8], kind: ImageKind) -> String? {
        stored.append(bytes)
        return "file:///covers/\(stored.count - 1).\(kind.fileExtension)"
    }
}
