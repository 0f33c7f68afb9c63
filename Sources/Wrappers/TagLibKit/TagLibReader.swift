import CTagReaderClient
import PosixFiles
import RepriseCore

/// Reads a file's tags, audio properties and embedded cover with TagLib, from the headers only (nothing is decoded):
/// tens of microseconds a file where a GStreamer discoverer prerolls a pipeline. TagLib runs in a reader process
/// (``TagReaderProcesses``) that is sent the open descriptor. Thread-safe: each call reads one file of its own. What
/// TagLib has no reader for, finds invalid, or fails on gives nil: the caller falls back to GStreamer.
public enum TagLibReader {
    /// The most tag values kept from one file (all keys together); a real file has a few dozen.
    static let valueCountLimit = 4_096
    /// The longest value kept, in bytes (lyrics are the long ones: ``FileTags/maximumLyricsLength`` characters).
    static let valueLimit = FileTags.maximumLyricsLength * 4

    /// Whether TagLib has a reader for files ending in `fileExtension` (any case, no dot).
    public static func reads(fileExtension: String) -> Bool {
        rp_taglib_reads_extension(fileExtension.lowercased()) != 0
    }

    /// A regular file to read: open at `descriptor` (read with pread; it stays open and unmoved), `size` bytes long,
    /// read as the format `fileExtension` names.
    public typealias File = (descriptor: Int32, size: Int64, fileExtension: String)

    /// The tags of the regular file of `size` bytes open at `descriptor` (read with pread; the descriptor stays open
    /// and unmoved), read as the format `fileExtension` names. Pictures larger than `pictureLimit` bytes are left out.
    public static func read(descriptor: Int32, size: Int64, fileExtension: String, pictureLimit: Int,
                            processes: TagReaderProcesses = .shared) -> (tags: FileTags, picture: EmbeddedPicture?)? {
        read([(descriptor, size, fileExtension)], pictureLimit: pictureLimit,
             processes: processes)[0]
    }

    /// The tags of each file, in order: a plain FLAC file read here (``PlainFLAC``), every other one by one reader
    /// process with the requests sent ahead of the answers: for many files, much faster than one call each.
    public static func read(_ files: [File], pictureLimit: Int,
                            processes: TagReaderProcesses = .shared) -> [(tags: FileTags, picture: EmbeddedPicture?)?] {
        let limits = PlainFLAC.Limits(pictureBytes: max(0, pictureLimit), valueBytes: valueLimit, valueCount: valueCountLimit)
        var results = [(tags: FileTags, picture: EmbeddedPicture?)?](repeating: nil, count: files.count)
        var forProcess: [(index: Int, file: File)] = []
        for (index, file) in files.enumerated() {
            let fileExtension = file.fileExtension.lowercased()
            if fileExtension == "flac", let plain = PlainFLAC.read(size: file.size, limits: limits, read: { offset, count in
                Descriptor.read(file.descriptor, at: offset, count: count)
            }) {
                var tags = FileTags(properties: plain.properties, inFileOrder: true)
                tags.apply(plain.headers)
                results[index] = (tags, plain.picture)
            } else {
                forProcess.append((index, (file.descriptor, file.size, fileExtension)))
            }
        }
        guard !forProcess.isEmpty else { return results }
        let answers = processes.read(forProcess.map(\.file), pictureLimit: limits.pictureBytes, valueLimit: valueLimit,
                                     valueCountLimit: valueCountLimit)
        for (request, (status, file)) in zip(forProcess, answers) {
            var file = file
            defer { rp_taglib_free(&file) }
            if status == 0 { results[request.index] = decode(file) }
        }
        return results
    }

    /// What ``properties(descriptor:size:fileExtension:limitBytes:processes:)`` came to.
    public enum Comments {
        /// Every tag, each key in its own case, in the file's order.
        case read([(key: String, value: String)])
        /// Its tags are more than the limit asked, in bytes (keys and values together): none are given.
        case tooLarge
        /// TagLib cannot read it.
        case unreadable
    }

    /// Every tag of the regular file open at `descriptor`, for MPD's `readcomments`, as MPD lists them: each key in its
    /// own case, in the file's order (`RP_TAG_READ_COMMENTS_AS_WRITTEN` says which), every value whole — up to
    /// `limitBytes` in all (keys and values), beyond which the file's tags are ``Comments/tooLarge``, not cut.
    public static func properties(descriptor: Int32, size: Int64, fileExtension: String, limitBytes: Int,
                                  processes: TagReaderProcesses = .shared) -> Comments {
        let request = (descriptor, size, fileExtension.lowercased()) as File
        let (status, answer) = processes.read([request], pictureLimit: 0, valueLimit: limitBytes, valueCountLimit: valueCountLimit,
                                              propertiesLimit: limitBytes, flags: UInt32(RP_TAG_READ_COMMENTS_AS_WRITTEN))[0]
        var file = answer
        defer { rp_taglib_free(&file) }
        if status == Int32(RP_TAG_TOO_LARGE) { return .tooLarge }
        guard status == 0 else { return .unreadable }
        return .read(file.properties.map {
            Self.records(UnsafeBufferPointer(start: $0, count: file.properties_size), keysAsWritten: true)
        } ?? [])
    }

    private static func decode(_ file: rp_taglib_file) -> (tags: FileTags, picture: EmbeddedPicture?) {
        let properties = file.properties.map { Self.records(UnsafeBufferPointer(start: $0, count: file.properties_size)) } ?? []
        let headers = file.headers
        var tags = FileTags(properties: properties, inFileOrder: headers.properties_in_file_order != 0)
        tags.apply(AudioHeaders(lengthMilliseconds: headers.length_ms, sampleRate: Int(headers.sample_rate),
                                channels: Int(headers.channels), bitrateKilobits: Int(headers.bitrate_kbps),
                                codec: codec(headers.codec), bitsPerSample: Int(headers.bits_per_sample)))
        var picture: EmbeddedPicture?
        if let bytes = file.picture, file.picture_size > 0 {
            let type = withUnsafeBytes(of: file.picture_type) { raw in Array(raw.prefix { $0 != 0 }) }
            picture = EmbeddedPicture(bytes: Array(UnsafeBufferPointer(start: bytes, count: file.picture_size)), declaredType: type)
        }
        return (tags, picture)
    }

    /// The shim's codec (`RP_CODEC_*`); nil for one Reprise does not name.
    static func codec(_ value: Int32) -> AudioEncoding.Codec? {
        switch Int(value) {
        case Int(RP_CODEC_VORBIS): .vorbis
        case Int(RP_CODEC_OPUS): .opus
        case Int(RP_CODEC_FLAC): .flac
        case Int(RP_CODEC_MPEG): .mpeg
        case Int(RP_CODEC_AAC): .aac
        case Int(RP_CODEC_ALAC): .alac
        case Int(RP_CODEC_PCM): .pcm
        case Int(RP_CODEC_PCM_FLOAT): .pcmFloat
        case Int(RP_CODEC_WAVPACK): .wavPack
        case Int(RP_CODEC_WMA): .wma
        case Int(RP_CODEC_WMA_LOSSLESS): .wmaLossless
        case Int(RP_CODEC_SPEEX): .speex
        case Int(RP_CODEC_TTA): .trueAudio
        case Int(RP_CODEC_MONKEYS_AUDIO): .monkeysAudio
        default: nil
        }
    }

    /// Decodes the shim's records ([u32 length][bytes] for a key, then for its value, in turn), every length checked
    /// against what remains; a record that does not fit ends the list. Bytes that are not UTF-8 become U+FFFD. Keys
    /// are made upper case (as TagLib's are) unless `keysAsWritten`.
    static func records(_ buffer: UnsafeBufferPointer<UInt8>, keysAsWritten: Bool = false) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        var offset = 0
        func field() -> String? {
            guard buffer.count - offset >= 4 else { return nil }
            let length = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[offset..<offset + 4])).loadUnaligned(as: UInt32.self)
            offset += 4
            guard let count = Int(exactly: length), count <= buffer.count - offset else { return nil }
            defer { offset += count }
            return String(decoding: buffer[offset..<offset + count], as: UTF8.self)
        }
        while let key = field(), let value = field() {
            // TagLib's keys are upper case already; a key that is not is made so.
            result.append((!keysAsWritten && key.utf8.contains { (0x61...0x7A).contains($0) } ? key.uppercased() : key, value))
        }
        return result
    }
}
