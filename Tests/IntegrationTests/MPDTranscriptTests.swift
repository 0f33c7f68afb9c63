import Foundation
import Glibc
import Testing
import TestSupport

/// Real clients' own traffic, replayed: each transcript in MPDTranscripts/ is what a real client (mpc, python-mpd2 as
/// Home Assistant drives it, ncmpcpp in tmux…) sent to Debian's mpd while doing what its users do, and what mpd
/// answered (recorded through `scripts/mpd/record.py` by `scripts/mpd/record-transcripts.sh`). Each is replayed
/// against a fresh mpd and a fresh Reprise on the music folder it was recorded on — connections, idle and all, in
/// the recorded order — and every reply is compared (`scripts/mpd/compare.py`): the deviations README lists are the
/// only differences allowed.
@Suite(.serialized) struct MPDTranscriptTests {
    static let tools = packageRoot.appendingPathComponent("scripts/mpd").path
    static let transcripts = packageRoot.appendingPathComponent("Tests/IntegrationTests/MPDTranscripts").path

    /// The music folder the transcripts were recorded on, made once for the whole run (both servers only read it).
    static let musicFolder: String = {
        let folder = NSTemporaryDirectory() + "reprise-mpd-library-\(getpid())/Music"
        let made = try? runCommand(packageRoot.appendingPathComponent("scripts/mpd-test-library.sh").path, [folder])
        precondition(made?.status == 0, "could not make the music folder: \(made?.errors ?? "")")
        return folder
    }()

    /// The songs of the music folder as both servers count them.
    static let songCount = 11

    /// Reprise and Debian's mpd on the recorded music folder, each with an empty queue, both scanned; mpd's socket.
    static func startServers(_ session: Session) throws -> String {
        let music = Self.musicFolder
        try MPDTests.configure(session, library: music)
        try session.launch([])
        #expect(session.waitFor(60) { MPDDifferentialTests.songs(try? MPDTests.mpc(session, "stats").output) == Self.songCount },
                "\(String(describing: try? MPDTests.mpc(session, "stats").output))")
        return try startReferenceMPD(session, music: music, songCount: Self.songCount)
    }

    /// Debian's mpd on `music` (the reference config: a socket, a null output), once it counts `songCount` songs;
    /// its socket.
    static func startReferenceMPD(_ session: Session, music: String, songCount: Int) throws -> String {
        let mpdDirectory = try session.makeFolder("mpd")
        try session.makeFolder("mpd/playlists")
        let config = try runCommand(Self.tools + "/mpd-config.sh", [music, mpdDirectory])
        try config.output.write(toFile: mpdDirectory + "/mpd.conf", atomically: true, encoding: .utf8)
        try session.start("/usr/bin/mpd", ["--no-daemon", mpdDirectory + "/mpd.conf"], logName: "mpd")
        let mpdSocket = mpdDirectory + "/socket"
        #expect(session.waitFor(60) {
            MPDDifferentialTests.songs(try? runCommand("mpc", ["-h", mpdSocket, "stats"], environment: session.environment).output)
                == songCount
        }, "\(session.output(ofLog: "mpd"))")
        return mpdSocket
    }

    /// Every recorded transcript, by client.
    static let clients: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: transcripts)) ?? [])
        .filter { $0.hasSuffix(".transcript") }.map { String($0.dropLast(".transcript".count)) }.sorted()

    @Test func theClientsUsersRunAreRecorded() {
        #expect(Set(["mpc", "python-mpd2", "ncmpcpp", "cantata", "mpdscribble", "mpdris2", "messages", "python-mpd2-asyncio", "python-mpd2-edges", "mpdtoys", "mpd-sima", "python-mpd2-stream-tags", "python-mpd2-kill", "python-mpd2-comments", "python-mpd2-fingerprint"]).isSubset(of: Set(Self.clients)), "\(Self.clients)")
    }

    @Test(arguments: clients)
    func replaysAsDebiansMPD(_ client: String) throws {
        let transcript = Self.transcripts + "/\(client).transcript"
        let session = try Session()
        defer { session.close() }
        let mpdSocket = try Self.startServers(session)
        var replays: [String] = []
        for (name, socket) in [("mpd", mpdSocket), ("reprise", MPDTests.socket(session))] {
            let replay = session.directory + "/\(client).\(name).replay"
            // Debian's mpd often never answers a getfingerprint (https://github.com/MusicPlayerDaemon/MPD/issues/2286):
            // its replay takes the recorded answer then. Reprise's must answer.
            let leave = name == "mpd" ? ["--unanswered-getfingerprint"] : []
            let replayed = try runCommand("/usr/bin/python3", [Self.tools + "/replay.py", transcript, socket, replay] + leave,
                                          environment: session.environment)
            #expect(replayed.status == 0, "\(replayed.errors)")
            replays.append(replay)
        }
        let compared = try runCommand("/usr/bin/python3", [Self.tools + "/compare.py", replays[0], replays[1],
                                                           packageRoot.appendingPathComponent("README.md").path])
        #expect(compared.status == 0, "\(client): replies differ from mpd's\n\(compared.output)\(compared.errors)")
    }
}
