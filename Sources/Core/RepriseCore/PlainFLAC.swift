/// A plain FLAC file read from its metadata blocks exactly as TagLib 1.13 reads it (FLAC::File::scan,
/// FLAC::Properties::read, FLAC::Picture::parse, Ogg::XiphComment::parse), in the service: most of a library is such
/// files, and handing each to the tag reader process cost more than reading it. Only the simple case is taken —
/// "fLaC" at the start, STREAMINFO first, every block whole, one Vorbis comment with a value, no ID3 tag, pictures
/// only in PICTURE blocks, text that is valid UTF-8 without NUL — and anything else (nil) is left to TagLib in its
/// process, which has answers for the odd cases. Every length read from the file is checked against the block it is
/// in before it is used: hostile bytes give nil, never a trap.
public struct PlainFLAC: Sendable {
    /// The comment's fields as TagLib's property map gives them: keys upper case, each key's values together, keys
    /// in the order of their first value (the file's order), empty values dropped; values cut as ``Limits`` say.
    public var properties: [(key: String, value: String)] = []
    public var headers = AudioHeaders(codec: .flac)
    /// The front cover, else the first picture; nil when none (or larger than the limit).
    public var picture: EmbeddedPicture?

    /// What one file may give, as the tag reader process is asked for (its request's limits).
    public struct Limits: Sendable {
        public var pictureBytes: Int
        /// The longest key or value, in bytes; longer ones are cut there.
        public var valueBytes: Int
        /// The most values, all keys together.
        public var valueCount: Int
        public init(pictureBytes: Int, valueBytes: Int, valueCount: Int) {
            (self.pictureBytes, self.valueBytes, self.valueCount) = (pictureBytes, valueBytes, valueCount)
        }
    }

    /// The most blocks a file may have: real files have a handful; a crafted one with millions is TagLib's.
    static let maximumBlocks = 1024
    /// The part of the file read at once (where the blocks of nearly every file are).
    static let headSize = 4_096
    /// The most bytes read past the head: real files' blocks (a few covers of some MiB) are far below it; a crafted
    /// file of a thousand 16 MiB blocks is TagLib's, in its bounded process.
    static let readBudget = 64 << 20

    /// Reads a file of `size` bytes through `read` (`count` bytes at `offset`, all of them, or nil); nil when the
    /// file is not a plain FLAC file (or cannot be read).
    public static func read(size: Int64, limits: Limits, read: (_ offset: Int64, _ count: Int) -> [UInt8]?) -> PlainFLAC? {
        guard size >= 128 else { return nil }
        let head = read(0, Int(min(size, Int64(headSize)))) ?? []
        var budget = readBudget
        /// `count` bytes at `offset`, all within the file, or nil: from the head when they are in it.
        func bytes(_ offset: Int64, _ count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else { return nil }
            if offset + Int64(count) <= Int64(head.count) { return Array(head[Int(offset)..<Int(offset) + count]) }
            guard count <= budget, let bytes = read(offset, count), bytes.count == count else { return nil }
            budget -= count
            return bytes
        }
        // An ID3v1 tag at the end would take part in TagLib's answer (and its length in the bitrate).
        guard let end = bytes(size - 128, 3), end != Array("TAG".utf8),
              bytes(0, 4) == Array("fLaC".utf8) else { return nil }
        var comment = CommentFields()
        var streamInfo: [UInt8] = []
        var best: (picture: PictureBlock, front: Bool)?
        var next: Int64 = 4, sawComment = false, last = false, index = 0
        while !last {
            guard index < maximumBlocks, let header = bytes(next, 4) else { return nil }
            let type = header[0] & 0x7F, length = Int64(bigEndian(header[1...3]))
            last = header[0] & 0x80 != 0
            if index == 0 && (type != 0 || length != 34) { return nil }
            if type == 127 || (length == 0 && type != 1 && type != 3) { return nil }
            next += 4
            switch type {
            case 0 where index == 0:
                guard let block = bytes(next, Int(length)) else { return nil }
                streamInfo = block
            case 0:
                return nil // a second STREAMINFO
            case 4:
                guard !sawComment, let block = bytes(next, Int(length)), comment.parse(block) else {
                    return nil
                }
                sawComment = true
            case 6:
                guard let block = bytes(next, Int(length)), let picture = PictureBlock(block) else { return nil }
                let front = picture.type == 3
                // As TagLib's reader chooses: the first picture, replaced only by a later front cover.
                if !picture.data.isEmpty && (best == nil || (best?.front == false && front)) { best = (picture, front) }
            default:
                guard length <= size - next else { return nil } // a block past the end
            }
            next += length
            index += 1
        }
        guard sawComment, !comment.isEmpty, next <= size else { return nil } // no tags here: TagLib looks for others

        var file = PlainFLAC()
        guard file.headers.readStreamInfo(streamInfo, audioBytes: size - next) else { return nil }
        file.properties = comment.properties(limits)
        if let best, best.picture.data.count <= limits.pictureBytes {
            file.picture = EmbeddedPicture(bytes: Array(best.picture.data), declaredType: best.picture.mediaType)
        }
        return file
    }

    static func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }

    /// A PICTURE block as FLAC::Picture::parse reads it; nil when its lengths do not fit or its texts are not clean.
    struct PictureBlock {
        let type: UInt32
        let mediaType: ArraySlice<UInt8>
        let data: ArraySlice<UInt8>

        init?(_ block: [UInt8]) {
            guard block.count >= 32 else { return nil }
            type = bigEndian(block[0..<4])
            let mediaTypeLength = Int(bigEndian(block[4..<8]))
            var position = 8
            guard mediaTypeLength <= block.count - position - 24 else { return nil }
            mediaType = block[position..<position + mediaTypeLength]
            position += mediaTypeLength
            let descriptionLength = Int(bigEndian(block[position..<position + 4]))
            position += 4
            guard descriptionLength <= block.count - position - 20, PlainFLAC.isClean(mediaType),
                  PlainFLAC.isClean(block[position..<position + descriptionLength]) else { return nil }
            position += descriptionLength + 16 // the description, then width, height, colour depth, colours
            let dataLength = Int(bigEndian(block[position..<position + 4]))
            position += 4
            guard dataLength <= block.count - position else { return nil }
            data = block[position..<position + dataLength]
        }
    }

    /// Valid UTF-8 (as TagLib's decoder requires: no overlong forms, surrogates or code points past U+10FFFF) and
    /// no NUL (TagLib cuts a string there).
    static func isClean(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.contains(0) && (bytes.allSatisfy { $0 < 0x80 } || String(validating: bytes, as: UTF8.self) != nil)
    }
}

/// A Vorbis comment's fields as Ogg::XiphComment::parse keeps them (upper-case keys, each key's values), and the
/// order the values come in.
struct CommentFields {
    private var keys: [String] = []
    private var values: [[ArraySlice<UInt8>]] = []
    private var places: [String: Int] = [:]
    /// The key (its place in `keys`) of each value, in the comment's order.
    private var valueKeys: [Int] = []

    var isEmpty: Bool { keys.isEmpty }

    /// The most fields a comment read here may have: real ones have dozens, and a crafted one of millions of tiny
    /// fields would make as many keys in the service's memory (TagLib's process, which reads it then, is bounded).
    static let maximumFields = 16_384

    /// Up to this many keys, a key's place is found by comparing (a comment has a dozen); past it, by a table (a
    /// crafted one may have tens of thousands).
    static let keysFoundBySearch = 16

    private func place(of key: String) -> Int? {
        keys.count <= Self.keysFoundBySearch ? keys.firstIndex(of: key) : places[key]
    }

    /// Reads `block` (vendor string, count, fields). False (the file is TagLib's) when its lengths do not fit, it has
    /// more than ``maximumFields`` fields, a key has a NUL (TagLib cuts the key there), a picture is among the fields,
    /// or a value is not clean text. A field without "=", with an empty key or a key byte outside 0x20–0x7D is
    /// dropped, as TagLib drops it.
    mutating func parse(_ block: [UInt8]) -> Bool {
        guard block.count >= 8 else { return false }
        let vendorLength = Int(Self.littleEndian(block, at: 0))
        guard vendorLength <= block.count - 8 else { return false }
        var position = 4 + vendorLength
        let count = Int(Self.littleEndian(block, at: position))
        position += 4
        guard count <= (block.count - 8) / 4, count <= Self.maximumFields else { return false }
        for _ in 0..<count {
            guard block.count - position >= 4 else { return false }
            let length = Int(Self.littleEndian(block, at: position))
            position += 4
            guard length <= block.count - position else { return false }
            let entry = block[position..<position + length]
            position += length
            guard let separator = entry.firstIndex(of: UInt8(ascii: "=")), separator != entry.startIndex else { continue }
            let keyBytes = entry[..<separator]
            var validKey = true
            for byte in keyBytes {
                if byte == 0 { return false }
                if byte < 0x20 || byte > 0x7D { validKey = false }
            }
            guard validKey else { continue }
            let key = String(unsafeUninitializedCapacity: keyBytes.count) { buffer in
                for (offset, byte) in keyBytes.enumerated() { buffer[offset] = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte }
                return keyBytes.count
            }
            if key == "METADATA_BLOCK_PICTURE" || key == "COVERART" { return false }
            let value = entry[(separator + 1)...]
            guard PlainFLAC.isClean(value) else { return false }
            guard !value.isEmpty else { continue }
            if let place = place(of: key) {
                values[place].append(value)
                valueKeys.append(place)
            } else {
                valueKeys.append(keys.count)
                if keys.count == Self.keysFoundBySearch { places = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices)) }
                if keys.count >= Self.keysFoundBySearch { places[key] = keys.count }
                keys.append(key)
                values.append([value])
            }
        }
        return true
    }

    /// The fields as the tag reader's records give them, in the comment's order: keys and values cut at
    /// `limits.valueBytes` bytes, at most `limits.valueCount` values.
    func properties(_ limits: PlainFLAC.Limits) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        result.reserveCapacity(min(valueKeys.count, max(0, limits.valueCount)))
        var cutKeys: [String?] = Array(repeating: nil, count: keys.count)
        var nextValue = Array(repeating: 0, count: keys.count)
        for place in valueKeys {
            guard result.count < limits.valueCount else { break }
            let key = keys[place]
            let cutKey = cutKeys[place] ?? (key.utf8.count > limits.valueBytes ? String(decoding: key.utf8.prefix(limits.valueBytes), as: UTF8.self) : key)
            cutKeys[place] = cutKey
            let value = values[place][nextValue[place]]
            nextValue[place] += 1
            result.append((cutKey, String(decoding: value.prefix(max(0, limits.valueBytes)), as: UTF8.self)))
        }
        return result
    }

    static func littleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
