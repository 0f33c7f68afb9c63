import Foundation
import Glibc
import Testing
import TestSupport

/// A real control session, replayed: what a Snapcast control client (Home Assistant's integration, Snapcast's apps)
/// sent to snapserver 0.26 about a stream whose plugin is snapserver's own `meta_mpd.py` in front of Debian's mpd,
/// and what snapserver answered, recorded through `scripts/snapcast/record.py` (the client: `scripts/snapcast/scenario.py`)
/// and kept in SnapcastTranscripts/. It is replayed against that reference again and against snapserver with
/// `reprise-snapcast` in front of Reprise, each on the same queue, and every answer is compared
/// (`scripts/snapcast/compare.py`): README's Snapcast deviations are the only differences allowed.
/// `SNAPCAST_RECORD=1` records the transcript anew (on the reference) instead of replaying it.
@Suite(.serialized) struct SnapcastTranscriptTests {
    static let tools = packageRoot.appendingPathComponent("scripts/snapcast").path
    static let transcript = packageRoot.appendingPathComponent("Tests/IntegrationTests/SnapcastTranscripts/control.transcript").path

    @Test func aRecordedControlSessionReplaysAsWithMetaMPDAndDebiansMPD() throws {
        let (session, namespace) = try Session.inNetworkNamespace()
        defer { namespace.stop(); session.close() }
        let music = MPDTranscriptTests.musicFolder
        try MPDTests.configure(session, library: music)
        let reprise = try session.launch([])
        #expect(session.waitFor(60) { MPDDifferentialTests.songs(try? MPDTests.mpc(session, "stats").output) == MPDTranscriptTests.songCount },
                "\(session.log(of: reprise))")

        // Debian's mpd on the same music, where meta_mpd.py looks for it: 127.0.0.1:6600 in the namespace.
        let mpdDirectory = try session.makeFolder("mpd")
        try session.makeFolder("mpd/playlists")
        let config = try runCommand(MPDTranscriptTests.tools + "/mpd-config.sh", [music, mpdDirectory])
        try (config.output + "bind_to_address \"127.0.0.1\"\nport \"6600\"\n").write(toFile: mpdDirectory + "/mpd.conf", atomically: true, encoding: .utf8)
        try namespace.entered { try session.start("/usr/bin/mpd", ["--no-daemon", mpdDirectory + "/mpd.conf"], logName: "mpd") }
        let mpdSocket = mpdDirectory + "/socket"
        func mpc(_ socket: String) -> ([String]) throws -> CommandResult {
            { try runCommand("mpc", ["-h", socket] + $0, environment: session.environment) }
        }
        let mpd = mpc(mpdSocket), ownMPD = mpc(MPDTests.socket(session))
        #expect(session.waitFor(60) { MPDDifferentialTests.songs(try? mpd(["stats"]).output) == MPDTranscriptTests.songCount },
                "\(session.output(ofLog: "mpd"))")

        // The same queue and settings in both.
        let queue = ["Björk/Début/01 Human Behaviour.ogg", "Björk/Début/02 Crying.ogg", "Björk/Début/03 Venus as a Boy.ogg"]
        for run in [mpd, ownMPD] {
            for song in queue {
                let added = try run(["add", song])
                #expect(added.status == 0, "\(added.errors)")
            }
            for setting in [["volume", "80"], ["repeat", "off"], ["random", "off"], ["single", "off"]] {
                #expect(try run(setting).status == 0)
            }
        }

        // The two snapservers, one stream "Reprise" each, their plugins connected.
        let reference = try PrivateSnapserver(session: session, namespace: namespace, name: "snapserver-reference", streamPort: 1704,
                                              controlPort: 1705, plugin: "/usr/share/snapserver/plug-ins/meta_mpd.py",
                                              environment: ["PATH": "/usr/bin:/bin"])
        let ours = try PrivateSnapserver(session: session, namespace: namespace, name: "snapserver-reprise", streamPort: 1714,
                                         controlPort: 1715, environment: ["MPD_HOST": MPDTests.socket(session)])
        for server in [reference, ours] {
            #expect(session.waitFor(30) { (try? server.properties())?["volume"] as? Int == 80 },
                    "\((try? server.properties()) ?? [:]) \(session.output(ofLog: "snapserver-reference"))")
        }

        if ProcessInfo.processInfo.environment["SNAPCAST_RECORD"] == "1" {
            let recorder = try namespace.entered {
                try session.start("/usr/bin/python3", [Self.tools + "/record.py", "1725", "1705", Self.transcript], logName: "recorder")
            }
            usleep(500_000)
            let scenario = try namespace.entered { try runCommand("/usr/bin/python3", [Self.tools + "/scenario.py", "1725"]) }
            #expect(scenario.status == 0, "\(scenario.errors)")
            kill(recorder, SIGTERM)
            return // recorded: the reference's state has moved on; the next run replays from the start
        }

        var replays: [String] = []
        for (name, server) in [("reference", reference), ("reprise", ours)] {
            let replay = session.directory + "/\(name).replay"
            let replayed = try namespace.entered {
                try runCommand("/usr/bin/python3", [Self.tools + "/replay.py", Self.transcript, String(server.controlPort), replay])
            }
            #expect(replayed.status == 0, "\(name): \(replayed.errors)")
            replays.append(replay)
        }
        let compared = try runCommand("/usr/bin/python3", [Self.tools + "/compare.py", replays[0], replays[1],
                                                           packageRoot.appendingPathComponent("README.md").path])
        #expect(compared.status == 0, "answers differ from the reference's\n\(compared.output)\(compared.errors)")
    }
}
