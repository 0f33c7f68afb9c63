import Foundation
import Glibc
import TestSupport

/// The MPD protocol served by Reprise beside MPD's own, on the same library (section 11, after its other figures,
/// with the server playing one file on a loop): what MPD clients do most. `mpc status` and `mpc toggle` exec → exit
/// are taken apart, both servers running and playing, in turn (``pairedCommandLineFigures(ours:oursSocket:theirs:theirsSocket:)``);
/// in-process over the socket, `listallinfo`, `list album group albumartist` and `search any` (the whole reply
/// read); an `idle player` client woken by another client's `pause` (write → the `changed:` line read); `pause` →
/// its `OK` on one connection; the server's
/// resident memory with 10 and with 100 clients waiting in `idle`.
struct MPDProtocolFigures {
    var mpcStatus: [Double] = []
    var mpcToggle: [Double] = []
    var listAllInfo: [Double] = []
    var listAlbums: [Double] = []
    /// `list album group albumartist` while loudness is measured (for MPD, which measures none, its ``listAlbums``).
    var listAlbumsWhileMeasuring: [Double] = []
    var searchAny: [Double] = []
    var idleWake: [Double] = []
    /// `pause 1` or `pause 0` sent → its `OK` read, on one connection (what `mpc toggle` waits for, without exec).
    var pauseReply: [Double] = []
    var rssIdleClients: [Int: Double] = [:]
    /// Commands whose reply never came whole: the server closed the connection (MPD: "Output buffer is full").
    var failed: Set<String> = []
}

extension Bench {
    func mpdProtocolFigures(socket: String, pid: pid_t, word: String, runs: Int) throws -> MPDProtocolFigures {
        var figures = MPDProtocolFigures()
        guard var client = MPDClient(socket: socket), let other = MPDClient(socket: socket) else {
            say("MPD protocol: nothing answers at \(socket)")
            return figures
        }
        /// Times `command` `count` times; a reply that does not come whole is a failure (the connection is opened
        /// again, and the command not timed further).
        func sample(_ command: String, _ count: Int) -> [Double] {
            var times: [Double] = []
            for _ in 0..<count {
                let start = monotonicSeconds()
                guard client.send(command) != nil else {
                    figures.failed.insert(command)
                    say("MPD protocol: \(command): no whole reply from \(socket)")
                    if let again = MPDClient(socket: socket) { client = again }
                    return []
                }
                times.append(monotonicSeconds() - start)
            }
            return times
        }
        figures.listAllInfo = sample("listallinfo", runs)
        figures.listAlbums = sample("list album group albumartist", runs)
        figures.searchAny = sample("search any \"\(word)\"", runs * 4)
        idleRounds: for round in 0..<40 {
            guard client.write("idle player") else { break }
            Thread.sleep(forTimeInterval: 0.02) // the idle is in place
            // A change from before this round answers an idle at once: that is no wake-up by this round's pause. It is read, and the idle asked again until one waits.
            var stale = 0
            while client.hasUnreadReply {
                stale += 1
                guard stale <= 50, client.reply() != nil, client.write("idle player") else { break idleRounds }
                Thread.sleep(forTimeInterval: 0.02)
            }
            let start = monotonicSeconds()
            guard other.write("pause \(round % 2 == 0 ? 1 : 0)"), let woken = client.reply(), woken.contains("changed: player") else { break }
            figures.idleWake.append(monotonicSeconds() - start)
            _ = other.reply()
        }
        _ = client.send("pause 0")
        for round in 0..<40 {
            let start = monotonicSeconds()
            guard other.send("pause \(round % 2 == 0 ? 1 : 0)") != nil else { break }
            figures.pauseReply.append(monotonicSeconds() - start)
            Thread.sleep(forTimeInterval: 0.05) // what the pause set going has settled
        }
        _ = client.send("pause 0")
        // The measuring clients go first: a server takes 100 connections, and the 100 in idle are what is measured.
        client.close()
        other.close()
        var idling: [MPDClient] = []
        for count in [10, 100] {
            while idling.count < count, let next = MPDClient(socket: socket), next.write("idle stored_playlist") { idling.append(next) }
            Thread.sleep(forTimeInterval: 1)
            if idling.count == count { figures.rssIdleClients[count] = Double(ProcFS.residentKilobytes(pid)) / 1024 }
        }
        return figures
    }
}

extension Bench {
    /// `mpc status` and `mpc toggle`, exec → exit, against Reprise and MPD in turn (ours, theirs, ours, …) while both
    /// run and play: a whole `mpc` run is ~1.7 ms, nearly all of it mpc's own start, so figures taken minutes apart
    /// (each server alone) differed by more than the servers do; pairs taken together share the machine's state.
    func pairedCommandLineFigures(ours: inout MPDProtocolFigures, oursSocket: String,
                                  theirs: inout MPDProtocolFigures, theirsSocket: String) throws {
        func timedMPC(_ command: String, _ socket: String) throws -> Double {
            var environment = desktop.environment
            environment["MPD_HOST"] = socket
            let start = monotonicSeconds()
            _ = try runCommand("mpc", [command], environment: environment)
            return monotonicSeconds() - start
        }
        for _ in 0..<40 {
            ours.mpcStatus.append(try timedMPC("status", oursSocket))
            theirs.mpcStatus.append(try timedMPC("status", theirsSocket))
        }
        for _ in 0..<40 { // an even count: both end where they began
            ours.mpcToggle.append(try timedMPC("toggle", oursSocket))
            theirs.mpcToggle.append(try timedMPC("toggle", theirsSocket))
        }
    }
}

/// Section 11's MPD protocol rows for one library size: Reprise's MPD server in its column, MPD in its own.
func mpdProtocolRows(count: Int, reprise: String, ours: MPDProtocolFigures?, theirs: MPDProtocolFigures?) -> [Row] {
    func sampled(_ figure: String, target: String = "≤ MPD", _ samples: (MPDProtocolFigures) -> [Double]) -> Row {
        var row = Row(figure: "MPD protocol, \(count) files: " + figure, unit: "ms", target: target)
        for (name, figures) in [(reprise, ours), ("MPD", theirs)] {
            guard let figures, !samples(figures).isEmpty else { continue }
            let values = samples(figures).map { $0 * 1000 }
            (row.values[name], row.spreads[name]) = (Statistics.median(values), Statistics.spread(values))
        }
        return row
    }
    func memory(_ clients: Int) -> Row {
        var row = Row(figure: "MPD protocol, \(count) files: RSS with \(clients) clients in idle", unit: "MiB", target: "≤ MPD")
        row.values[reprise] = ours?.rssIdleClients[clients]
        row.values["MPD"] = theirs?.rssIdleClients[clients]
        return row
    }
    return [
        sampled("`mpc status`, exec → exit (both running, in turn)") { $0.mpcStatus },
        sampled("`mpc toggle`, exec → exit (both running, in turn)") { $0.mpcToggle },
        sampled("`listallinfo`, whole reply") { $0.listAllInfo },
        sampled("`list album group albumartist`") { $0.listAlbums },
        sampled("`list album group albumartist` while Reprise measures loudness (MPD measures none)") { $0.listAlbumsWhileMeasuring },
        sampled("`search any`, ~1,000 matches, whole reply") { $0.searchAny },
        sampled("`idle player` woken by another client's `pause`") { $0.idleWake },
        sampled("`pause 1`/`pause 0` → its `OK`, one connection") { $0.pauseReply },
        memory(10), memory(100),
    ]
}
