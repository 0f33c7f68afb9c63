import BusInterfaces
import CoreTestDoubles
import MPRIS
import RepriseCore
import RepriseInterfaces
import SDBus
import Testing

/// The library's interfaces and the desktop exports (GNOME Shell, KRunner, MediaServer2), in-process over a
/// library held in memory.
@Suite struct DesktopExportsAdaptorTests {
    /// An adaptor with a library of two albums, three playable files.
    static func withLibrary() throws -> (InProcessAdaptor, MemoryLibrary) {
        var made: MemoryLibrary?
        let adaptor = try InProcessAdaptor(tracks: 0) { setup in
            func file(_ name: String) throws -> FilePath { FilePath(escaped: try InProcessAdaptor.file(name, in: setup.folder)) }
            let tracks = [
                LibraryTrack(path: try file("Music/Blue/1.ogg"), title: "Morning", artist: "Ana", album: "Blue", genre: "Jazz"),
                LibraryTrack(path: try file("Music/Blue/2.ogg"), title: "Noon", artist: "Ana", album: "Blue", genre: "Jazz"),
                LibraryTrack(path: try file("Music/Red/1.ogg"), title: "Evening", artist: "Bo", album: "Red", genre: "Folk"),
            ].enumerated().map { index, track in
                var track = track
                track.track = index + 1
                track.id = Int64(index + 1)
                return track
            }
            let library = MemoryLibrary(tracks: tracks, folders: [setup.folder + "/Music"], feed: setup.player.feed)
            made = library
            return DBusAdaptor.Surfaces(library: try LibraryExports(bus: setup.bus, library: library, playlists: setup.playlists,
                                                                    player: setup.player, remote: setup.remote, log: Log(verbose: false)))
        }
        return (adaptor, try #require(made))
    }

    let path = InProcessAdaptor.reprise

    @Test func libraryOneSearchesPlaysAndCounts() throws {
        let (adaptor, library) = try Self.withLibrary()
        let interface = Library1Export.interface
        let found = try #require(adaptor.answer(path, interface, "Search", [.string("ana"), .uint32(10)])).get()
        #expect(found.first == .strings(["Ana"]) && found.count == 3)
        #expect(try adaptor.bus.get(path, interface, "Tracks") == .uint32(3))
        #expect(try adaptor.bus.get(path, interface, "Albums") == .uint32(2))
        #expect(try #require(adaptor.answer(path, interface, "Names", [.string("genres")])).get() == [.strings(["Folk", "Jazz"])])
        #expect(try #require(adaptor.answer(path, interface, "Names", [.string("moods")])).failure?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let played = try #require(adaptor.answer(path, interface, "Play", [.string("album"), .string("Blue"), .bool(false)])).get()
        #expect(played == [.uint32(2)])
        #expect(adaptor.player.status == .playing && adaptor.player.queue.entries.count == 2)
        let none = try #require(adaptor.answer(path, interface, "Play", [.string("artist"), .string("Nobody"), .bool(true)]))
        #expect(none.failure?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let albums = try #require(adaptor.answer(path, interface, "Albums", [.string("red")])).get()
        #expect(albums == [.array(elementSignature: "(ss)", [.structure([.string("Red"), .string("Bo")])])])
        try adaptor.bus.call(path, interface, "Rescan")
        #expect(library.rescans == 1)
        // A change of the library is announced with exactly what changed.
        adaptor.forget()
        library.tracks.removeLast()
        #expect(adaptor.bus.propertiesChanged(interface).last?["Tracks"] == .uint32(2))
        #expect(adaptor.signals("org.gnome.UPnP.MediaContainer2", "Updated").count == 4) // root, Artists, Albums, Genres
    }

    @Test func gnomeShellAndKRunnerFindAndPlay() throws {
        let (adaptor, _) = try Self.withLibrary()
        let shell = "org.gnome.Shell.SearchProvider2", searchPath = "/app/reprise/SearchProvider"
        let ids = try #require(adaptor.answer(searchPath, shell, "GetInitialResultSet", [.strings(["even"])])).get()
        guard let first = ids.first?.stringArray?.first else { Issue.record("nothing found"); return }
        let metas = try adaptor.bus.call(searchPath, shell, "GetResultMetas", [.strings([first, "track\u{1F}/forged"])])
        guard case .array(_, let items)? = metas.first else { Issue.record("no metas"); return }
        #expect(items.count == 1 && items.first?.dictionary?["name"] == .string("Evening"))
        #expect(try #require(adaptor.answer(searchPath, shell, "ActivateResult", [.string(first), .strings([]), .uint32(0)])).get() == [])
        #expect(adaptor.player.queue.current?.uri.hasSuffix("/Music/Red/1.ogg") == true)
        let forged = try #require(adaptor.answer(searchPath, shell, "ActivateResult", [.string("track\u{1F}/etc/passwd"), .strings([]), .uint32(0)]))
        #expect(forged.failure != nil)
        let krunner = "org.kde.krunner1", runnerPath = "/app/reprise/KRunner"
        let matches = try #require(adaptor.answer(runnerPath, krunner, "Match", [.string("blue")])).get()
        guard case .array(_, let found)? = matches.first, case .structure(let match)? = found.first else { Issue.record("no match"); return }
        #expect(match[1] == .string("Blue") && match[3] == .int32(100))
        #expect(try #require(adaptor.answer(runnerPath, krunner, "Run", [match[0], .string("")])).get() == [])
        #expect(adaptor.player.queue.entries.count == 2)
        try adaptor.bus.call(runnerPath, krunner, "Teardown")
    }

    @Test func mediaServerTwoBrowsesTheLibrary() throws {
        let (adaptor, _) = try Self.withLibrary()
        let root = "/org/gnome/UPnP/MediaServer2/Reprise", container = "org.gnome.UPnP.MediaContainer2"
        #expect(try adaptor.bus.get(root, "org.gnome.UPnP.MediaObject2", "Type") == .string("container"))
        #expect(try adaptor.bus.get(root, container, "ContainerCount") == .uint32(5))
        let albums = try #require(adaptor.answer(root + "/Albums", container, "ListContainers", [.uint32(0), .uint32(0), .strings(["DisplayName", "Path"])])).get()
        guard case .array(_, let entries)? = albums.first else { Issue.record("no albums"); return }
        #expect(entries.compactMap { $0.dictionary?["DisplayName"] } == [.string("Blue"), .string("Red")])
        let blue = try #require(entries.first?.dictionary?["Path"]?.stringValue)
        let items = try #require(adaptor.answer(blue, container, "ListItems", [.uint32(0), .uint32(0), .strings(["*"])])).get()
        guard case .array(_, let tracks)? = items.first, let item = tracks.first?.dictionary?["Path"]?.stringValue else {
            Issue.record("no items"); return
        }
        #expect(tracks.count == 2)
        let values = try adaptor.bus.getAll(item, "org.gnome.UPnP.MediaItem2")
        #expect(values["Artist"] == .string("Ana") && values["MIMEType"] == .string("audio/ogg") && values["TrackNumber"] == .int32(1))
        #expect(throws: DBusError.self) { try adaptor.bus.get(item, container, "ChildCount") } // an item is no container
        let search = try #require(adaptor.answer(root, container, "SearchObjects", [.string("Artist = \"Bo\""), .uint32(0), .uint32(0), .strings(["DisplayName"])])).get()
        #expect(search == [.array(elementSignature: "a{sv}", [.vardict([("DisplayName", .string("Evening"))])])])
        #expect(try #require(adaptor.answer(root, container, "SearchObjects", [.string("Artist ="), .uint32(0), .uint32(0), .strings([])])).failure != nil)
        // Its own name, taken and given back.
        let exports = try #require(adaptor.surfaces.library)
        #expect(exports.claimMediaServerName() && adaptor.bus.ownedNames.contains("org.gnome.UPnP.MediaServer2.Reprise"))
        exports.releaseMediaServerName()
        #expect(adaptor.bus.ownedNames.isEmpty)
    }
}
