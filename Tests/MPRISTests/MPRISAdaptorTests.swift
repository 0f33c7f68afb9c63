import BusInterfaces
import CoreTestDoubles
import MPRIS
import RepriseCore
import RepriseInterfaces
import SDBus
import SDBusTesting
import Testing

/// The four MPRIS interfaces, in-process: what a call does to the player, what a read returns, what is announced.
@Suite struct MPRISAdaptorTests {
    let root = InProcessAdaptor.root

    @Test func rootDescribesTheApplicationAndQuitsAfterAnswering() throws {
        let adaptor = try InProcessAdaptor()
        let values = try adaptor.bus.getAll(root, MPRIS.rootInterface)
        #expect(values["Identity"] == .string("Reprise") && values["DesktopEntry"] == .string("app.reprise.Reprise"))
        #expect(values["CanQuit"] == .bool(true) && values["HasTrackList"] == .bool(true))
        #expect(values["CanSetFullscreen"] == .bool(false) && values["Fullscreen"] == .bool(false)) // no video here
        #expect(values["SupportedMimeTypes"] == .strings(["audio/ogg"]))
        #expect(values["SupportedUriSchemes"]?.stringArray?.contains("file") == true)
        #expect(try adaptor.bus.call(root, MPRIS.rootInterface, "Quit") == [])
        #expect(adaptor.quits == 1)
        // The standard errors, from the generated export.
        #expect(throws: DBusError.readOnly("Identity")) { try adaptor.bus.set(root, MPRIS.rootInterface, "Identity", .string("x")) }
        #expect(throws: DBusError.unknownProperty("Colour")) { try adaptor.bus.get(root, MPRIS.rootInterface, "Colour") }
        // Setting Fullscreen without a video window has no effect, as the spec says.
        try adaptor.bus.set(root, MPRIS.rootInterface, "Fullscreen", .bool(true))
        #expect(try adaptor.bus.get(root, MPRIS.rootInterface, "Fullscreen") == .bool(false))
    }

    @Test func transportCallsDriveThePlayerAndAreAnnouncedOnce() throws {
        let adaptor = try InProcessAdaptor()
        let player = MPRIS.playerInterface
        #expect(try adaptor.bus.get(root, player, "PlaybackStatus") == .string("Stopped"))
        try adaptor.bus.call(root, player, "Play")
        adaptor.player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        #expect(adaptor.player.status == .playing)
        #expect(adaptor.engine.requests.last == .load(uri(1), playing: true))
        let changes = adaptor.bus.propertiesChanged(player)
        #expect(changes.first?["PlaybackStatus"] == .string("Playing"))
        #expect(changes.first?["Position"] == nil) // never announced
        adaptor.forget()
        try adaptor.bus.call(root, player, "Next")
        #expect(adaptor.engine.requests.last == .load(uri(2), playing: true))
        adaptor.player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        #expect(adaptor.bus.propertiesChanged(player).last?["Metadata"]?.dictionary?["xesam:url"] == .string(uri(2)))
        // Each handled event is one PropertiesChanged on the Player at most.
        #expect(adaptor.bus.propertiesChanged(player).count <= 2)
        try adaptor.bus.call(root, player, "Pause")
        #expect(adaptor.player.status == .paused)
        try adaptor.bus.call(root, player, "Seek", [.int64(5_000_000)])
        #expect(adaptor.signals(player, "Seeked").last == [.int64(5_000_000)])
        try adaptor.bus.call(root, player, "Stop")
        #expect(try adaptor.bus.get(root, player, "PlaybackStatus") == .string("Stopped"))
    }

    /// A pause or a volume step cannot change Metadata, so it is not read for them (the costliest property); a
    /// change of the entry's tags after them is announced as before.
    @Test func propertiesAChangeCannotTouchAreNotReadAgain() throws {
        let bus = LocalBus()
        let announcer = PropertyAnnouncer(bus: bus)
        var reads: [String: Int] = [:]
        var status = "Playing", title = "One"
        let description = InterfaceDescription(name: "x.Player", methods: [], properties: [
            .init("PlaybackStatus", "s", parts: ["transport"]), .init("Metadata", "a{sv}", parts: ["current", "queue"]),
        ], signals: [])
        announcer.watch(description, at: "/x") { name in
            reads[name, default: 0] += 1
            return name == "PlaybackStatus" ? .string(status) : .string(title)
        }
        status = "Paused"
        #expect(announcer.announce(.transport) == ["x.Player"])
        #expect(reads == ["PlaybackStatus": 2, "Metadata": 1])
        #expect(announcer.announcedValue("PlaybackStatus", of: "x.Player") == .string("Paused"))
        #expect(announcer.announce(.volume).isEmpty)
        #expect(reads == ["PlaybackStatus": 2, "Metadata": 1])
        title = "Two"
        #expect(announcer.announce(.queue) == ["x.Player"])
        #expect(reads == ["PlaybackStatus": 2, "Metadata": 2])
        #expect(announcer.announcedValue("Metadata", of: "x.Player") == .string("Two"))

        let adaptor = try InProcessAdaptor()
        let player = MPRIS.playerInterface
        try adaptor.bus.call(root, player, "Play")
        adaptor.player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        adaptor.forget()
        try adaptor.bus.call(root, player, "Pause")
        try adaptor.bus.set(root, player, "Volume", .double(0.5))
        #expect(adaptor.bus.propertiesChanged(player).allSatisfy { $0["Metadata"] == nil })
        adaptor.player.engineDidReadTags(TrackTags(title: "Retitled"))
        #expect(adaptor.bus.propertiesChanged(player).last?["Metadata"]?.dictionary?["xesam:title"] == .string("Retitled"))
    }

    @Test func propertiesAreCheckedAndTheirErrorsAreTheSpecsErrors() throws {
        let adaptor = try InProcessAdaptor()
        let player = MPRIS.playerInterface
        try adaptor.bus.set(root, player, "Volume", .double(0.5))
        #expect(adaptor.player.volume == 0.5 && adaptor.engine.requests.last == .volume(0.5))
        try adaptor.bus.set(root, player, "LoopStatus", .string("Track"))
        #expect(adaptor.player.loopStatus == .track)
        #expect(adaptor.bus.propertiesChanged(player).last?["LoopStatus"] == .string("Track"))
        #expect(throws: DBusError.self) { try adaptor.bus.set(root, player, "LoopStatus", .string("Sometimes")) }
        #expect(throws: DBusError.self) { try adaptor.bus.set(root, player, "Rate", .double(.nan)) }
        #expect(throws: DBusError.readOnly("CanPlay")) { try adaptor.bus.set(root, player, "CanPlay", .bool(false)) }
        // A value of the wrong type is refused before the handler sees it (sd-bus checks it the same way).
        #expect(throws: DBusError.self) { try adaptor.bus.set(root, player, "Volume", .string("loud")) }
        #expect(throws: DBusError.self) { try adaptor.bus.call(root, player, "Seek", [.int32(5)]) }
        // With nothing to pause, PlayPause is an error (the spec), the other calls only do nothing.
        let empty = try InProcessAdaptor(tracks: 0)
        #expect(throws: DBusError.notSupported("nothing to play or pause (CanPause is false)")) {
            try empty.bus.call(root, player, "PlayPause")
        }
        try empty.bus.call(root, player, "Next")
    }

    @Test func setPositionTakesTheCurrentTracksIdOnly() throws {
        let adaptor = try InProcessAdaptor()
        let player = MPRIS.playerInterface
        try adaptor.bus.call(root, player, "Play")
        adaptor.player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        let id = try #require(try adaptor.bus.get(root, player, "Metadata").dictionary?["mpris:trackid"])
        try adaptor.bus.call(root, player, "SetPosition", [id, .int64(2_000_000)])
        #expect(adaptor.engine.requests.last == .seek(2_000_000))
        try adaptor.bus.call(root, player, "SetPosition", [.objectPath(MPRIS.trackPath(forEntry: 999)), .int64(4_000_000)])
        #expect(adaptor.engine.requests.last == .seek(2_000_000)) // a stale id: ignored
    }

    @Test func openUriAnswersWhenThePlayerHasCarriedItOut() throws {
        let adaptor = try InProcessAdaptor(tracks: 0)
        let player = MPRIS.playerInterface
        var answer: Result<[DBusValue], DBusError>?
        adaptor.bus.call(root, player, "OpenUri", [.string("https://radio.example/live")]) { answer = $0 }
        #expect(answer == nil) // deferred: the stream has not started yet
        #expect(adaptor.player.queue.current?.uri == "https://radio.example/live")
        adaptor.player.engineDidPreroll(lengthMicroseconds: nil, seekable: false)
        #expect(try answer?.get() == [])
        let refused = try #require(adaptor.answer(root, player, "OpenUri", [.string("gopher://old.example/")]))
        #expect(refused.failure?.name == "org.freedesktop.DBus.Error.NotSupported")
    }

    /// Rygel's MPRIS plugin turns SetAVTransportURI into OpenUri and sends Play after it: from Rygel's connection the
    /// URI is loaded paused (a renderer's SetAVTransportURI does not play; Rygel allows Play from PAUSED_PLAYBACK,
    /// not from PLAYING), it ends stopped and leaves the queue, and the next push takes its place; the queue is the user's.
    @Test func openUriFromTheRendererBridgeLoadsPausedAndEndsStopped() throws {
        let adaptor = try InProcessAdaptor(tracks: 3)
        let player = MPRIS.playerInterface
        adaptor.bus.otherOwners["org.gnome.Rygel1"] = ":1.rygel"
        // The media server's name looked up as one on the network (the rules refuse this machine's own addresses).
        adaptor.player.rendererPushRules = RendererPushRules(musicFolders: []) { _ in [[192, 0, 2, 5]] }
        try adaptor.bus.call(root, player, "Play")
        adaptor.player.engineDidPreroll(lengthMicroseconds: 60_000_000, seekable: true)
        let queued = adaptor.player.queue.uris
        var answer: Result<[DBusValue], DBusError>?
        adaptor.bus.call(root, player, "OpenUri", [.string("http://127.0.0.1:8200/a.flac")], sender: ":1.rygel") { answer = $0 }
        #expect(adaptor.engine.requests.last == .load("http://127.0.0.1:8200/a.flac", playing: false))
        #expect(try adaptor.bus.get(root, player, "PlaybackStatus") == .string("Paused"))
        adaptor.player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        #expect(try answer?.get() == [])
        try adaptor.bus.call(root, player, "Play")
        #expect(adaptor.engine.requests.last == .resume)
        #expect(adaptor.engine.preparedNext == nil) // no gapless hand-over into the queue either
        adaptor.player.engineDidReachEnd()
        #expect(try adaptor.bus.get(root, player, "PlaybackStatus") == .string("Stopped"))
        // The pushed entry was a guest: it leaves the queue, and the user's entry is current again, not loaded.
        #expect(adaptor.player.queue.uris == queued && adaptor.player.queue.current?.uri == queued.first)
        #expect(adaptor.engine.loads.last == "http://127.0.0.1:8200/a.flac") // nothing of the queue loaded after it

        adaptor.bus.call(root, player, "OpenUri", [.string("http://127.0.0.1:8200/b.flac")], sender: ":1.rygel") { answer = $0 }
        adaptor.player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        #expect(adaptor.player.queue.uris.filter { !queued.contains($0) } == ["http://127.0.0.1:8200/b.flac"])
        #expect(try adaptor.bus.get(root, player, "PlaybackStatus") == .string("Paused"))

        // Anyone else's OpenUri plays at once, as MPRIS says, and what follows it plays on.
        adaptor.bus.call(root, player, "OpenUri", [.string("http://127.0.0.1:8200/c.flac")], sender: ":1.widget") { answer = $0 }
        #expect(adaptor.engine.requests.last == .load("http://127.0.0.1:8200/c.flac", playing: true))
        adaptor.player.engineDidPreroll(lengthMicroseconds: 5_000_000, seekable: true)
        adaptor.player.engineDidReachEnd()
        #expect(try adaptor.bus.get(root, player, "PlaybackStatus") == .string("Playing"))
    }

    @Test func theTrackListEditsTheQueueAndSignalsEachChange() throws {
        let adaptor = try InProcessAdaptor()
        let trackList = MPRIS.trackListInterface
        let ids = try #require(try adaptor.bus.get(root, trackList, "Tracks").stringArray)
        #expect(ids.count == 3 && ids.allSatisfy { $0.hasPrefix(MPRIS.trackPathPrefix) })
        let metadata = try adaptor.bus.call(root, trackList, "GetTracksMetadata", [.objectPaths([ids[1], "/not/ours"])])
        guard case .array(_, let items)? = metadata.first else { Issue.record("no metadata"); return }
        #expect(items.count == 1 && items.first?.dictionary?["xesam:url"] == .string(uri(2)))
        let added = try #require(adaptor.answer(root, trackList, "AddTrack", [.string("https://radio.example/a"), .objectPath(ids[0]), .bool(false)]))
        #expect(try added.get() == [])
        #expect(adaptor.player.queue.entries.map(\.uri) == [uri(1), "https://radio.example/a", uri(2), uri(3)])
        #expect(adaptor.signals(trackList, "TrackAdded").last?.last == .objectPath(ids[0]))
        let badAfter = try #require(adaptor.answer(root, trackList, "AddTrack", [.string("https://radio.example/b"), .objectPath("/x/y"), .bool(false)]))
        #expect(badAfter.failure?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        try adaptor.bus.call(root, trackList, "RemoveTrack", [.objectPath(ids[2])])
        #expect(adaptor.signals(trackList, "TrackRemoved").last == [.objectPath(ids[2])])
        try adaptor.bus.call(root, trackList, "GoTo", [.objectPath(ids[1])])
        #expect(adaptor.engine.requests.last == .load(uri(2), playing: true))
        // Tracks is announced by invalidation: the signal names it without a value.
        let invalidated = adaptor.bus.emitted.filter { $0.member == "PropertiesChanged" && $0.arguments.first == .string(trackList) }
        #expect(invalidated.last?.arguments.last == .strings(["Tracks"]))
    }

    @Test func playlistsAreListedAndActivated() throws {
        let adaptor = try InProcessAdaptor(tracks: 0)
        let song = try adaptor.file("Music/song.ogg")
        try adaptor.file("Playlists/Evening.m3u", "#EXTM3U\n\(song)\n")
        let playlists = MPRIS.playlistsInterface
        #expect(try adaptor.bus.get(root, playlists, "PlaylistCount") == .uint32(1))
        #expect(try adaptor.bus.get(root, playlists, "Orderings").stringArray?.contains("Alphabetical") == true)
        let page = try adaptor.bus.call(root, playlists, "GetPlaylists", [.uint32(0), .uint32(10), .string("Alphabetical"), .bool(false)])
        guard case .array(_, let items)? = page.first, case .structure(let fields)? = items.first else { Issue.record("no playlists"); return }
        #expect(fields[1] == .string("Evening"))
        #expect(throws: DBusError.self) {
            try adaptor.bus.call(root, playlists, "GetPlaylists", [.uint32(0), .uint32(10), .string("Loudest"), .bool(false)])
        }
        let activated = try #require(adaptor.answer(root, playlists, "ActivatePlaylist", [fields[0]]))
        #expect(try activated.get() == [])
        #expect(adaptor.player.queue.entries.map(\.uri) == [MediaURI.file(path: song)])
        guard case .structure(let active) = try adaptor.bus.get(root, playlists, "ActivePlaylist") else { Issue.record("no active"); return }
        #expect(active.first == .bool(true))
        let unknown = try #require(adaptor.answer(root, playlists, "ActivatePlaylist", [.objectPath(MPRIS.playlistPathPrefix + "nothing")]))
        #expect(unknown.failure?.name == "org.freedesktop.DBus.Error.InvalidArgs")
    }
}

/// Every property announced with its value names, in `dbus/*.xml`, the parts of the state it follows, each a part
/// the core knows: one left out would be read after every change, one misspelt never.
@Suite struct AnnouncedPropertyPartsTests {
    @Test(arguments: [
        MPRIS.player, Sound1Export.description, Chapters1Export.description, Lyrics1Export.description,
        Sleep1Export.description, Controls1Export.description, Video1Export.description, Library1Export.description,
        Scrobble1Export.description, AudioSession1Export.description,
    ].map { ($0.name, $0) })
    func everyAnnouncedPropertyFollowsKnownParts(_ name: String, _ interface: InterfaceDescription) {
        for property in interface.properties where property.emits == .change {
            #expect(!property.parts.isEmpty, "\(name).\(property.name) names no parts")
            #expect(ChangeAspects(named: property.parts) != nil, "\(name).\(property.name): \(property.parts)")
        }
    }
}
