import Foundation
import TestSupport
import SDBus
import Testing

/// The service's life on the bus: root interface, names, OpenUri, broken media and shutting down.
@Suite(.serialized) struct ServiceTests {
    static let root = "org.mpris.MediaPlayer2"

    @Test func rootInterfaceDescribesReprise() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([])
        #expect(try session.get("Identity", interface: Self.root) == .string("Reprise"))
        #expect(try session.get("DesktopEntry", interface: Self.root) == .string("reprise"))
        #expect(try session.get("CanQuit", interface: Self.root) == .bool(true))
        #expect(try session.get("CanRaise", interface: Self.root) == .bool(false))
        #expect(try session.get("HasTrackList", interface: Self.root) == .bool(true))
        #expect(try session.get("SupportedUriSchemes", interface: Self.root) == .strings(["file", "http", "https"]))
        let mimeTypes = try #require(try session.get("SupportedMimeTypes", interface: Self.root).stringArray)
        for expected in ["audio/flac", "audio/x-vorbis+ogg", "audio/x-opus+ogg", "application/ogg", "audio/x-wav", "audio/ogg",
                         "audio/mpeg", "video/webm"] {
            #expect(mimeTypes.contains(expected), "\(expected) missing from \(mimeTypes)")
        }
        // Every name is one shared-mime-info registers, canonical or an alias (the spellings servers send, which
        // Rygel's renderer matches exactly); none only GStreamer's caps name.
        let canonical = try String(contentsOfFile: "/usr/share/mime/types", encoding: .utf8).split(separator: "\n").map(String.init)
        let aliases = try String(contentsOfFile: "/usr/share/mime/aliases", encoding: .utf8).split(separator: "\n")
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        let registered = Set(canonical + aliases)
        for type in mimeTypes { #expect(registered.contains(type), "\(type) is not a registered MIME type") }
        // …and valid as RFC 6838 writes them, under a registered top-level type (shared-mime-info also lists aliases
        // such as flv-application/octet-stream, which KDE's MPRIS checker refuses).
        let grammar = /(application|audio|font|haptics|image|message|model|multipart|text|video)\/[A-Za-z0-9][A-Za-z0-9!#$&\-^_.+]{0,126}/
        for type in mimeTypes { #expect(type.wholeMatch(of: grammar) != nil, "\(type) is not a valid MIME type") }
        #expect(!mimeTypes.contains("flv-application/octet-stream"))
        for alias in ["audio/x-flac", "audio/wav", "audio/x-m4a", "audio/mp3"] {
            #expect(mimeTypes.contains(alias), "\(alias) missing from \(mimeTypes)")
        }
        #expect(!mimeTypes.contains("application/kate") && !mimeTypes.contains("application/x-id3"))
        #expect(try session.get("CanControl") == .bool(true))
        try session.call("Raise", interface: Self.root)
        let introspection = try session.call("Introspect", interface: "org.freedesktop.DBus.Introspectable")
        let xml = introspection.first?.stringValue ?? ""
        #expect(xml.contains("<property name=\"Position\" type=\"x\" access=\"read\">"))
        #expect(xml.contains("name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\""))
    }

    @Test func openUriPlaysAtOnceAndRejectsWhatItCannotPlay() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first, media.second]) { session.title() == "First Light" }
        try session.call("OpenUri", [.string(TestMedia.uri(media.third))])
        #expect(session.title() == "Third Time") // the reply comes once the stream is ready
        #expect(session.status() == "Playing")
        // It joined the queue right after the entry it interrupted.
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Second Wind" })

        func failure(_ uri: String) -> DBusError? { session.dbusError { try session.call("OpenUri", [.string(uri)]) } }
        #expect(failure("ftp://example.org/song.ogg")?.name == "org.freedesktop.DBus.Error.NotSupported")
        #expect(failure(TestMedia.uri(session.directory + "/missing.ogg"))?.message.contains("no such file") == true)
        #expect(failure("just some words")?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(failure(TestMedia.uri(media.corrupt)) != nil)
        #expect(failure(TestMedia.uri(media.notMedia)) != nil)
        // None of that disturbed playback: the interrupted track plays on from where it was.
        #expect(session.waitFor { session.status() == "Playing" })
        #expect(session.title() == "Second Wind")
        #expect(session.waitFor { (session.position() ?? 0) > 300_000 })
        #expect(try session.playerctl("-p", "reprise", "open", TestMedia.uri(media.first)).status == 0)
        #expect(session.waitFor { session.title() == "First Light" })
    }

    @Test func brokenFilesInTheListAreSkipped() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.short, media.corrupt, media.notMedia, session.directory + "/gone.ogg",
                                          media.second])
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(session.status() == "Playing")
        let log = session.log(of: reprise)
        #expect(log.contains("corrupt.ogg"))
        #expect(log.contains("notes.mp3"))
        #expect(log.contains("gone.ogg"))
    }

    @Test func aListOfOnlyBrokenFilesStops() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.corrupt, media.notMedia])
        #expect(session.waitFor { session.log(of: reprise).contains("nothing in the queue can be played") })
        #expect(session.status() == "Stopped")
        #expect(session.isRunning(reprise))
    }

    @Test func quitReleasesTheNameAndExitsCleanly() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.first])
        try session.call("Quit", interface: Self.root)
        #expect(session.waitForExit(reprise) == 0)
        #expect(!session.nameHasOwner(Session.name))
    }

    @Test func sigtermAndSigintReleaseTheNameAndExitCleanly() throws {
        let session = try Session()
        defer { session.close() }
        for signal in [SIGTERM, SIGINT] {
            let reprise = try session.launch([media.first]) { session.status() == "Playing" }
            kill(reprise, signal)
            #expect(session.waitForExit(reprise) == 0)
            #expect(!session.nameHasOwner(Session.name))
        }
    }

    @Test func aRestartAfterKill9RestoresTheQueuePausedAtItsPosition() throws {
        let session = try Session()
        defer { session.close() }
        let first = try session.launch([media.first, media.second, media.third]) { session.title() == "First Light" }
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Second Wind" })
        try session.playerctl("-p", "reprise", "loop", "Playlist")
        try session.playerctl("-p", "reprise", "volume", "0.5")
        try session.call("Pause")
        let trackID = try #require(session.metadata()["mpris:trackid"])
        try session.call("SetPosition", [trackID, .int64(12_000_000)])
        let stateFile = session.home + "/.local/state/reprise/state"
        #expect(session.waitFor {
            ((try? String(contentsOfFile: stateFile, encoding: .utf8)) ?? "").contains("position 12000000")
        })
        kill(first, SIGKILL)
        _ = session.waitForExit(first)
        #expect(session.waitFor { !session.nameHasOwner(Session.name) })

        let second = try session.launch([]) { session.title() == "Second Wind" }
        #expect(session.status() == "Paused")
        #expect(session.waitFor { session.position() == 12_000_000 })
        #expect(try session.get("LoopStatus") == .string("Playlist"))
        #expect(try session.get("Volume") == .double(0.5))
        #expect(try session.get("CanGoPrevious") == .bool(true))
        try session.call("Next")
        #expect(session.waitFor { session.title() == "Third Time" })
        #expect(session.log(of: second).contains("restoring 3 queued"))
    }

    @Test func aCorruptStateFileIsMovedAsideNotTrusted() throws {
        let session = try Session()
        defer { session.close() }
        let directory = try session.makeHomeFolder(".local/state/reprise")
        try Data("reprise-state 1\ncurrent 7\nentry file:///x.ogg\n".utf8).write(to: URL(fileURLWithPath: directory + "/state"))
        let reprise = try session.launch([])
        #expect(session.status() == "Stopped")
        #expect(try session.get("Metadata") == .vardict([]))
        #expect(FileManager.default.fileExists(atPath: directory + "/state.corrupt"))
        #expect(session.log(of: reprise).contains("ignoring unreadable saved state"))
    }

    @Test func losingTheBusEndsTheService() throws {
        let session = try Session()
        defer { session.close() }
        let reprise = try session.launch([media.first]) { session.status() == "Playing" }
        try session.set("Shuffle", .bool(true))
        session.killBus()
        #expect(session.waitForExit(reprise) == 1)
        #expect(session.log(of: reprise).contains("lost the session bus"))
        // It saved on the way out, so systemd's restart finds everything.
        let state = try String(contentsOfFile: session.home + "/.local/state/reprise/state", encoding: .utf8)
        #expect(state.contains("shuffle 1") && state.hasSuffix("end\n"), "\(state)")
    }

    @Test func aSecondInstanceTakesItsOwnName() throws {
        let session = try Session()
        defer { session.close() }
        let first = try session.launch([media.first])
        let secondName = "org.mpris.MediaPlayer2.reprise.instance"
        let second = try session.launch(["--new-instance", media.second], waitingFor: nil)
        let instanceName = secondName + String(second)
        #expect(session.waitFor { session.nameHasOwner(instanceName) })
        #expect(session.waitFor { (try? session.get("Metadata", on: instanceName))?.dictionary?["xesam:title"] == .string("Second Wind") })
        #expect(session.title() == "First Light")
        let players = try session.playerctl("-l").output.split(separator: "\n").map(String.init)
        #expect(Set(players) == ["reprise", "reprise.instance\(second)"])
        try session.call("Quit", interface: Self.root, on: instanceName)
        #expect(session.waitForExit(second) == 0)
        #expect(session.nameHasOwner(Session.name))
        #expect(session.isRunning(first))
    }
}
