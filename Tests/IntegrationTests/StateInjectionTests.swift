import Foundation
import Glibc
import SDBus
import Testing
import TestSupport

/// The saved state is data, never a way in: URIs with control characters are refused at the door, the state
/// round-trips every URI Reprise accepts, and a state file is checked entry by entry like a client's URIs.
@Suite(.serialized) struct StateInjectionTests {
    static let trackList = "org.mpris.MediaPlayer2.TrackList"
    static let noTrack = DBusValue.objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")

    @Test func urisWithControlCharactersAreRefusedAtTheDoor() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([media.first]) { session.status() == "Playing" }
        let injected = TestMedia.uri(media.second) + "\nentry appsrc://\nentry fd://0"
        for uri in [injected, TestMedia.uri(media.second) + "\t", "http://host/a\u{1B}]0;x\u{07}", "http://host/\u{85}",
                    "http://host/" + String(repeating: "a", count: 20_000)] {
            let add = session.dbusError { try session.call("AddTrack", [.string(uri), Self.noTrack, .bool(false)], interface: Self.trackList) }
            #expect(add?.name == "org.freedesktop.DBus.Error.InvalidArgs", "AddTrack \(uri.debugDescription): \(String(describing: add))")
            let open = session.dbusError { try session.call("OpenUri", [.string(uri)]) }
            #expect(open != nil, "OpenUri \(uri.debugDescription)")
        }
        // An XSPF entry whose location carries a newline as a character reference is left out; the rest is queued.
        let playlist = session.directory + "/injected.xspf"
        try """
            <?xml version="1.0"?><playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
            <track><location>\(TestMedia.uri(media.second))&#10;entry appsrc://</location></track>
            <track><location>\(TestMedia.uri(media.third))</location></track>
            </trackList></playlist>
            """.write(toFile: playlist, atomically: true, encoding: .utf8)
        try session.call("AddTrack", [.string(TestMedia.uri(playlist)), Self.noTrack, .bool(false)], interface: Self.trackList)
        #expect(session.waitFor { session.queuedURLs().count == 2 })
        #expect(session.queuedURLs() == [TestMedia.uri(media.third), TestMedia.uri(media.first)]) // NoTrack: at the start
        let state = session.home + "/.local/state/reprise/state"
        #expect(session.waitFor { ((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").contains("third") })
        #expect(!((try? String(contentsOfFile: state, encoding: .utf8)) ?? "").contains("appsrc"))
    }

    @Test func aStateFileIsCheckedEntryByEntryLikeAClientsURIs() throws {
        let session = try Session()
        defer { session.close() }
        let directory = try session.makeHomeFolder(".local/state/reprise")
        let fifo = session.directory + "/pipe.ogg"
        mkfifo(fifo, 0o600)
        // As if written by hand (or by a Reprise that let them in): between two good entries, what no client could queue.
        try """
            reprise-state 2
            current 6
            entry \(TestMedia.uri(media.first))
            entry appsrc://
            entry fd://0
            entry udp://0.0.0.0:5004
            entry \(TestMedia.uri(fifo))
            entry file:///dev/zero
            entry \(TestMedia.uri(media.second))
            entry http://host/bad\\x1b]0;x
            end

            """.write(toFile: directory + "/state", atomically: true, encoding: .utf8)
        let service = try session.launch([])
        #expect(session.waitFor { session.queuedURLs().count == 2 }, "\(session.queuedURLs()) \(session.log(of: service))")
        #expect(session.queuedURLs() == [TestMedia.uri(media.first), TestMedia.uri(media.second)])
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(session.log(of: service).contains("left 6 saved entries out"))
    }

    @Test func aStateReprisWroteAlwaysRestores() throws {
        let session = try Session()
        defer { session.close() }
        // A raw space is allowed in a network URI (and a file name may hold any byte): all of it must come back.
        let odd = session.directory + "/tab\tesc\u{1B}new\nline.ogg"
        try FileManager.default.copyItem(atPath: media.first, toPath: odd)
        let service = try session.launch([odd, media.second]) { session.status() == "Playing" }
        try session.call("AddTrack", [.string("http://127.0.0.1:9/a b c.ogg"), Self.noTrack, .bool(false)], interface: Self.trackList)
        #expect(session.waitFor { session.queuedURLs().count == 3 })
        let before = session.queuedURLs()
        kill(service, SIGTERM)
        _ = session.waitForExit(service)
        let again = try session.launch([])
        #expect(session.waitFor { session.queuedURLs().count == 3 }, "\(session.log(of: again))")
        #expect(session.queuedURLs() == before)
        #expect(!session.log(of: again).contains("unreadable saved state") && !session.log(of: again).contains("saved entries out"))
    }
}
