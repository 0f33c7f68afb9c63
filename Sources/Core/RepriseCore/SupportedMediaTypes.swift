/// The MIME types Reprise announces in `SupportedMimeTypes`: registered names from shared-mime-info (its
/// canonical ones, as desktop files and file managers use them), each listed only when the installed GStreamer
/// elements can open the container and decode what it usually carries, followed by the aliases shared-mime-info
/// registers for them (`audio/x-flac`, `audio/wav`, `audio/x-m4a`…): media servers send those spellings, and a
/// UPnP renderer bridged from MPRIS (Rygel's) refuses any type not listed exactly. Names registered nowhere
/// (`application/x-id3`, `application/kate`…, GStreamer's caps) never appear.
public enum SupportedMediaTypes {
    /// What playing a type needs: a demuxer for one of `containers` (none for elementary streams) and, for each
    /// group in `codecs`, a decoder for one of its caps. Caps are GStreamer caps strings.
    public struct Requirement: Sendable {
        public let mimeType: String
        public let containers: [String]
        public let codecs: [[String]]
    }

    static let mpeg1Layer3 = "audio/mpeg, mpegversion=(int)1, layer=(int)3"
    static let aac = "audio/mpeg, mpegversion=(int)4"
    static let oggAudio = ["audio/x-vorbis", "audio/x-opus", "audio/x-flac", "audio/x-speex"]

    public static let table: [Requirement] = [
        .init(mimeType: "application/ogg", containers: ["application/ogg"], codecs: [oggAudio]),
        .init(mimeType: "audio/ogg", containers: ["application/ogg"], codecs: [oggAudio]),
        .init(mimeType: "audio/x-vorbis+ogg", containers: ["application/ogg"], codecs: [["audio/x-vorbis"]]),
        .init(mimeType: "audio/x-opus+ogg", containers: ["application/ogg"], codecs: [["audio/x-opus"]]),
        .init(mimeType: "audio/x-flac+ogg", containers: ["application/ogg"], codecs: [["audio/x-flac"]]),
        .init(mimeType: "audio/x-speex+ogg", containers: ["application/ogg"], codecs: [["audio/x-speex"]]),
        .init(mimeType: "video/ogg", containers: ["application/ogg"], codecs: [["video/x-theora"]]),
        .init(mimeType: "video/x-theora+ogg", containers: ["application/ogg"], codecs: [["video/x-theora"]]),
        .init(mimeType: "audio/flac", containers: [], codecs: [["audio/x-flac"]]),
        .init(mimeType: "audio/x-wav", containers: ["audio/x-wav"], codecs: []),
        .init(mimeType: "audio/x-aiff", containers: ["audio/x-aiff"], codecs: []),
        .init(mimeType: "audio/basic", containers: ["audio/x-au"], codecs: []),
        .init(mimeType: "audio/mpeg", containers: [], codecs: [[mpeg1Layer3]]),
        .init(mimeType: "audio/aac", containers: [], codecs: [[aac]]),
        .init(mimeType: "audio/mp4", containers: ["video/quicktime"], codecs: [[aac, "audio/x-alac"]]),
        .init(mimeType: "video/mp4", containers: ["video/quicktime"], codecs: [["video/x-h264", "video/x-h265", "video/x-av1"]]),
        .init(mimeType: "video/quicktime", containers: ["video/quicktime"], codecs: [["video/x-h264", "video/x-h265"]]),
        .init(mimeType: "audio/x-matroska", containers: ["audio/x-matroska"], codecs: [["audio/x-vorbis", "audio/x-opus", "audio/x-flac"]]),
        .init(mimeType: "video/x-matroska", containers: ["video/x-matroska"],
              codecs: [["video/x-vp8", "video/x-vp9", "video/x-h264", "video/x-theora", "video/x-av1"]]),
        .init(mimeType: "audio/webm", containers: ["audio/webm"], codecs: [["audio/x-vorbis", "audio/x-opus"]]),
        .init(mimeType: "video/webm", containers: ["video/webm"], codecs: [["video/x-vp8", "video/x-vp9", "video/x-av1"]]),
        .init(mimeType: "video/x-msvideo", containers: ["video/x-msvideo"], codecs: []),
        .init(mimeType: "video/x-flv", containers: ["video/x-flv"], codecs: [["video/x-h264", "video/x-flash-video"]]),
        .init(mimeType: "video/mpeg", containers: ["video/mpeg, systemstream=(boolean)true"], codecs: [["video/mpeg"]]),
        .init(mimeType: "video/mp2t", containers: ["video/mpegts"], codecs: [["video/x-h264", "video/mpeg"]]),
        .init(mimeType: "audio/x-wavpack", containers: [], codecs: [["audio/x-wavpack"]]),
        .init(mimeType: "audio/x-ape", containers: [], codecs: [["audio/x-ffmpeg-parsed-ape"]]),
        .init(mimeType: "audio/x-musepack", containers: [], codecs: [["audio/x-musepack"]]),
        .init(mimeType: "audio/AMR", containers: [], codecs: [["audio/AMR"]]),
        .init(mimeType: "audio/ac3", containers: [], codecs: [["audio/x-ac3", "audio/ac3"]]),
        .init(mimeType: "audio/x-ms-wma", containers: ["video/x-ms-asf"], codecs: [["audio/x-wma"]]),
        .init(mimeType: "video/x-ms-wmv", containers: ["video/x-ms-asf"], codecs: [["video/x-wmv"]]),
        .init(mimeType: "audio/midi", containers: [], codecs: [["audio/midi"]]),
        .init(mimeType: "audio/x-mod", containers: [], codecs: [["audio/x-mod"]]),
        .init(mimeType: "audio/x-it", containers: [], codecs: [["audio/x-mod"]]),
        .init(mimeType: "audio/x-xm", containers: [], codecs: [["audio/x-mod"]]),
        .init(mimeType: "audio/x-s3m", containers: [], codecs: [["audio/x-mod"]]),
    ]

    /// The types whose requirements are met, with their `aliases` (canonical name → aliases, ``aliases(in:)``),
    /// sorted. Each caps string is asked about once.
    public static func playable(canDemux: (String) -> Bool, canDecode: (String) -> Bool,
                                aliases: [String: [String]] = [:]) -> [String] {
        var demuxable: [String: Bool] = [:], decodable: [String: Bool] = [:]
        func demux(_ caps: String) -> Bool {
            if let known = demuxable[caps] { return known }
            let answer = canDemux(caps)
            demuxable[caps] = answer
            return answer
        }
        func decode(_ caps: String) -> Bool {
            if let known = decodable[caps] { return known }
            let answer = canDecode(caps)
            decodable[caps] = answer
            return answer
        }
        let canonical = table.filter { requirement in
            (requirement.containers.isEmpty || requirement.containers.contains(where: demux))
                && requirement.codecs.allSatisfy { $0.contains(where: decode) }
        }.map(\.mimeType)
        return Set(canonical + canonical.flatMap { aliases[$0] ?? [] }).sorted()
    }

    /// shared-mime-info's `aliases` file (one `alias canonical` pair a line), as canonical name → aliases. A line
    /// that is not two MIME type names is skipped.
    public static func aliases(in text: String) -> [String: [String]] {
        var aliases: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let names = line.split(separator: " ")
            guard names.count == 2, names.allSatisfy(isMIMEType) else { continue }
            aliases[String(names[1]), default: []].append(String(names[0]))
        }
        return aliases
    }

    /// Largest `aliases` file read (Debian 12's is 8 KiB).
    public static let aliasesFileLimit = 1 << 20

    /// The registered top-level types (IANA's media types registry): a name under any other is no MIME type
    /// (shared-mime-info lists such aliases, `flv-application/octet-stream`, and MPRIS checkers refuse them).
    static let topLevelTypes: Set<Substring> = ["application", "audio", "font", "haptics", "image", "message", "model",
                                                "multipart", "text", "video"]

    /// `type/subtype` by RFC 6838's grammar: a registered top-level type, and restricted names (a letter or digit,
    /// then up to 126 of the restricted-name characters).
    static func isMIMEType(_ name: Substring) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, topLevelTypes.contains(Substring(parts[0].lowercased())) else { return false }
        return parts.allSatisfy { part in
            func isAlphanumeric(_ byte: UInt8) -> Bool {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
                default: false
                }
            }
            guard (1...127).contains(part.utf8.count), let first = part.utf8.first, isAlphanumeric(first) else { return false }
            return part.utf8.allSatisfy { isAlphanumeric($0) || "!#$&-^_.+".utf8.contains($0) }
        }
    }
}
