import Foundation
import SDBus
import Testing
import TestSupport

/// Hostile media: broken, mislabelled and truncated files, a directory that loops, ten thousand files, a megabyte
/// of invalid tags and a huge cover. Each is skipped with a logged reason or played with sane metadata; the
/// service keeps answering throughout.
@Suite(.serialized) struct HostileMediaTests {
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    /// After a hostile file: Next reaches the plain track queued after it, and the service is still there.
    static func expectPlaysOn(_ session: Session, _ reprise: pid_t) throws {
        try session.call("Next")
        #expect(session.waitFor { session.title() == "First Light" })
        #expect(session.isRunning(reprise))
    }

    @Test func brokenFilesAreSkippedWithAReasonAndTruncatedOrMislabelledOnesPlay() throws {
        let session = try Session()
        defer { session.close() }
        let empty = session.directory + "/empty.ogg"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        let whole = try Data(contentsOf: URL(fileURLWithPath: media.first))
        let truncated = session.directory + "/truncated.ogg"
        try whole.prefix(whole.count * 2 / 5).write(to: URL(fileURLWithPath: truncated))
        let mislabelled = session.directory + "/really-flac.mp3"
        try FileManager.default.copyItem(atPath: media.second, toPath: mislabelled)

        let reprise = try session.launch([empty, media.corrupt, media.notMedia, truncated, mislabelled])
        // The three broken files are skipped, each with its reason in the log; the truncated file plays.
        #expect(session.waitFor { session.title() == "First Light" && session.status() == "Playing" })
        let log = session.log(of: reprise)
        for name in ["empty.ogg", "corrupt.ogg", "notes.mp3"] {
            #expect(log.split(separator: "\n").contains { $0.contains(name) && $0.contains("skipping") }, "no reason for \(name) in\n\(log)")
        }
        #expect(session.trackIDs().count == 5, "the queue keeps every entry")
        // The truncated file ends where its data does, and the next (a FLAC named .mp3) follows.
        let length = session.metadata()["mpris:length"]?.int64Value ?? 20_000_000
        let id = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [id, .int64(max(0, min(length, 8_000_000) - 1_000_000))])
        #expect(session.waitFor(30) { session.title() == "Second Wind" && session.status() == "Playing" })
        #expect(session.isRunning(reprise))
    }

    /// A tiny damaged MP4 (an empty `chpl` box, no track) opened while a track plays: OpenUri is answered with an
    /// error every time, and the track plays on. Whether GStreamer's decodebin passes qtdemux's error on depends on
    /// thread timing; when it does not, the pipeline never prerolls and Reprise gives up on the file after 8 s.
    @Test func aDamagedMP4ThatNeverPrerollsIsAnsweredWithAnErrorAndTheTrackPlaysOn() throws {
        let session = try Session()
        defer { session.close() }
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(body.count + 8)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
        }
        let damaged = session.directory + "/damaged.mp4"
        let ftyp = box("ftyp", Array("M4A ".utf8) + [0, 0, 2, 0] + Array("M4B isom".utf8))
        let chpl = [0, 0, 0, 0] + Array("chpl".utf8) + [UInt8](repeating: 0, count: 64)
        #expect(FileManager.default.createFile(atPath: damaged, contents: Data(ftyp + box("moov", box("udta", chpl)))))
        let reprise = try session.launch([media.first]) { session.title() == "First Light" && session.status() == "Playing" }
        for attempt in 1...4 {
            let error = session.dbusError { try session.call("OpenUri", [.string(TestMedia.uri(damaged))]) }
            #expect(error?.name == "org.freedesktop.DBus.Error.Failed", "attempt \(attempt): \(String(describing: error))")
            #expect(session.waitFor { session.title() == "First Light" && session.status() == "Playing" }, "attempt \(attempt)")
        }
        #expect(session.trackIDs().count == 1, "the damaged file is not left in the queue")
        #expect(session.isRunning(reprise))
    }

    @Test func aLoopingDirectoryOfTenThousandFilesIsWalkedOnceAndTheServiceKeepsAnswering() throws {
        let session = try Session()
        defer { session.close() }
        let root = session.directory + "/big"
        let nested = root + "/nested"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        // Links back up and to itself: each directory must be entered once.
        try FileManager.default.createSymbolicLink(atPath: nested + "/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root + "/self", withDestinationPath: ".")
        for index in 0..<10_000 {
            let name = (index % 10 == 0 ? nested : root) + String(format: "/tone-%05d.ogg", index)
            #expect(link(media.short, name) == 0)
        }
        let reprise = try session.launch([root]) { session.trackIDs().count == 10_000 }
        #expect(session.waitFor { session.status() == "Playing" })
        // While ten thousand entries are read in the background, every call is still answered and time moves on.
        // The sound server starts the stream with its buffer filled: Position may stand at the first tenth of a second
        // for most of a second (longer on a busy machine) before it moves with the sound, so this looks for up to 8 s.
        var answered = 0
        var asked = 0
        var positions: [Int64] = []
        let until = monotonicSeconds() + 8
        while asked < 20 || (Set(positions).count < 2 && monotonicSeconds() < until) {
            asked += 1
            if let position = session.position() { answered += 1; positions.append(position) }
            _ = try? session.call("Ping", interface: "org.freedesktop.DBus.Peer")
            usleep(50_000)
        }
        #expect(answered == asked)
        // One-second tracks follow each other: two samples may fall at the same point of two tracks, never all.
        #expect(Set(positions).count > 1 || session.status() != "Playing", "positions \(positions)")
        let ids = session.trackIDs()
        let reply = try session.call("GetTracksMetadata", [.array(elementSignature: "o", [ids[0], ids[9_999]])],
                                     interface: Self.trackList)
        guard case .array(_, let items)? = reply.first else { Issue.record("no metadata"); return }
        #expect(items.count == 2)
        #expect(session.isRunning(reprise))
        #expect(!session.log(of: reprise).contains("nothing in the queue can be played"))
    }

    /// A megabyte of Vorbis comments (`KEY=` then `body` bytes, with `invalid` UTF-8 spliced into each value).
    static func megabyteOfTags(invalid: [UInt8]) -> [[UInt8]] {
        func comment(_ key: String, _ body: [UInt8]) -> [UInt8] { Array((key + "=").utf8) + body }
        var comments = [
            comment("TITLE", Array("Hostile ".utf8) + invalid + Array(repeating: UInt8(ascii: "t"), count: 400_000) + invalid),
            comment("ALBUM", Array("Album ".utf8) + invalid + invalid),
            comment("COMMENT", Array(repeating: UInt8(ascii: "c"), count: 400_000) + invalid),
        ]
        for index in 0..<2_000 {
            comments.append(comment("ARTIST", Array("Artist \(index) ".utf8) + invalid + Array(repeating: UInt8(ascii: "a"), count: 100)))
        }
        return comments
    }

    @Test func aMegabyteOfTagsIsPlayedWithSaneMetadata() throws {
        let session = try Session()
        defer { session.close() }
        // One file whose every tag holds invalid UTF-8, one whose tags are valid but huge.
        let broken = session.directory + "/broken-tags.flac", huge = session.directory + "/huge-tags.flac"
        for (path, invalid) in [(broken, [0xC3, 0x28, 0xFF, 0xFE, 0xE2, 0x82] as [UInt8]), (huge, [])] {
            try generateTone(at: path, seconds: 20, frequency: 500, tags: nil, encoder: ["flacenc"])
            let comments = Self.megabyteOfTags(invalid: invalid)
            #expect(comments.reduce(0) { $0 + $1.count } > 1_000_000)
            try TestMedia.setVorbisComments(comments, inFLAC: path)
        }
        func saneEverywhere(_ metadata: [String: DBusValue]) {
            for (key, value) in metadata {
                if let text = value.stringValue { #expect(text.count <= 1_000, "\(key): \(text.count) characters") }
                if let texts = value.stringArray {
                    #expect(texts.count <= 128 && texts.allSatisfy { $0.count <= 1_000 }, "\(key): \(texts.count) values")
                }
            }
        }
        let reprise = try session.launch([broken, huge, media.first])
        // Invalid text is not passed on: the title falls back to the file's name.
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "broken-tags" })
        saneEverywhere(session.metadata())
        try session.call("Next")
        #expect(session.waitFor { session.status() == "Playing" && session.metadata()["xesam:artist"] != nil },
                "\(session.status() ?? "-") \(session.metadata().keys.sorted())\n\(session.log(of: reprise))")
        let metadata = session.metadata()
        let title = try #require(metadata["xesam:title"]?.stringValue)
        #expect(title.hasPrefix("Hostile ttt") && title.hasSuffix("…") && title.count == 1_000)
        // Lists keep 128 values (more than any real track has), and the cut is logged.
        #expect(metadata["xesam:artist"]?.stringArray?.count == 128)
        #expect(session.log(of: reprise).contains("values, 128 kept"), "\(session.log(of: reprise))")
        saneEverywhere(metadata)
        // Nor do huge tags reach the sound server, which would drop the stream's connection (over 64 KiB).
        #expect(session.waitFor { (try? session.sinkInputs(of: reprise))?.first?.properties["media.title"] != nil })
        let streamTitle = try session.sinkInputs(of: reprise).first?.properties["media.title"] ?? ""
        #expect(streamTitle.hasPrefix("Hostile ttt") && streamTitle.utf8.count <= 1_024)
        #expect(!session.log(of: reprise).contains("the sound output failed"))
        // The same limits hold for what the background reader announces.
        let ids = session.trackIDs()
        #expect(session.waitFor {
            let reply = try? session.call("GetTracksMetadata", [.array(elementSignature: "o", Array(ids.prefix(2)))],
                                          interface: Self.trackList)
            guard case .array(_, let items)? = reply?.first else { return false }
            return items.count == 2 && items.allSatisfy { $0.dictionary?["mpris:length"] != nil }
        })
        let reply = try session.call("GetTracksMetadata", [.array(elementSignature: "o", Array(ids.prefix(2)))],
                                     interface: Self.trackList)
        if case .array(_, let items)? = reply.first { items.compactMap(\.dictionary).forEach(saneEverywhere) }
        try Self.expectPlaysOn(session, reprise)
    }

    /// A 16 MiB ID3v2 tag of a million tiny TXXX frames: the tag reader refuses it within its bound, and the service
    /// plays the file with its name for a title, without growing on what GStreamer finds in it.
    @Test func aTagOfAMillionFramesIsPlayedWithoutTheServiceGrowing() throws {
        let session = try Session()
        defer { session.close() }
        let audio = session.directory + "/audio.mp3", crafted = session.directory + "/million-frames.mp3"
        try generateTone(at: audio, seconds: 20, frequency: 500, tags: nil, encoder: ["lamemp3enc"])
        var file = ID3v2.tag(ID3v2.tinyFrames(filling: 16 << 20))
        file.append(try Data(contentsOf: URL(fileURLWithPath: audio)))
        try file.write(to: URL(fileURLWithPath: crafted))
        let reprise = try session.launch([crafted, media.first])
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "million-frames" }, "\(session.log(of: reprise))")
        var peak = 0.0
        _ = session.waitFor(5) {
            peak = max(peak, anonymousResidentMiB(of: reprise))
            return false
        }
        #expect(peak < 96, "anonymous RSS \(peak) MiB, all \(residentMiB(of: reprise))")
        try Self.expectPlaysOn(session, reprise)
    }

    @Test func aHugeEmbeddedCoverIsCachedOnceWithoutHoldingOnToIt() throws {
        let session = try Session()
        defer { session.close() }
        // A noisy 3000×2400 JPEG at full quality: several megabytes, as scans of booklets are.
        let picture = session.directory + "/huge.jpg"
        let made = try runCommand("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=snow", "!",
                                                     "video/x-raw,width=3000,height=2400", "!", "jpegenc", "quality=100", "!",
                                                     "filesink", "location=\(picture)"])
        #expect(made.status == 0, "\(made.errors)")
        let image = try Data(contentsOf: URL(fileURLWithPath: picture))
        #expect(image.count > 4_000_000 && image.count < 1 << 24, "\(image.count) bytes")
        let path = session.directory + "/huge-cover.flac"
        try generateTone(at: path, seconds: 20, frequency: 600, tags: "title=\\\"Big Booklet\\\"", encoder: ["flacenc"])
        try TestMedia.embedPicture(image, mediaType: "image/jpeg", inFLAC: path, width: 3000, height: 2400)
        // A cover that claims to be a JPEG but is not an image at all is not cached.
        let fake = session.directory + "/fake-cover.flac"
        try generateTone(at: fake, seconds: 20, frequency: 650, tags: "title=\\\"Fake Cover\\\"", encoder: ["flacenc"])
        try TestMedia.embedPicture(Data(repeating: 0x41, count: 200_000), mediaType: "image/jpeg", inFLAC: fake)

        let reprise = try session.launch([path, fake]) { session.title() == "Big Booklet" && session.metadata()["mpris:artUrl"] != nil }
        let artURL = try #require(session.metadata()["mpris:artUrl"]?.stringValue)
        let cached = try #require(URL(string: artURL)?.path)
        #expect(FileManager.default.contents(atPath: cached) == image)
        // The picture went to disk; the service does not keep copies of it in memory (heap and anonymous maps: the
        // libraries GStreamer maps for the formats met, gst-libav's ~28 MiB among them, are not copies).
        #expect(anonymousResidentMiB(of: reprise) < 48, "anonymous RSS \(anonymousResidentMiB(of: reprise)) MiB, all \(residentMiB(of: reprise))")
        let ids = session.trackIDs()
        #expect(session.waitFor {
            let reply = try? session.call("GetTracksMetadata", [.array(elementSignature: "o", [ids[1]])], interface: Self.trackList)
            guard case .array(_, let items)? = reply?.first else { return false }
            return items.first?.dictionary?["xesam:title"] == .string("Fake Cover")
        })
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Fake Cover" })
        #expect(session.metadata()["mpris:artUrl"] == nil)
        let cache = session.home + "/.cache/reprise/art"
        #expect((try? FileManager.default.contentsOfDirectory(atPath: cache))?.count == 1)
    }
}
