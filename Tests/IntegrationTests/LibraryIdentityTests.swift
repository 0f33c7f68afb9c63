import Foundation
import SDBus
import Testing
import TestSupport

/// What the library's ids and names mean to its clients: two artists' albums of one title are two albums (search
/// ids, `reprise play --album`, browse, MediaServer2), and a search id a client made up plays nothing outside the
/// library.
@Suite(.serialized) struct LibraryIdentityTests {
    /// The music folder of LibraryTests, plus "Greatest Hits" by two artists (two tracks each).
    func library(_ session: Session) throws -> String {
        let music = try LibraryTests.musicFolder(in: session.home)
        for (artist, titles) in [("Abba", ["Waterloo", "Fernando"]), ("Queen", ["Bicycle Race", "Innuendo"])] {
            try FileManager.default.createDirectory(atPath: music + "/\(artist) Hits", withIntermediateDirectories: true)
            for (index, title) in titles.enumerated() {
                try LibraryTests.tagged(music + "/\(artist) Hits/\(index + 1) \(title).ogg", title: title, artist: artist,
                                        album: "Greatest Hits", number: index + 1, genre: "Pop")
            }
        }
        return music
    }

    func scanned(_ session: Session) -> Bool {
        session.waitFor(30) {
            (try? session.get("Scanning", interface: LibraryTests.interface)) == .bool(false)
                && (try? session.get("Tracks", interface: LibraryTests.interface)) == .uint32(10)
        }
    }

    func titles(_ session: Session) -> [String] {
        session.queuedURLs().map { String($0.split(separator: "/").last ?? "") }
    }

    @Test func twoArtistsAlbumsOfOneTitleAreTwoAlbumsEverywhere() throws {
        let session = try Session()
        defer { session.close() }
        _ = try library(session)
        try session.launch([])
        #expect(scanned(session))
        #expect(try session.get("Albums", interface: LibraryTests.interface) == .uint32(5))

        // GNOME Shell: two rows, two ids; activating one plays that artist's album only.
        let provider = "org.gnome.Shell.SearchProvider2", path = "/app/reprise/SearchProvider"
        let ids = try session.bus.call(destination: Session.name, path: path, interface: provider, member: "GetInitialResultSet",
                                       [.strings(["greatest"])]).first?.stringArray ?? []
        let albumIDs = ids.filter { $0.hasPrefix("album") }
        #expect(albumIDs.count == 2 && Set(albumIDs).count == 2, "\(ids)")
        _ = try session.bus.call(destination: Session.name, path: path, interface: provider, member: "GetResultMetas", [.strings(ids)])
        let queen = try #require(albumIDs.first { $0.contains("Queen") })
        _ = try session.bus.call(destination: Session.name, path: path, interface: provider, member: "ActivateResult",
                                 [.string(queen), .strings(["greatest"]), .uint32(0)])
        #expect(session.waitFor { titles(session) == ["1%20Bicycle%20Race.ogg", "2%20Innuendo.ogg"] }, "\(titles(session))")

        // The command line: the name alone is ambiguous; --artist picks one.
        let ambiguous = try runCommand(repriseBinary, ["play", "--album", "greatest hits"], environment: session.environment)
        #expect(ambiguous.status == 2 && ambiguous.errors.contains("Greatest Hits — Abba") && ambiguous.errors.contains("Greatest Hits — Queen"),
                "\(ambiguous.errors)")
        let abba = try runCommand(repriseBinary, ["play", "--album", "Greatest Hits", "--artist", "abba"], environment: session.environment)
        #expect(abba.status == 0, "\(abba.errors)")
        #expect(session.waitFor { titles(session) == ["1%20Waterloo.ogg", "2%20Fernando.ogg"] }, "\(titles(session))")
        let added = try runCommand(repriseBinary, ["add", "--album", "Greatest Hits", "--artist", "Queen"], environment: session.environment)
        #expect(added.status == 0 && added.output.contains("added 2 tracks"), "\(added.output)\(added.errors)")
        let browse = try runCommand(repriseBinary, ["browse", "Albums/Greatest Hits"], environment: session.environment)
        #expect(browse.status == 2 && browse.errors.contains("Artists/ARTIST/Greatest Hits"), "\(browse.errors)")
        #expect(try runCommand(repriseBinary, ["browse", "Albums/Début"], environment: session.environment).output.contains("Crying"))

        // MediaServer2: two containers, each with its own tracks.
        let name = "org.gnome.UPnP.MediaServer2.Reprise", container = "org.gnome.UPnP.MediaContainer2"
        func list(_ path: String) throws -> [[String: DBusValue]] {
            let reply = try session.bus.call(destination: name, path: path, interface: container, member: "ListChildren",
                                             [.uint32(0), .uint32(0), .strings(["*"])])
            guard case .array(_, let items)? = reply.first else { return [] }
            return items.compactMap(\.dictionary)
        }
        let albums = try list("/org/gnome/UPnP/MediaServer2/Reprise/Albums")
        let hits = albums.filter { $0["DisplayName"]?.stringValue?.hasPrefix("Greatest Hits") == true }
        #expect(hits.compactMap { $0["DisplayName"]?.stringValue } == ["Greatest Hits — Abba", "Greatest Hits — Queen"], "\(albums)")
        guard case .objectPath(let queenPath)? = hits.last?["Path"] else { Issue.record("no path"); return }
        #expect(try list(queenPath).compactMap { $0["DisplayName"]?.stringValue } == ["Bicycle Race", "Innuendo"])
        #expect(albums.contains { $0["DisplayName"]?.stringValue == "Kind of Blue" })
    }

    /// Ids name library rows: a made-up track id naming a file outside the library (or climbing out of it) plays
    /// nothing, from GNOME Shell and KRunner alike.
    @Test func forgedSearchIdsPlayNothing() throws {
        let session = try Session()
        defer { session.close() }
        let music = try library(session)
        let outside = session.directory + "/outside.ogg"
        try LibraryTests.tagged(outside, title: "Outside", artist: "Nobody", album: "None", number: 1, genre: "None")
        let playlist = session.directory + "/remote.m3u"
        try "http://127.0.0.1:9/stream.mp3\n".write(toFile: playlist, atomically: true, encoding: .utf8)
        try session.launch([])
        #expect(scanned(session))
        let forged = ["track\u{1F}\(outside)", "track\u{1F}\(music)/../\(URL(fileURLWithPath: session.directory).lastPathComponent)/outside.ogg",
                      "track\u{1F}\(playlist)", "track\u{1F}\(music)/Singles/../../outside.ogg", "album\u{1F}nothing", "bogus"]
        for id in forged {
            let gnome = session.dbusError {
                _ = try session.bus.call(destination: Session.name, path: "/app/reprise/SearchProvider", interface: "org.gnome.Shell.SearchProvider2",
                                         member: "ActivateResult", [.string(id), .strings([]), .uint32(0)])
            }
            #expect(gnome?.name == "org.freedesktop.DBus.Error.InvalidArgs", "\(id): \(String(describing: gnome))")
            let krunner = session.dbusError {
                _ = try session.bus.call(destination: Session.name, path: "/app/reprise/KRunner", interface: "org.kde.krunner1",
                                         member: "Run", [.string(id), .string("")])
            }
            #expect(krunner?.name == "org.freedesktop.DBus.Error.InvalidArgs", "\(id): \(String(describing: krunner))")
        }
        #expect(session.queuedURLs().isEmpty, "\(session.queuedURLs())")
        // A real track's id still plays.
        _ = try session.bus.call(destination: Session.name, path: "/app/reprise/KRunner", interface: "org.kde.krunner1",
                                 member: "Run", [.string("track\u{1F}\(music)/Singles/1 Blue Monday.ogg"), .string("")])
        #expect(session.waitFor { session.title() == "Blue Monday" })
    }

    /// Object paths handed out before a restart name the same items after it (Rygel hands their URLs to TVs), and a
    /// control point's UPnP criteria (upnp:class, dc:title) are understood.
    @Test func mediaServer2ItemPathsOutliveARestart() throws {
        let session = try Session()
        defer { session.close() }
        _ = try library(session)
        let first = try session.launch([])
        #expect(scanned(session))
        let name = "org.gnome.UPnP.MediaServer2.Reprise", root = "/org/gnome/UPnP/MediaServer2/Reprise"
        let container = "org.gnome.UPnP.MediaContainer2"
        func call(_ path: String, _ member: String, _ arguments: [DBusValue]) throws -> [[String: DBusValue]] {
            let reply = try session.bus.call(destination: name, path: path, interface: container, member: member, arguments)
            guard case .array(_, let items)? = reply.first else { return [] }
            return items.compactMap(\.dictionary)
        }
        func path(_ item: [String: DBusValue]?) -> String? {
            if case .objectPath(let path)? = item?["Path"] { return path }
            return nil
        }
        let albums = try call(root + "/Albums", "ListChildren", [.uint32(0), .uint32(0), .strings(["*"])])
        let blue = try #require(path(albums.first { $0["DisplayName"]?.stringValue == "Kind of Blue" }))
        let item = try #require(path(try call(blue, "ListItems", [.uint32(0), .uint32(0), .strings(["*"])]).first))
        let searched = try call(root, "SearchObjects", [.string(#"upnp:class derivedfrom "object.item.audioItem" and dc:title = "So What""#),
                                                         .uint32(0), .uint32(0), .strings(["*"])])
        #expect(searched.count == 1 && searched.first?["DisplayName"]?.stringValue == "So What", "\(searched)")
        let containers = try call(root, "SearchObjects", [.string(#"upnp:class = "object.container.album.musicAlbum" and dc:title contains "blue""#),
                                                           .uint32(0), .uint32(0), .strings(["DisplayName"])])
        #expect(containers.count == 2, "the album and the artist's album: \(containers)")
        let playlistFolder = try session.makeHomeFolder("Music/Playlists")
        try "../Singles/1 Blue Monday.ogg\n".write(toFile: playlistFolder + "/Mix.m3u", atomically: true, encoding: .utf8)
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitForExit(first) == 0)

        try session.launch([])
        #expect(scanned(session))
        // Nothing listed yet in this run: the kept path still answers, with the track's own properties.
        let url = try session.bus.getProperty(destination: name, path: item, interface: "org.gnome.UPnP.MediaItem2", name: "URLs")
        #expect(url.stringArray?.first?.hasSuffix("/1%20So%20What.ogg") == true, "\(url)")
        let all = try session.bus.call(destination: name, path: item, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                       [.string("org.gnome.UPnP.MediaObject2")]).first?.dictionary
        #expect(all?["DisplayName"]?.stringValue == "So What" && all?["Parent"] == .objectPath(blue), "\(String(describing: all))")
        // A path the index never gave out, and one under the wrong container, are not there.
        for made in [blue + "/t999999", root + "/Genres/" + "_4a617a7a" + "/t0", root + "/Albums/_41/" + item.split(separator: "/").last!] {
            #expect(session.dbusError { _ = try session.bus.getProperty(destination: name, path: made, interface: "org.gnome.UPnP.MediaItem2",
                                                                       name: "URLs") } != nil, "\(made)")
        }
        // A playlist's entry, by its place.
        let playlists = try call(root + "/Playlists", "ListChildren", [.uint32(0), .uint32(0), .strings(["*"])])
        let mix = try #require(path(playlists.first { $0["DisplayName"]?.stringValue == "Mix" }))
        let entry = try #require(path(try call(mix, "ListItems", [.uint32(0), .uint32(0), .strings(["*"])]).first))
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })
        try session.launch([])
        #expect(scanned(session))
        let shown = Result { try session.bus.getProperty(destination: name, path: entry, interface: "org.gnome.UPnP.MediaObject2", name: "DisplayName") }
        #expect((try? shown.get()) == .string("Blue Monday"), "\(shown) at \(entry)")
    }
}
