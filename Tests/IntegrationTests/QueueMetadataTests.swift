import Foundation
import SDBus
import Testing
import TestSupport

/// Tags, lengths and covers read in the background; directories expanded recursively in album order.
@Suite(.serialized) struct QueueMetadataTests {
    static let trackList = "org.mpris.MediaPlayer2.TrackList"

    func metadata(_ session: Session, _ ids: [DBusValue]) -> [[String: DBusValue]] {
        let reply = try? session.call("GetTracksMetadata", [.array(elementSignature: "o", ids)], interface: Self.trackList)
        guard case .array(_, let items)? = reply?.first else { return [] }
        return items.compactMap(\.dictionary)
    }

    @Test func entriesNotYetPlayedGetTheirTagsAndLengthInTheBackground() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second, media.third])
        let ids = session.trackIDs()
        #expect(ids.count == 3)
        #expect(session.waitFor { metadata(session, ids).compactMap { $0["xesam:title"]?.stringValue } == ["First Light", "Second Wind", "Third Time"] })
        let third = try #require(metadata(session, [ids[2]]).first)
        #expect(third["xesam:artist"] == .strings(["Test Artist"]))
        #expect(third["xesam:trackNumber"] == .int32(3))
        let length = third["mpris:length"]?.int64Value ?? 0
        #expect(abs(length - 20_000_000) < 200_000)
        // Announced with TrackMetadataChanged (entry id, then the whole metadata).
        #expect(session.waitFor {
            session.trackListSignals.contains {
                $0.member == "TrackMetadataChanged" && $0.arguments.first == ids[2]
                    && $0.arguments[1].dictionary?["xesam:title"] == .string("Third Time")
            }
        })
        // The playing entry's Metadata is announced whole when its stream has prerolled, which may come after
        // the background reader is done with it.
        #expect(session.waitFor { session.title() == "First Light" })
    }

    /// Files reached through symbolic links (a folder of links, a playlist of them) are read as playing them would
    /// read them, from their headers; the library is a separate matter (its walk follows no link).
    @Test func linkedFilesGetTheirTagsToo() throws {
        let session = try Session()
        defer { session.close() }
        let links = try session.makeFolder("links")
        for (index, file) in [media.second, media.third].enumerated() {
            try FileManager.default.createSymbolicLink(atPath: links + "/\(index + 1).ogg", withDestinationPath: file)
        }
        try session.launch([media.first, links + "/1.ogg", links + "/2.ogg"])
        let ids = session.trackIDs()
        #expect(session.waitFor { metadata(session, ids).compactMap { $0["xesam:title"]?.stringValue } == ["First Light", "Second Wind", "Third Time"] },
                "\(metadata(session, ids).map { $0["xesam:title"] ?? .string("-") })")
    }

    @Test func embeddedCoverArtIsCachedPrivatelyAndExposedAsArtUrl() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.covered, media.first]) { session.metadata()["mpris:artUrl"] != nil }
        let artURL = try #require(session.metadata()["mpris:artUrl"]?.stringValue)
        let cache = session.home + "/.cache/reprise/art"
        #expect(artURL.hasPrefix("file://" + cache + "/") && artURL.hasSuffix(".jpg"))
        let path = try #require(URL(string: artURL)?.path)
        #expect(FileManager.default.contents(atPath: path) == media.coverImage)
        let fileMode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let directoryMode = try FileManager.default.attributesOfItem(atPath: cache)[.posixPermissions] as? Int
        #expect(fileMode == 0o600 && directoryMode == 0o700)
        // The other entry has no picture and no cover beside it.
        let ids = session.trackIDs()
        #expect(session.waitFor { metadata(session, [ids[1]]).first?["xesam:title"] == .string("First Light") })
        #expect(metadata(session, [ids[1]]).first?["mpris:artUrl"] == nil)
    }

    @Test func aCoverBesideTheFileIsUsedWhenNoneIsEmbedded() throws {
        let session = try Session()
        defer { session.close() }
        let album = try session.makeFolder("plain album")
        try FileManager.default.copyItem(atPath: media.untagged, toPath: album + "/tone.wav")
        try media.coverImage.write(to: URL(fileURLWithPath: album + "/Folder.JPG"))
        try session.launch([album + "/tone.wav"]) { session.metadata()["mpris:artUrl"] != nil }
        #expect(session.metadata()["mpris:artUrl"] == .string(TestMedia.uri(album + "/Folder.JPG")))
    }

    @Test func directoriesExpandRecursivelyInAlbumDiscAndTrackOrder() throws {
        let session = try Session()
        defer { session.close() }
        let root = session.directory + "/music"
        try FileManager.default.createDirectory(atPath: root + "/zz later", withIntermediateDirectories: true)
        func make(_ name: String, title: String, album: String, disc: Int, track: Int) throws {
            let tags = "title=(string)\\\"\(title)\\\",album=(string)\\\"\(album)\\\",track-number=(uint)\(track),album-disc-number=(uint)\(disc)"
            try generateTone(at: root + "/" + name, seconds: 3, tags: tags, encoder: ["vorbisenc", "!", "oggmux"])
        }
        // By name: a, b, c, zz later/d. By album, disc and track: d (Album A), then c, b, a (Album B).
        try make("a.ogg", title: "B2-1", album: "Album B", disc: 2, track: 1)
        try make("b.ogg", title: "B1-2", album: "Album B", disc: 1, track: 2)
        try make("c.ogg", title: "B1-1", album: "Album B", disc: 1, track: 1)
        try make("zz later/d.ogg", title: "A1-1", album: "Album A", disc: 1, track: 1)
        try session.launch([root])
        let expected = ["A1-1", "B1-1", "B1-2", "B2-1"]
        var titles: [String] = []
        #expect(session.waitFor {
            titles = metadata(session, session.trackIDs()).compactMap { $0["xesam:title"]?.stringValue }
            return titles == expected
        }, "titles: \(titles)")
        #expect(session.waitFor { session.trackListSignals.contains { $0.member == "TrackListReplaced" } })
        // Playback had barely begun with a.ogg; it moves to the album's first track.
        #expect(session.waitFor { session.title() == "A1-1" })
        #expect(session.status() == "Playing")
    }
}
