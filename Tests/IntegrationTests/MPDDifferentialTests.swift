import Foundation
import Glibc
import Testing
import TestSupport

/// Debian's `mpd` and Reprise on the same generated music folder, asked the same commands over their sockets: the
/// replies agree, apart from the deviations README lists (pairs MPD has that Reprise does not serve — file times,
/// audio formats, tags Reprise does not keep — are left out of the comparison).
@Suite(.serialized) struct MPDDifferentialTests {
    /// What is compared: each command's reply, as pairs (and the OK or ACK line).
    static let commands = [
        "list album", "list artist", "list genre", "list albumartist", "list album group albumartist",
        "list title \"(artist == 'Miles Davis')\"", "list album \"Björk\"",
        "count artist \"Miles Davis\"", "count \"(genre == 'Pop')\"", "count genre Jazz group album",
        "find artist \"Miles Davis\"", "find \"(album == 'Singles')\"", "search title blue", "search \"(title contains 'BLUE')\"",
        "find \"(!(genre == 'Pop'))\" sort title", "find \"((artist == 'Björk') AND (track == '2'))\"", "search any davis",
        "find artist \"Miles Davis\" window 1:2", "findadd album Singles", "findadd artist Björk",
        // (The queue's tags arrive a moment after findadd — README's deviation —: its matches are unit-tested.)
        "playlistfind nosuchtag x", "playlistsearch", "delete 1:4",
        // Stored playlists, from the queue findadd made (Blue Monday).
        "save mix", "save mix", "listplaylists", "lsinfo", "playlistadd mix \"Miles Davis/Kind of Blue/1 So What.ogg\"", "listplaylist mix",
        "playlistmove mix 1 0", "listplaylistinfo mix", "playlistdelete mix 0", "listplaylist mix", "playlistmove mix 0 4",
        "rename mix mix2", "listplaylist mix", "load mix2", "load mix2 0:1", "playlistclear mix2", "listplaylist mix2", "rm mix2",
        "rm mix2", "save \"bad/name\"", "listplaylists",
        "searchaddpl picks title blue", "listplaylist picks", "searchaddpl picks \"(artist == 'Björk')\" sort title window 0:2",
        "listplaylist picks", "searchaddpl picks nosuchtag x", "searchaddpl picks", "searchaddpl \"bad/name\" title blue",
        "searchaddpl nothing title zzz", "listplaylists", "rm picks", "rm nothing",
        "config", "listmounts", "clearerror",
        // Priorities and single oneshot on what load queued (entries' tags are the deviation: not listed here).
        "prio 10 0", "prio 300 0", "prio 1 99", "prio 5", "prioid 7", "single oneshot", "single 0", "single 2",
        // Ranges ($ID0: the id of the queue's first entry, each server's own); the song's Range line is compared.
        "rangeid $ID0 1.5:2.5", "playlistid $ID0", "rangeid $ID0 2:", "playlistid $ID0", "rangeid $ID0 :1", "playlistid $ID0",
        "rangeid $ID0 3:1", "rangeid $ID0 2:2", "rangeid $ID0 x", "rangeid $ID0 1", "rangeid 99999 1:2", "rangeid x 1:2",
        "rangeid $ID0", "rangeid $ID0 :", "playlistid $ID0", "play 0", "rangeid $ID0 1:2", "stop", "rangeid $ID0 0.25:",
        "playlistid $ID0", "rangeid $ID0 :",
        // The music folder's files as they are on disk (listed in readdir order by mpd: compared as sets).
        "listfiles", "listfiles Singles", "listfiles \"Björk/Début\"", "listfiles nowhere", "listfiles \"../x\"",
        // Covers: the folder's cover file in binarylimit chunks, an embedded picture, and what has neither.
        "binarylimit 64", "albumart \"Singles/1 Blue Monday.ogg\" 0", "albumart \"Singles/1 Blue Monday.ogg\" 64",
        "albumart \"Singles/1 Blue Monday.ogg\" 99999999", "albumart \"Björk/Début/1 Human Behaviour.ogg\" 0",
        "readpicture \"Covered/covered.flac\" 0", "readpicture \"Covered/covered.flac\" 128",
        "readpicture \"Singles/1 Blue Monday.ogg\" 0", "albumart \"../x.ogg\" 0",
        // MusicBrainz ids; M.A.L.P.'s album list (sort tags fall back to what they sort); tags Reprise does not keep.
        "find musicbrainz_albumid \(MusicBrainzTests.release)", "search musicbrainz_trackid \(MusicBrainzTests.recording.prefix(8))",
        "list album group musicbrainz_albumid", "list musicbrainz_artistid", "count group musicbrainz_albumartistid",
        "list album group albumartist group albumartistsort group musicbrainz_albumid group date",
        "list albumartistsort", "list composer", "find \"(musicbrainz_trackid == '\(MusicBrainzTests.recording)')\"",
        "lsinfo", "lsinfo \"Miles Davis\"", "lsinfo \"Miles Davis/Kind of Blue\"", "lsinfo nowhere", "listall", "listall Björk",
        "listallinfo Singles", "frobnicate", "list nosuchtag", "find", "find artist", "count",
        "command_list_ok_begin\nping\nlist genre\ncommand_list_end",
        "command_list_begin\nping\nfind bogus x\nping\ncommand_list_end",
    ]

    /// Keys Reprise does not serve, left out of the comparison (README: "compared with MPD").
    static let ignoredKeys: Set<String> = ["duration", "Added", "Id", "Pos"]

    @Test func replyForReplyAsDebiansMPD() throws {
        let session = try Session()
        defer { session.close() }
        let music = try LibraryTests.musicFolder(in: session.home)
        // A cover file beside one album, a picture embedded in one more song.
        try media.coverImage.write(to: URL(fileURLWithPath: music + "/Singles/cover.jpg"))
        try FileManager.default.createDirectory(atPath: music + "/Covered", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: media.covered, toPath: music + "/Covered/covered.flac")
        // A song with MusicBrainz ids (in the order Reprise sends them: its tags come in one fixed order).
        try FileManager.default.createDirectory(atPath: music + "/Identified", withIntermediateDirectories: true)
        try generateTone(at: music + "/Identified/1 Identified.ogg", seconds: 3,
                         tags: "title=(string)\"Identified\",artist=(string)\"The Testers\",album=(string)\"Known\",track-number=(uint)1,"
                             + "musicbrainz-artistid=(string)\"\(MusicBrainzTests.artist)\",musicbrainz-albumid=(string)\"\(MusicBrainzTests.release)\","
                             + "musicbrainz-albumartistid=(string)\"\(MusicBrainzTests.albumArtist)\","
                             + "musicbrainz-trackid=(string)\"\(MusicBrainzTests.recording)\"",
                         encoder: ["vorbisenc", "!", "oggmux"])
        try MPDTests.configure(session, library: music)
        try session.launch([])
        #expect(session.waitFor(30) { Self.songs(try? MPDTests.mpc(session, "stats").output) == 8 })

        // Debian's mpd on the same folder: its own database, a null output, a socket of its own.
        let mpdDirectory = try session.makeFolder("mpd")
        let mpdSocket = mpdDirectory + "/socket"
        try """
        music_directory "\(music)"
        db_file "\(mpdDirectory)/database"
        state_file "\(mpdDirectory)/state"
        playlist_directory "\(try session.makeFolder("mpd/playlists"))"
        bind_to_address "\(mpdSocket)"
        audio_output {
            type "null"
            name "null"
        }
        """.write(toFile: mpdDirectory + "/mpd.conf", atomically: true, encoding: .utf8)
        try session.start("/usr/bin/mpd", ["--no-daemon", mpdDirectory + "/mpd.conf"], logName: "mpd")
        #expect(session.waitFor(30) {
            Self.songs(try? runCommand("mpc", ["-h", mpdSocket, "stats"], environment: session.environment).output) == 8
        }, "\(session.output(ofLog: "mpd"))")

        let script = session.directory + "/ask.py"
        try Self.asker.write(toFile: script, atomically: true, encoding: .utf8)
        let input = Self.commands.joined(separator: "\n====\n")
        let replies = try [MPDTests.socket(session), mpdSocket].map { socket in
            let asked = try runCommand("/usr/bin/python3", [script, socket, input], environment: session.environment)
            #expect(asked.status == 0, "\(asked.errors)")
            return asked.output.components(separatedBy: "\n====\n")
        }
        #expect(replies[0].count == Self.commands.count && replies[1].count == Self.commands.count)
        // What is compared is there: a cover's first chunk, an embedded picture, a stored playlist.
        #expect(replies[1].contains { $0.hasPrefix("size: ") && $0.contains("binary: 64") }, "\(replies[1])")
        #expect(replies[1].contains { $0.contains("type: image/jpeg") } && replies[1].contains { $0.hasPrefix("playlist: mix") })
        #expect(replies[1].contains { $0.contains("Range: 1.500-2.500") } && replies[1].contains { $0.contains("{rangeid} Cannot edit") },
                "\(replies[1])")
        #expect(replies[1].contains { $0.contains("MUSICBRAINZ_TRACKID: \(MusicBrainzTests.recording)") }
                && replies[1].contains { $0.contains("MUSICBRAINZ_ALBUMID: \(MusicBrainzTests.release)\nAlbumArtistSort: The Testers") },
                "\(replies[1])")
        for (index, command) in Self.commands.enumerated() where index < min(replies[0].count, replies[1].count) {
            let unordered = command.hasPrefix("listfiles")
            // A queue entry's tags are the deviation: of the song only its Range is compared.
            let only: Set<String>? = command.hasPrefix("playlistid $ID") ? ["Range"] : nil
            let ours = Self.normalised(replies[0][index], unordered: unordered, only: only)
            let theirs = Self.normalised(replies[1][index], unordered: unordered, only: only)
            #expect(ours == theirs, "\(command)\n--- Reprise\n\(ours)\n--- mpd\n\(theirs)")
        }
    }

    /// The song count `mpc stats` printed.
    static func songs(_ stats: String?) -> Int? {
        stats?.split(separator: "\n").first { $0.hasPrefix("Songs:") }.flatMap { Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces)) }
    }

    /// A reply's lines without the ignored pairs; ACK lines keep their code, index and command, not the wording.
    /// `unordered`: the files and folders listed (each from its `file:` or `directory:` line) are sorted.
    /// `only`: the keys compared (nil: all but the ignored ones).
    static func normalised(_ reply: String, unordered: Bool = false, only: Set<String>? = nil) -> String {
        var previous: Substring = ""
        let lines = reply.split(separator: "\n").compactMap { line -> String? in
            defer { previous = line }
            if line.hasPrefix("ACK ") { return String(line.prefix { $0 != "}" }) + "}" }
            // A stored playlist's time is when each server saved it.
            if previous.hasPrefix("playlist: ") && line.hasPrefix("Last-Modified: ") { return "Last-Modified: *" }
            guard let colon = line.range(of: ": ") else { return String(line) }
            let key = String(line[..<colon.lowerBound])
            if let only { return only.contains(key) ? String(line) : nil }
            return ignoredKeys.contains(key) ? nil : String(line)
        }
        guard unordered else { return lines.joined(separator: "\n") }
        var records: [[String]] = [], body = lines
        let end = body.last == "OK" || body.last?.hasPrefix("ACK ") == true ? body.removeLast() : ""
        for line in body {
            if line.hasPrefix("file: ") || line.hasPrefix("directory: ") || records.isEmpty { records.append([]) }
            records[records.count - 1].append(line)
        }
        return (records.map { $0.joined(separator: "\n") }.sorted() + [end]).joined(separator: "\n")
    }

    /// Sends each block of commands (blocks split by a ==== line) on one connection and prints the replies the same way;
    /// `$IDn` in a block is the id of the queue's entry at position n.
    static let asker = #"""
    import socket, sys
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    f = s.makefile("rb")
    f.readline()
    out = []
    def ask(block):
        s.sendall((block + "\n").encode())
        lines = []
        while True:
            line = f.readline().decode("utf-8", "replace").rstrip("\n")
            lines.append(line)
            if line == "OK" or line.startswith("ACK "):
                return lines
    for block in sys.argv[2].split("\n====\n"):
        if "$ID" in block:
            ids = [l[4:] for l in ask("playlistid") if l.startswith("Id: ")]
            for n in reversed(range(len(ids))):
                block = block.replace("$ID%d" % n, ids[n])
        out.append("\n".join(ask(block)))
    sys.stdout.write("\n====\n".join(out))
    """#
}
