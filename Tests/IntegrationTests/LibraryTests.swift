import Foundation
import SDBus
import Testing
import TestSupport

/// The music library with the real binary: a generated music folder indexed, searched and played from the CLI and
/// D-Bus; files added, changed and removed between scans; a damaged database and a missing disk.
@Suite(.serialized) struct LibraryTests {
    static let interface = "app.reprise.Library1"

    /// A music folder: two albums and a single, tagged, in folders of their own.
    static func musicFolder(in directory: String) throws -> String {
        let root = directory + "/Music"
        for (folder, files) in [
            ("Björk/Début", [("Human Behaviour", "Björk", "Début", 1, "Pop"), ("Venus as a Boy", "Björk", "Début", 3, "Pop"),
                             ("Crying", "Björk", "Début", 2, "Pop")]),
            ("Miles Davis/Kind of Blue", [("So What", "Miles Davis", "Kind of Blue", 1, "Jazz"),
                                          ("Freddie Freeloader", "Miles Davis", "Kind of Blue", 2, "Jazz")]),
            ("Singles", [("Blue Monday", "New Order", "Singles", 1, "Synth-pop")]),
        ] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
            for (title, artist, album, number, genre) in files {
                try tagged(root + "/\(folder)/\(number) \(title).ogg", title: title, artist: artist, album: album, number: number, genre: genre)
            }
        }
        return root
    }

    static func tagged(_ path: String, title: String, artist: String, album: String, number: Int, genre: String) throws {
        try generateTone(at: path, seconds: 3, frequency: 300 + 40 * number,
                         tags: "title=(string)\"\(title)\",artist=(string)\"\(artist)\",album=(string)\"\(album)\","
                             + "track-number=(uint)\(number),genre=(string)\"\(genre)\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
    }

    func count(_ session: Session, _ name: String = "Tracks") -> UInt32? {
        if case .uint32(let value)? = try? session.get(name, interface: Self.interface) { return value }
        return nil
    }

    func waitForScan(_ session: Session, tracks: UInt32) -> Bool {
        session.waitFor(30) { (try? session.get("Scanning", interface: Self.interface)) == .bool(false) && count(session) == tracks }
    }

    /// Starts Reprise on the six-track music folder and waits for the first scan; returns the folder.
    func scannedMusicFolder(_ session: Session) throws -> String {
        let music = try Self.musicFolder(in: session.home)
        try session.launch([])
        #expect(waitForScan(session, tracks: 6))
        return music
    }

    func reprise(_ session: Session, _ arguments: String...) throws -> CommandResult {
        try reprise(session, arguments)
    }

    func reprise(_ session: Session, _ arguments: [String]) throws -> CommandResult {
        try runCommand(repriseBinary, arguments, environment: session.environment)
    }

    /// `reprise library` on a terminal follows the first pass with a progress bar; the service killed meanwhile ends it
    /// with "Reprise quit" and status 1, not with a library of 0 tracks.
    @Test func theProgressBarEndsWhenTheServiceGoesAway() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeHomeFolder("Music/Many")
        for index in 0..<20_000 { _ = FileManager.default.createFile(atPath: music + "/\(index).ogg", contents: Data("not audio".utf8)) }
        let service = try session.launch([])
        let errors = session.directory + "/library-errors.log"
        let tmux = try session.terminal(["sh", "-c", "\"$0\" library 2>\(errors)", repriseBinary])
        #expect(session.waitFor { tmux.text().contains("files") }, "\(tmux.text())")
        kill(service, SIGKILL)
        expectToldRepriseQuit(tmux, errors: errors, session: session)
    }

    @Test func aMusicFolderIsIndexedSearchedAndPlayed() throws {
        let session = try Session()
        defer { session.close() }
        let music = try Self.musicFolder(in: session.home)
        try session.launch([])
        #expect(waitForScan(session, tracks: 6), "tracks \(count(session) ?? 0)")
        #expect(count(session, "Albums") == 3)
        #expect(try session.get("Folders", interface: Self.interface) == .strings([music]))
        // The pass over, its pages are checkpointed into the database (a pass holds SQLite's own checkpoints back).
        let database = session.home + "/.local/share/reprise/library.db"
        #expect(session.waitFor {
            ((try? FileManager.default.attributesOfItem(atPath: database))?[.size] as? Int ?? 0) > 4096
        }, "library.db after the pass: \((try? FileManager.default.attributesOfItem(atPath: database))?[.size] ?? "none")")

        // Case, accents and prefixes.
        let found = try reprise(session, "search", "bjork", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(found.output.utf8)) as? [String: Any] ?? [:]
        #expect((json["artists"] as? [String]) == ["Björk"], "\(found.output)")
        #expect((json["tracks"] as? [Any])?.count == 3)
        let album = try reprise(session, "search", "kind", "blu")
        #expect(album.output.contains("Albums\n  Kind of Blue — Miles Davis"), "\(album.output)")
        #expect(try reprise(session, "search", "DEBUT").output.contains("Début"))
        #expect(try reprise(session, "search", "1959xyz").output.contains("nothing found"))

        // Play an album: replaced queue, album order, playing.
        let played = try reprise(session, "play", "--album", "début")
        #expect(played.status == 0 && played.output.contains("playing 3 tracks"), "\(played.output)\(played.errors)")
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "Human Behaviour" })
        #expect(session.queuedURLs().map { URL(string: $0)?.lastPathComponent ?? "" }
                == ["1%20Human%20Behaviour.ogg", "2%20Crying.ogg", "3%20Venus%20as%20a%20Boy.ogg"].map { $0.removingPercentEncoding! })
        // Add an artist; play search words; a genre over D-Bus.
        #expect(try reprise(session, "add", "--artist", "miles davis").output.contains("added 2 tracks"))
        #expect(session.queuedURLs().count == 5)
        #expect(try reprise(session, "play", "blue", "monday").output.contains("playing 1 track"))
        #expect(session.waitFor { session.title() == "Blue Monday" })
        let reply = try session.call("Play", [.string("genre"), .string("jazz"), .bool(false)], interface: Self.interface)
        #expect(reply.first == .uint32(2))
        #expect(session.waitFor { session.title() == "So What" })
        let missing = try reprise(session, "play", "--artist", "Nobody")
        #expect(missing.status != 0 && missing.errors.contains("nothing in the library"), "\(missing.errors)")
        let status = try reprise(session, "library")
        #expect(status.output.contains("6 tracks, 3 albums"), "\(status.output)")

        // Changes between scans: a new file, a changed tag, a removed file; only those are read again.
        try FileManager.default.removeItem(atPath: music + "/Singles/1 Blue Monday.ogg")
        try Self.tagged(music + "/Singles/2 Age of Consent.ogg", title: "Age of Consent", artist: "New Order", album: "Singles",
                        number: 2, genre: "Synth-pop")
        try Self.tagged(music + "/Björk/Début/2 Crying.ogg", title: "Crying (Remix)", artist: "Björk", album: "Début", number: 2, genre: "Pop")
        #expect(try reprise(session, "library", "rescan").status == 0)
        #expect(session.waitFor(30) { try! reprise(session, "search", "consent").output.contains("Age of Consent") })
        #expect(try reprise(session, "search", "remix").output.contains("Crying (Remix)"))
        #expect(try reprise(session, "search", "monday").output.contains("nothing found"))
        #expect(count(session) == 6)
    }

    @Test func theBrowseTree() throws {
        let session = try Session()
        defer { session.close() }
        let music = try scannedMusicFolder(session)
        func lines(_ path: String...) throws -> [String] {
            try reprise(session, ["browse"] + path).output.split(separator: "\n").map(String.init)
        }
        #expect(try lines() == ["Artists/", "Albums/", "Genres/", "Folders/", "Playlists/"])
        #expect(try lines("Artists") == ["Björk/", "Miles Davis/", "New Order/"])
        #expect(try lines("Artists/björk") == ["Début/"])
        #expect(try lines("Artists/Björk/Début").map { $0.components(separatedBy: " — ").first ?? "" }
                == ["Human Behaviour", "Crying", "Venus as a Boy"])
        #expect(try lines("Genres") == ["Jazz/", "Pop/", "Synth-pop/"])
        #expect(try lines("Genres/Jazz").count == 2)
        #expect(try lines("Folders") == [music + "/"])
        #expect(try lines("Folders" + music) == ["Björk/", "Miles Davis/", "Singles/"])
        #expect(try lines("Folders" + music + "/Singles").first?.hasPrefix("Blue Monday — New Order") == true)
        #expect(try reprise(session, "browse", "Nowhere").status == 2)
    }

    @Test func aScanShowsItsProgress() throws {
        let session = try Session()
        defer { session.close() }
        let music = try session.makeHomeFolder("Music/Many")
        // Matroska, which TagLib has no reader for: each file goes to GStreamer's discoverer, slow enough (a few ms
        // a file) for the pass to be seen under way. (TagLib reads 3,000 WAV or FLAC files in a fraction of the
        // half second between progress announcements.)
        let template = session.home + "/tiny.mka"
        try generateTone(at: template, seconds: 1, tags: "title=Tiny,artist=Crowd,album=Thousands",
                         encoder: ["vorbisenc", "!", "matroskamux"])
        for index in 0..<3000 {
            link(template, music + String(format: "/%04d.mka", index))
        }
        try session.launch([])
        let tmux = try session.terminal([repriseBinary, "library"])
        #expect(session.waitFor(30) { tmux.text().contains(" of 3000 files") && tmux.text().contains("[=") }, "\(tmux.text())")
        // The bar gives way to the counts once the pass is over.
        #expect(session.waitFor(90) { tmux.text().contains("folders: ") && !tmux.text().contains("[=") }, "\(tmux.text())")
        #expect(waitForScan(session, tracks: 3000))
        let json = try reprise(session, "library", "--json")
        #expect(json.output.contains("\"scanned\":3000") && json.output.contains("\"toScan\":3000"), "\(json.output)")
    }

    @Test func theMediaServer2Tree() throws {
        let session = try Session()
        defer { session.close() }
        let music = try scannedMusicFolder(session)
        let name = "org.gnome.UPnP.MediaServer2.Reprise", root = "/org/gnome/UPnP/MediaServer2/Reprise"
        let container = "org.gnome.UPnP.MediaContainer2"
        #expect(session.nameHasOwner(name))
        func list(_ path: String, _ member: String = "ListChildren", offset: UInt32 = 0, max: UInt32 = 0,
                  filter: [String] = ["*"]) throws -> [[String: DBusValue]] {
            let reply = try session.bus.call(destination: name, path: path, interface: container, member: member,
                                             [.uint32(offset), .uint32(max), .strings(filter)])
            guard case .array(_, let items)? = reply.first else { return [] }
            return items.compactMap(\.dictionary)
        }
        func get(_ path: String, _ interface: String, _ property: String) throws -> DBusValue {
            try session.bus.getProperty(destination: name, path: path, interface: interface, name: property)
        }
        func names(_ children: [[String: DBusValue]]) -> [String] { children.compactMap { $0["DisplayName"]?.stringValue } }
        func path(_ children: [[String: DBusValue]], _ displayName: String) -> String? {
            guard case .objectPath(let path)? = children.first(where: { $0["DisplayName"]?.stringValue == displayName })?["Path"] else { return nil }
            return path
        }
        let top = try list(root)
        #expect(names(top) == ["Artists", "Albums", "Genres", "Folders", "Playlists"])
        #expect(try get(root, container, "ChildCount") == .uint32(5))
        #expect(try get(root, "org.gnome.UPnP.MediaObject2", "DisplayName") == .string("Reprise"))
        let artistsPath = try #require(path(top, "Artists"))
        let artists = try list(artistsPath)
        #expect(names(artists) == ["Björk", "Miles Davis", "New Order"])
        let bjorkPath = try #require(path(artists, "Björk"))
        let albums = try list(bjorkPath)
        #expect(names(albums) == ["Début"])
        let albumPath = try #require(path(albums, "Début"))
        #expect(try get(albumPath, container, "ItemCount") == .uint32(3))
        let tracks = try list(albumPath)
        #expect(names(tracks) == ["Human Behaviour", "Crying", "Venus as a Boy"])
        #expect(tracks.allSatisfy { $0["Type"] == .string("music") && $0["MIMEType"] == .string("audio/ogg") })
        let first = try #require(tracks.first)
        guard case .objectPath(let itemPath)? = first["Path"] else { Issue.record("no item path"); return }
        #expect(try get(itemPath, "org.gnome.UPnP.MediaItem2", "URLs").stringArray?.first?.hasSuffix("/1%20Human%20Behaviour.ogg") == true)
        #expect(try get(itemPath, "org.gnome.UPnP.MediaObject2", "Parent") == .objectPath(albumPath))
        #expect(names(try list(albumPath, offset: 1, max: 1)) == ["Crying"], "paging")
        #expect(try list(albumPath, "ListContainers").isEmpty)
        #expect(try list(root + "/Albums", "ListItems").isEmpty)
        let filtered = try list(albumPath, filter: ["DisplayName"])
        #expect(filtered.allSatisfy { Array($0.keys) == ["DisplayName"] })
        let albumsPath = try #require(path(top, "Albums"))
        let bluePath = try #require(path(try list(albumsPath), "Kind of Blue"))
        let blue = try list(bluePath)
        #expect(names(blue) == ["So What", "Freddie Freeloader"])
        #expect(session.dbusError { _ = try list(root + "/Nowhere") } != nil)

        // Folders: the music folder, its subfolders, and the tracks in each.
        let foldersPath = try #require(path(top, "Folders"))
        let roots = try list(foldersPath)
        #expect(names(roots) == [music])
        let musicPath = try #require(path(roots, music))
        let inMusic = try list(musicPath)
        #expect(names(inMusic) == ["Björk", "Miles Davis", "Singles"])
        let singlesPath = try #require(path(inMusic, "Singles"))
        let singles = try list(singlesPath)
        #expect(names(singles) == ["Blue Monday"])
        #expect(try get(singlesPath, "org.gnome.UPnP.MediaObject2", "Parent") == .objectPath(musicPath))
        #expect(try get(musicPath, container, "ContainerCount") == .uint32(3))

        // SearchObjects: UPnP criteria with MediaServer2's property names, anywhere below the container asked.
        func search(_ path: String, _ query: String, offset: UInt32 = 0, max: UInt32 = 0) throws -> [[String: DBusValue]] {
            let reply = try session.bus.call(destination: name, path: path, interface: container, member: "SearchObjects",
                                             [.string(query), .uint32(offset), .uint32(max), .strings(["*"])])
            guard case .array(_, let items)? = reply.first else { return [] }
            return items.compactMap(\.dictionary)
        }
        #expect(try get(root, container, "Searchable") == .bool(true))
        let davis = try search(root, #"Type derivedfrom "audio" and Artist contains "davis""#)
        #expect(names(davis) == ["So What", "Freddie Freeloader"], "\(davis)")
        guard case .objectPath(let foundPath)? = davis.first?["Path"] else { Issue.record("no path"); return }
        #expect(try get(foundPath, "org.gnome.UPnP.MediaObject2", "DisplayName") == .string("So What"))
        guard case .objectPath(let foundParent)? = davis.first?["Parent"] else { Issue.record("no parent"); return }
        #expect(try get(foundParent, "org.gnome.UPnP.MediaObject2", "DisplayName") == .string("Kind of Blue"), "its folder")
        let blueContainers = try search(root, #"Type = "container" and DisplayName contains "blue""#)
        // The album, the artist's album and the folder, breadth first.
        #expect(names(blueContainers) == ["Kind of Blue", "Kind of Blue", "Kind of Blue"], "\(names(blueContainers))")
        #expect(blueContainers.allSatisfy { $0["Type"] == .string("container") })
        #expect(names(try search(albumPath, #"DisplayName contains "cry""#)) == ["Crying"])
        #expect(try search(albumPath, #"DisplayName contains "cry""#).first?["Parent"] == .objectPath(albumPath))
        #expect(try search(root, #"Genre = "jazz" or (Genre = "Synth-pop" and TrackNumber = "1")"#).count == 3)
        #expect(try search(root, #"Type = "music""#, offset: 2, max: 2).count == 2)
        #expect(try search(root, #"Type = "music""#).count == 6)
        #expect(names(try search(root, #"Artist contains "BJÖRK" and DisplayName startsWith "hum""#)) == ["Human Behaviour"])
        #expect(try search(root, #"Genre != "Jazz" and Type = "music""#).count == 4)
        #expect(try search(root, #"Type = "container" and ChildCount > "2""#).allSatisfy { $0["Type"] == .string("container") })
        for bad in ["Artist", #"Artist like "x""#, #"(Type = "music""#] {
            #expect(session.dbusError { _ = try search(root, bad) }?.name == "org.freedesktop.DBus.Error.InvalidArgs", "\(bad)")
        }
    }

    @Test func changesWhileItRunsAreFollowed() throws {
        let session = try Session()
        defer { session.close() }
        let music = try scannedMusicFolder(session)
        func finds(_ words: String, _ text: String) -> Bool {
            session.waitFor(20) { (try? reprise(session, "search", words))?.output.contains(text) == true }
        }
        // A new album folder, written elsewhere and moved in (as a file manager does), and one copied in place.
        let staging = try session.makeFolder("staging/Aphex Twin/Drukqs")
        try Self.tagged(staging + "/1 Jynweythek.ogg", title: "Jynweythek", artist: "Aphex Twin", album: "Drukqs", number: 1, genre: "IDM")
        try FileManager.default.moveItem(atPath: session.directory + "/staging/Aphex Twin", toPath: music + "/Aphex Twin")
        #expect(finds("jynwey", "Jynweythek"))
        try FileManager.default.createDirectory(atPath: music + "/Aphex Twin/Selected", withIntermediateDirectories: true)
        try Self.tagged(music + "/Aphex Twin/Selected/1 Xtal.ogg", title: "Xtal", artist: "Aphex Twin", album: "Selected", number: 1, genre: "IDM")
        #expect(finds("xtal", "Xtal"))
        // A changed tag, a deleted file, a renamed folder.
        try Self.tagged(music + "/Singles/1 Blue Monday.ogg", title: "Blue Monday '88", artist: "New Order", album: "Singles", number: 1, genre: "Synth-pop")
        #expect(finds("88", "Blue Monday '88"))
        try FileManager.default.removeItem(atPath: music + "/Björk/Début/3 Venus as a Boy.ogg")
        #expect(finds("venus", "nothing found"))
        try FileManager.default.moveItem(atPath: music + "/Miles Davis", toPath: music + "/Davis, Miles")
        #expect(session.waitFor(20) {
            (try? runCommand(repriseBinary, ["search", "so", "what", "--json"], environment: session.environment))?.output
                .contains("Davis,%20Miles") == true
        })
        let moved = try reprise(session, "play", "--album", "kind of blue")
        #expect(moved.status == 0, "\(moved.errors)")
        #expect(session.waitFor { session.queuedURLs().first?.contains("Davis,%20Miles") == true || session.queuedURLs().first?.contains("Davis, Miles") == true },
                "\(session.queuedURLs())")
        #expect(session.waitFor { count(session) == 7 })
    }

    @Test func changesWhileItIsNotRunningAreCaughtUpAtTheNextStart() throws {
        let session = try Session()
        defer { session.close() }
        let music = try scannedMusicFolder(session)
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })

        // While it is not running: a new album, a changed tag, a deleted file, a renamed folder.
        try FileManager.default.createDirectory(atPath: music + "/Aphex Twin/Selected", withIntermediateDirectories: true)
        try Self.tagged(music + "/Aphex Twin/Selected/1 Xtal.ogg", title: "Xtal", artist: "Aphex Twin", album: "Selected", number: 1, genre: "IDM")
        try Self.tagged(music + "/Singles/1 Blue Monday.ogg", title: "Blue Monday '88", artist: "New Order", album: "Singles", number: 1, genre: "Synth-pop")
        try FileManager.default.removeItem(atPath: music + "/Björk/Début/3 Venus as a Boy.ogg")
        try FileManager.default.moveItem(atPath: music + "/Miles Davis", toPath: music + "/Davis, Miles")

        let pid = try session.launch([])
        #expect(session.waitFor(30) { session.log(of: pid).contains("library: 6 tracks") }, "\(session.log(of: pid))")
        // Only what changed was read again: the new file, the changed one, the two under the renamed folder.
        #expect(session.log(of: pid).contains("library: 6 tracks (4 read, 3 gone)"), "\(session.log(of: pid))")
        #expect(try reprise(session, "search", "xtal").output.contains("Xtal"))
        #expect(try reprise(session, "search", "88").output.contains("Blue Monday '88"))
        #expect(try reprise(session, "search", "venus").output.contains("nothing found"))
        let moved = try reprise(session, "search", "so", "what", "--json").output
        #expect(moved.contains("Davis,%20Miles") && !moved.contains("/Miles%20Davis/"), "\(moved)")
        let folders = try reprise(session, "browse", "Folders" + music).output
        #expect(folders.split(separator: "\n") == ["Aphex Twin/", "Björk/", "Davis, Miles/", "Singles/"], "\(folders)")
    }

    @Test func withNoMusicFolderTheLibraryStaysClosedUntilARescan() throws {
        let session = try Session()
        defer { session.close() }
        let home = session.home
        let pid = try session.launch([])
        #expect(session.waitFor { session.log(of: pid).contains("no index: not opened") }, "\(session.log(of: pid))")
        #expect(!FileManager.default.fileExists(atPath: home + "/.local/share/reprise/library.db"), "no database made for nothing")
        #expect(count(session) == 0)
        _ = try Self.musicFolder(in: home)
        #expect(try reprise(session, "library", "rescan").status == 0)
        #expect(waitForScan(session, tracks: 6))
        #expect(try reprise(session, "search", "bjork").output.contains("Björk"))
    }

    @Test func aDamagedDatabaseIsRebuiltAndAMissingDiskKeepsItsEntries() throws {
        let session = try Session()
        defer { session.close() }
        let home = session.home
        let music = try Self.musicFolder(in: home)
        let data = home + "/.local/share/reprise"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: data + "/library.db"))
        let pid = try session.launch([])
        #expect(waitForScan(session, tracks: 6))
        #expect(session.log(of: pid).contains("building the library again"), "\(session.log(of: pid))")

        // The disk goes away (the folder is not there at the next start): its entries stay, marked unavailable.
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })
        try FileManager.default.moveItem(atPath: music, toPath: home + "/Unplugged")
        try session.launch([])
        #expect(session.waitFor(30) { count(session, "Unavailable") == 6 })
        #expect(count(session) == 0)
        #expect(try reprise(session, "search", "bjork").output.contains("nothing found"))
        try FileManager.default.moveItem(atPath: home + "/Unplugged", toPath: music)
        #expect(try reprise(session, "library", "rescan").status == 0)
        #expect(waitForScan(session, tracks: 6))
        #expect(count(session, "Unavailable") == 0)
    }

    @Test func aFolderGivenForOneRunAndHostileQueries() throws {
        let session = try Session()
        defer { session.close() }
        let music = try Self.musicFolder(in: session.directory + "/elsewhere")
        try session.launch(["--library", music])
        #expect(waitForScan(session, tracks: 6))
        for query in ["\"", "NEAR(a b)", "title:so", "*", "a OR b", "'); DROP TABLE tracks; --", String(repeating: "x", count: 5000)] {
            let result = try session.call("Search", [.string(query), .uint32(10)], interface: Self.interface)
            #expect(result.count == 3, "\(query)")
        }
        #expect(count(session) == 6, "still whole")
        #expect(session.dbusError { try session.call("Play", [.string("mood"), .string("x"), .bool(false)], interface: Self.interface) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")
    }
}

/// Playlists in the library's browse tree: the playlist files (those of MPRIS Playlists) by name, their entries
/// with the index's tags where it knows the file, in `reprise browse`, the MediaServer2 tree and `play --playlist`.
@Suite(.serialized) struct LibraryPlaylistTests {
    func reprise(_ session: Session, _ arguments: String...) throws -> CommandResult {
        try runCommand(repriseBinary, arguments, environment: session.environment)
    }

    @Test func playlistsAreBrowsedListedAndPlayed() throws {
        let session = try Session()
        defer { session.close() }
        let home = session.home
        let music = try LibraryTests.musicFolder(in: home)
        let outside = session.directory + "/Outside Track.ogg"
        try LibraryTests.tagged(outside, title: "Not Indexed", artist: "Someone", album: "Elsewhere", number: 1, genre: "Pop")
        try FileManager.default.createDirectory(atPath: music + "/Playlists", withIntermediateDirectories: true)
        try "#EXTM3U\n../Singles/1 Blue Monday.ogg\n../Björk/Début/2 Crying.ogg\n\(outside)\nhttp://127.0.0.1:9/live/stream\n"
            .write(toFile: music + "/Playlists/Road Trip.m3u", atomically: true, encoding: .utf8)
        try "#EXTM3U\n#PLAYLIST:Late/Night\n../Miles Davis/Kind of Blue/1 So What.ogg\n"
            .write(toFile: music + "/Playlists/late.m3u", atomically: true, encoding: .utf8)
        try session.launch([])
        #expect(LibraryTests().waitForScan(session, tracks: 6))
        func lines(_ path: String) throws -> [String] {
            try reprise(session, "browse", path).output.split(separator: "\n").map(String.init)
        }

        // reprise browse: the top, the playlists by name, a playlist's entries (a name may hold a slash).
        #expect(try reprise(session, "browse").output.contains("Playlists/"))
        #expect(try lines("Playlists") == ["Late/Night/", "Road Trip/"])
        let trip = try lines("Playlists/road trip")
        #expect(trip.map { $0.components(separatedBy: "  ").first ?? "" }
                == ["Blue Monday — New Order", "Crying — Björk", "Outside Track", "stream"], "\(trip)")
        #expect(try lines("Playlists/Late/Night").first?.hasPrefix("So What — Miles Davis") == true)
        let json = try reprise(session, "browse", "Playlists/Road Trip", "--json")
        #expect(json.output.contains("http://127.0.0.1:9/live/stream"), "\(json.output)")
        #expect(try reprise(session, "browse", "Playlists/Nowhere").status != 0)

        // The MediaServer2 tree: Playlists at the top, each playlist a container of its entries.
        let name = "org.gnome.UPnP.MediaServer2.Reprise", root = "/org/gnome/UPnP/MediaServer2/Reprise"
        let container = "org.gnome.UPnP.MediaContainer2"
        func list(_ path: String) throws -> [[String: DBusValue]] {
            let reply = try session.bus.call(destination: name, path: path, interface: container, member: "ListChildren",
                                             [.uint32(0), .uint32(0), .strings(["*"])])
            guard case .array(_, let items)? = reply.first else { return [] }
            return items.compactMap(\.dictionary)
        }
        func child(_ children: [[String: DBusValue]], _ displayName: String) -> String? {
            guard case .objectPath(let path)? = children.first(where: { $0["DisplayName"]?.stringValue == displayName })?["Path"] else { return nil }
            return path
        }
        let top = try list(root)
        #expect(top.compactMap { $0["DisplayName"]?.stringValue } == ["Artists", "Albums", "Genres", "Folders", "Playlists"])
        let playlistsPath = try #require(child(top, "Playlists"))
        let playlists = try list(playlistsPath)
        #expect(playlists.compactMap { $0["DisplayName"]?.stringValue } == ["Late/Night", "Road Trip"])
        let tripPath = try #require(child(playlists, "Road Trip"))
        #expect(try session.bus.getProperty(destination: name, path: tripPath, interface: container, name: "ItemCount") == .uint32(4))
        let entries = try list(tripPath)
        #expect(entries.compactMap { $0["DisplayName"]?.stringValue } == ["Blue Monday", "Crying", "Outside Track", "stream"])
        #expect(entries.first?["Artist"] == .string("New Order") && entries.first?["Album"] == .string("Singles"))
        #expect(entries.last?["URLs"] == .strings(["http://127.0.0.1:9/live/stream"]) && entries.last?["Artist"] == .string(""))
        #expect(entries.allSatisfy { $0["Parent"] == .objectPath(tripPath) && $0["Type"] == .string("music") })

        // A playlist written while Reprise runs is in the tree when it is listed next.
        try "../Singles/1 Blue Monday.ogg\n".write(toFile: music + "/Playlists/Monday.m3u", atomically: true, encoding: .utf8)
        #expect(try list(playlistsPath).compactMap { $0["DisplayName"]?.stringValue } == ["Late/Night", "Monday", "Road Trip"])
        #expect(try lines("Playlists") == ["Late/Night/", "Monday/", "Road Trip/"])

        // Play and add by name; an unknown playlist is refused.
        let played = try reprise(session, "play", "--playlist", "Late/Night")
        #expect(played.status == 0 && played.output.contains("playing 1 track"), "\(played.output)\(played.errors)")
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "So What" })
        let added = try reprise(session, "add", "--playlist", "monday")
        #expect(added.output.contains("added 1 track"), "\(added.output)\(added.errors)")
        #expect(session.waitFor { session.queuedURLs().count == 2 })
        #expect(session.dbusError {
            try session.call("Tracks", [.string("playlist"), .string("Nowhere")], interface: LibraryTests.interface)
        }?.name == "org.freedesktop.DBus.Error.InvalidArgs")
    }
}
