import Foundation
import Glibc
import TestSupport

/// A directory of hostile files and playlists for the fuzzer to hand Reprise: FIFOs, devices, directories and
/// huge or garbage files dressed as media; names that are not UTF-8; playlists with a byte-order mark, control
/// characters, entries naming all of the above, playlists inside playlists, malformed XSPF and PLS, a playlist
/// too large to read, one that is a FIFO. Some are put in the Playlists folder too, so ActivatePlaylist meets
/// them. ``churn(_:)`` swaps a queued file for a FIFO and back while the calls run.
struct HostileFiles {
    /// `file://` URIs (percent-encoded) of everything made here.
    private(set) var uris: [String] = []
    private let directory: String
    private var random: SplitMix

    /// Makes the files in `directory` (created) and the playlists also in `playlistsFolder`; `tone` is a real,
    /// playable file to copy.
    /// `truncatedMedia`: also a file that is a playable file's first 4 KiB (headers, no audio). Off by default:
    /// playing it among the others once deadlocked playbin's state change on the loop (see BENCHMARKS.md).
    init(in directory: String, playlistsFolder: String, tone: String, video: String, seed: UInt64, truncatedMedia: Bool = false) throws {
        self.directory = directory
        random = SplitMix(seed: seed ^ 0xF11E5)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: playlistsFolder, withIntermediateDirectories: true)
        let toneBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: tone)))

        // Not regular files, dressed as media.
        try make(name: "fifo.ogg") { mkfifo($0, 0o644) == 0 }
        try make(name: "fifo.m3u") { mkfifo($0, 0o644) == 0 }
        try make(name: "zero.ogg") { symlink("/dev/zero", $0) == 0 }
        try make(name: "null.m3u") { symlink("/dev/null", $0) == 0 }
        try make(name: "urandom.xspf") { symlink("/dev/urandom", $0) == 0 }
        try make(name: "dir.ogg") { mkdir($0, 0o755) == 0 }
        try make(name: "dangling.flac") { symlink(directory + "/nowhere", $0) == 0 }
        try make(name: "loop.ogg") { symlink(directory + "/loop.ogg", $0) == 0 }
        // Regular files that are not what they claim, or too big to read.
        try write("huge.flac", [])
        _ = truncate(directory + "/huge.flac", 8 << 30)
        try write("huge.m3u", [])
        _ = truncate(directory + "/huge.m3u", 17 << 20)
        try write("noise.ogg", (0..<65536).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        if truncatedMedia { try write("truncated.ogg", Array(toneBytes.prefix(4096))) }
        try write("empty.opus", [])
        try write("swap.ogg", toneBytes)
        // Names that are not UTF-8 (Latin-1), a playable file among them, and one inside a Latin-1 folder.
        try write(bytes: Array("caf".utf8) + [0xE9] + Array(".ogg".utf8), toneBytes)
        try make(bytes: Array("M".utf8) + [0xFC] + Array("sik".utf8)) { mkdir($0, 0o755) == 0 }
        try write(bytes: Array("M".utf8) + [0xFC] + Array("sik/".utf8) + [0xC0, 0xFF] + Array(".ogg".utf8), toneBytes)

        try makeMP4Boxes()
        try makeChapterComments(tone: tone)
        try makeSidecars(video: video)
        try makeLyrics(tone: toneBytes)

        // Playlists.
        let entries = ["fifo.ogg", "zero.ogg", "dir.ogg", "dangling.flac", "loop.ogg", "huge.flac", "noise.ogg",
                       "truncated.ogg", "swap.ogg", "fifo.m3u", "self.m3u", "../../../../../etc/passwd", "/dev/zero",
                       "fd://0", "appsrc://", "tcp://0.0.0.0:9", "file:///dev/stdin", "file:///tmp/a%0Ab.ogg",
                       "file://%ZZ", "http://", String(repeating: "x/", count: 12_000) + "a.ogg", "\u{1B}]0;title\u{07}.ogg",
                       "a\u{202E}ggo.ogg", "\u{7F}\u{85}.ogg"]
        let m3u = "\u{FEFF}#EXTM3U\r\n#PLAYLIST:\u{1B}[2J cleared\r\n" + entries.joined(separator: "\r\n") + "\r\n"
        try write("bad.m3u", Array(m3u.utf8))
        try write("self.m3u", Array("self.m3u\nbad.m3u\nswap.ogg\n".utf8))
        try write("latin1.m3u", Array("caf".utf8) + [0xE9] + Array(".ogg\nswap.ogg\n".utf8))
        try write("many.m3u", Array((0..<50_000).map { "missing-\($0 % 97).ogg\n" }.joined().utf8))
        try write("bad.pls", Array("""
            [playlist]
            NumberOfEntries=-1
            File99999999999999999999999=swap.ogg
            File-3=fifo.ogg
            File1=
            =swap.ogg
            File2=\u{1B}[31mred.ogg
            File3=swap.ogg
            """.utf8))
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let locations = entries.map { "<track><location>" + escaped($0) + "</location></track>" }.joined()
        try write("bad.xspf", Array(("<?xml version=\"1.0\"?><!DOCTYPE p [<!ENTITY a \"&a;&a;\">]><playlist><title>&a;&#0;&#x110000;"
            + "&#27;]2;x&#7;</title><trackList>" + locations
            + "<track><location>&#10;file:///etc/passwd</location></track><track><location><![CDATA[fifo.ogg]]></location>"
            + "<track><location>swap.ogg</location></track>").utf8))
        try write("deep.xspf", Array((String(repeating: "<trackList><track><location>", count: 20_000) + "swap.ogg").utf8))
        try write("open.xspf", Array(String(repeating: "<location>&#", count: 40_000).utf8))
        for name in ["bad.m3u", "self.m3u", "latin1.m3u", "bad.pls", "bad.xspf", "deep.xspf", "open.xspf", "huge.m3u"] {
            _ = symlink(directory + "/" + name, playlistsFolder + "/" + name)
        }
        _ = symlink(directory + "/fifo.m3u", playlistsFolder + "/fifo.m3u")
        _ = symlink("/dev/zero", playlistsFolder + "/zero.xspf")
    }

    /// MP4/M4B/MOV files whose boxes lie: 64-bit sizes near Int64.max at the top and inside `moov`, sizes past the
    /// end and of zero, a `chpl` whose count and title lengths run past its body.
    private mutating func makeMP4Boxes() throws {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let size = UInt32(clamping: body.count + 8)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
        }
        let ftyp = box("ftyp", Array("M4A ".utf8) + [0, 0, 2, 0] + Array("M4B isom".utf8))
        let nearMax: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xF0], zeros = [UInt8](repeating: 0, count: 64)
        try write("huge-moov.m4b", ftyp + [0, 0, 0, 1] + Array("moov".utf8) + nearMax + zeros)
        try write("huge-free.m4a", ftyp + [0, 0, 0, 1] + Array("free".utf8) + nearMax + zeros)
        try write("past-end.m4b", ftyp + [0xFF, 0xFF, 0xFF, 0xF0] + Array("moov".utf8) + zeros)
        try write("huge-udta.mov", ftyp + box("moov", [0, 0, 0, 1] + Array("udta".utf8) + nearMax + zeros))
        try write("zero-size.mp4", ftyp + box("moov", box("udta", [0, 0, 0, 0] + Array("chpl".utf8) + zeros)))
        let lyingChapters: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, 255] + (0..<12).flatMap { _ in
            [UInt8](repeating: 0xFF, count: 8) + [255] + Array("abc".utf8)
        }
        try write("chpl.m4b", ftyp + box("moov", box("udta", box("chpl", lyingChapters))))
        let manyChapters: [UInt8] = [0, 0, 0, 0, 200] + (0..<200).flatMap { index -> [UInt8] in
            let start = UInt64(index) * 10_000_000
            return (0..<8).reversed().map { UInt8(truncatingIfNeeded: start >> (8 * UInt64($0))) } + [4] + Array("\u{1B}[2J".utf8)
        }
        try write("many-chapters.m4b", ftyp + box("moov", box("mvhd", zeros) + box("udta", box("meta", []) + box("chpl", manyChapters))))
    }

    /// Vorbis and FLAC files (a real tone) with hundreds of CHAPTERnnn comments: times past a day, negative,
    /// malformed, names with escape sequences and overlong ones.
    private mutating func makeChapterComments(tone: String) throws {
        var metadata: [String] = []
        for index in 0..<300 {
            let number = String(format: "%03d", index)
            let time = ["00:00:%02d.000", "99999999999:99:99.999", "-00:00:01", "00:00:00.0000000000000000001", "garbage", "%02d:00"][index % 6]
            metadata += ["-metadata", "CHAPTER\(number)=" + time.replacingOccurrences(of: "%02d", with: String(format: "%02d", index % 60)),
                         "-metadata", "CHAPTER\(number)NAME=" + (index % 7 == 0 ? String(repeating: "n", count: 5000) : "\u{1B}]0;t\u{07}\(index)")]
        }
        for name in ["chapters.ogg", "chapters.flac"] {
            let result = try runCommand("ffmpeg", ["-v", "error", "-y", "-i", tone, "-t", "5"] + metadata + [directory + "/" + name])
            guard result.status == 0 else { throw HostileFileError(name: name, errno: EINVAL) }
            uris.append("file://" + Self.percentEncoded(Array((directory + "/" + name).utf8)))
        }
    }

    /// A video with hostile sidecars: an info file nested past any sane depth with numbers out of range, subtitle
    /// files with times past Int64 and control characters, one that is a FIFO and one that is /dev/zero.
    private mutating func makeSidecars(video: String) throws {
        try write("film.ogv", [UInt8](try Data(contentsOf: URL(fileURLWithPath: video))))
        try write("film.reprise.json", Array(("{\"title\":\"\u{1B}[2J\",\"interstitials\":[{\"start\":1e999999,\"end\":-1e308},"
            + "{\"start\":\"x\"}," + String(repeating: "[", count: 20_000) + "]}").utf8))
        try write("film.srt", Array(("\u{FEFF}1\n99999999999999:00:00,000 --> 99999999999999:00:01,000\n\u{1B}[31mred\u{07}\n\n"
            + "2\n00:00:01,000 --> 00:00:00,000\nbackwards\n\n-3\n-1:-1:-1,-1 --> 00:00:02,000\n"
            + String(repeating: "x", count: 200_000) + "\n\n").utf8))
        try make(name: "film.en.vtt") { mkfifo($0, 0o644) == 0 }
        try make(name: "film.fr.srt") { symlink("/dev/zero", $0) == 0 }
    }

    /// Playable files with hostile `.lrc` lyrics beside them: binary, 50 MB, a million lines, a FIFO, /dev/zero,
    /// stamps out of order, negative and past Int64, bad UTF-8, escape sequences, an offset past Int64, megabytes
    /// of word-time openings with no end.
    private mutating func makeLyrics(tone: [UInt8]) throws {
        for name in ["lrc-binary", "lrc-huge", "lrc-lines", "lrc-fifo", "lrc-zero", "lrc-odd", "lrc-angles", "lrc-opened"] {
            try write(name + ".ogg", tone)
        }
        // Word-time openings with no end (quadratic to scan once): a whole 4 MiB file of them, and 200 KB on a line.
        try write("lrc-angles.lrc", [UInt8](repeating: UInt8(ascii: "<"), count: 4 << 20))
        try write("lrc-opened.lrc", Array("[00:01.00]".utf8) + [UInt8](repeating: UInt8(ascii: "<"), count: 200_000)
            + Array("\n[00:02.00]<00:02.00>after".utf8))
        try write("lrc-binary.lrc", (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) })
        try write("lrc-huge.lrc", [])
        _ = truncate(directory + "/lrc-huge.lrc", 50 << 20)
        try write("lrc-lines.lrc", [UInt8](repeating: 0x0A, count: 1_000_000))
        try make(name: "lrc-fifo.lrc") { mkfifo($0, 0o644) == 0 }
        try make(name: "lrc-zero.lrc") { symlink("/dev/zero", $0) == 0 }
        try write("lrc-odd.lrc", Array(("[offset:-999999999999999]\n[00:03.00]later\n[-00:01.00]negative\n"
            + "[99999999999999999999:00.00]past\n[00:01.00]<99:99.99>\u{1B}]52;c;cHduZWQ=\u{07}\u{1B}[2J<00:01.50>word\n").utf8)
            + [0xC3, 0x28, 0xFF, 0x0A] + Array(String(repeating: "[00:02.00]", count: 10_000).utf8))
    }

    /// A scrobble queue file of 120,000 listens (more than the queue holds: linear to read) with hostile lines among
    /// them — a torn line, deep nesting, binary, numbers past Double — and scrobbling on, to a loopback port where
    /// nothing answers (every request refused: the backoff holds it to a few).
    static func writeScrobbleQueue(home: String) throws {
        let state = home + "/.local/state/reprise", config = home + "/.config/reprise"
        for folder in [home + "/.local", home + "/.local/state", state, home + "/.config", config] { _ = mkdir(folder, 0o700) }
        var text = ""
        text.reserveCapacity(16 << 20)
        for index in 0..<120_000 {
            text += "{\"listened_at\":\(1_700_000_000 + index),\"track_metadata\":{\"artist_name\":\"Fuzz Artist\","
                + "\"track_name\":\"Track \(index)\",\"release_name\":\"Album\"}}\n"
            if index % 10_000 == 0 {
                text += "{\"listened_at\":1e999}\n" + String(repeating: "[", count: 5_000) + "\n\u{1B}[2J\u{FFFD}\n{\"listened_at\":17"
                    + "\n"
            }
        }
        try writeFile(state + "/listens.jsonl", Array(text.utf8))
        try writeFile(config + "/config", Array("scrobble = listenbrainz\nlistenbrainz-url = http://127.0.0.1:9/\n".utf8))
        try writeFile(config + "/listenbrainz-token", Array("fuzz-token\n".utf8))
    }

    private static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw HostileFileError(name: path, errno: Glibc.errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard count > 0 else { throw HostileFileError(name: path, errno: Glibc.errno) }
            offset += count
        }
    }

    /// Now and then replaces `swap.ogg` (queued by earlier calls) with a FIFO, and the FIFO with the file again.
    mutating func churn(_ round: Int) {
        guard round % 7 == 0 else { return }
        let path = directory + "/swap.ogg", aside = directory + "/swap.ogg.real"
        if rename(path, aside) == 0 {
            mkfifo(path, 0o644)
        } else {
            unlink(path)
            rename(aside, path)
        }
    }

    /// Runs `create` on the path of `name` and records the URI; fails when it reports false.
    private mutating func make(name: String, _ create: (UnsafePointer<CChar>) -> Bool) throws {
        try make(bytes: Array(name.utf8), create)
    }

    private mutating func make(bytes name: [UInt8], _ create: (UnsafePointer<CChar>) -> Bool) throws {
        let path = Array(directory.utf8) + [UInt8(ascii: "/")] + name
        let made = (path.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { create($0.baseAddress!) }
        guard made else { throw HostileFileError(name: String(decoding: name, as: UTF8.self), errno: errno) }
        uris.append("file://" + Self.percentEncoded(path))
    }

    private mutating func write(_ name: String, _ contents: [UInt8]) throws {
        try write(bytes: Array(name.utf8), contents)
    }

    private mutating func write(bytes name: [UInt8], _ contents: [UInt8]) throws {
        try make(bytes: name) { path in
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            return contents.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == contents.count
        }
    }

    /// Every byte but unreserved ASCII and "/" as %XX, so names that are not UTF-8 survive.
    static func percentEncoded(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                String(UnicodeScalar(byte))
            default:
                String(format: "%%%02X", byte)
            }
        }.joined()
    }
}

struct HostileFileError: Error, CustomStringConvertible {
    let name: String
    let errno: Int32
    var description: String { "could not make hostile file \(name): \(String(cString: strerror(errno)))" }
}
