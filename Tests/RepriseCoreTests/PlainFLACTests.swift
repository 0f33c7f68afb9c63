@testable import RepriseCore
import Testing

/// ``PlainFLAC`` on files made in memory: what it reads of a well-formed file, and that hostile bytes give nil or a
/// bounded answer, never a trap. (That it answers as TagLib does is `PlainFLACReaderTests`, with TagLib beside it.)
@Suite struct PlainFLACTests {
    static func littleEndian(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] { (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func comment(_ fields: [String]) -> [UInt8] {
        let vendor = Array("reference libFLAC".utf8)
        return littleEndian(vendor.count) + vendor + littleEndian(fields.count)
            + fields.flatMap { littleEndian($0.utf8.count) + Array($0.utf8) }
    }

    static func picture(type: Int, mediaType: String, bytes: [UInt8]) -> [UInt8] {
        bigEndian(type, 4) + bigEndian(mediaType.utf8.count, 4) + Array(mediaType.utf8) + bigEndian(0, 4)
            + [UInt8](repeating: 0, count: 16) + bigEndian(bytes.count, 4) + bytes
    }

    /// STREAMINFO for 44.1 kHz stereo 16-bit, `frames` samples long.
    static func streamInfo(frames: Int) -> [UInt8] {
        let flags = 44_100 << 12 | 1 << 9 | 15 << 4 | (frames >> 32 & 0xF)
        return [UInt8](repeating: 0, count: 10) + bigEndian(flags, 4) + bigEndian(frames & 0xFFFF_FFFF, 4) + [UInt8](repeating: 0, count: 16)
    }

    static func file(_ blocks: [(type: UInt8, body: [UInt8])], audio: Int = 4000) -> [UInt8] {
        var bytes = Array("fLaC".utf8)
        for (index, block) in blocks.enumerated() {
            bytes += [block.type | (index == blocks.count - 1 ? 0x80 : 0)] + bigEndian(block.body.count, 3) + block.body
        }
        return bytes + [UInt8](repeating: 0x55, count: audio)
    }

    static func read(_ bytes: [UInt8], limits: PlainFLAC.Limits = .init(pictureBytes: 1 << 20, valueBytes: 1 << 20, valueCount: 4096))
        -> PlainFLAC? {
        PlainFLAC.read(size: Int64(bytes.count), limits: limits) { offset, count in
            guard offset >= 0, count >= 0, offset <= Int64(bytes.count), Int64(count) <= Int64(bytes.count) - offset else { return nil }
            return Array(bytes[Int(offset)..<Int(offset) + count])
        }
    }

    static let sample = file([
        (0, streamInfo(frames: 88_200)),
        (4, comment(["title=Song", "ARTIST=One", "Album=Record", "artist=Two", "EMPTY=", "=nokey", "NOSEPARATOR"])),
        (6, picture(type: 4, mediaType: "image/png", bytes: [1, 2, 3])),
        (6, picture(type: 3, mediaType: "image/jpeg", bytes: [4, 5])),
        (1, [UInt8](repeating: 0, count: 8192)),
    ])

    @Test func readsTagsPropertiesAndTheFrontCover() throws {
        let file = try #require(Self.read(Self.sample))
        #expect(file.properties.map { "\($0.key)=\($0.value)" } == ["TITLE=Song", "ARTIST=One", "ALBUM=Record", "ARTIST=Two"],
                "in the comment's order")
        #expect(file.headers.lengthMilliseconds == 2000)
        #expect(file.headers.sampleRate == 44_100 && file.headers.channels == 2 && file.headers.bitsPerSample == 16)
        #expect(file.headers.bitrateKilobits == 16) // 4,000 bytes of audio over 2 s
        #expect(file.picture == EmbeddedPicture(bytes: [4, 5], mediaType: "image/jpeg"))
    }

    @Test func limitsCutValuesCountThemAndLeaveOutLargePictures() throws {
        let file = try #require(Self.read(Self.sample, limits: .init(pictureBytes: 1, valueBytes: 3, valueCount: 3)))
        #expect(file.properties.map { "\($0.key)=\($0.value)" } == ["TIT=Son", "ART=One", "ALB=Rec"])
        #expect(file.picture == nil)
    }

    @Test func leavesToTagLibWhatIsNotPlain() {
        let withID3v1 = Array(Self.sample[..<(Self.sample.count - 128)]) + Array("TAG".utf8) + [UInt8](repeating: 0, count: 125)
        let notFLAC = Array("OggS".utf8) + Self.sample.dropFirst(4)
        let pictureField = Self.file([(0, Self.streamInfo(frames: 10)), (4, Self.comment(["TITLE=x", "METADATA_BLOCK_PICTURE=AAAA"]))])
        let notUTF8 = Self.file([(0, Self.streamInfo(frames: 10)), (4, Self.littleEndian(0) + Self.littleEndian(1) + Self.littleEndian(8)
                                                                      + Array("TITLE=".utf8) + [0xC0, 0xAF])])
        let noComment = Self.file([(0, Self.streamInfo(frames: 10)), (1, [0, 0])])
        let streamInfoLater = Self.file([(4, Self.comment(["TITLE=x"])), (0, Self.streamInfo(frames: 10))])
        for bytes in [withID3v1, notFLAC, pictureField, notUTF8, noComment, streamInfoLater, Array(Self.sample.prefix(100))] {
            #expect(Self.read(bytes) == nil)
        }
    }

    /// A file of a thousand 16 MiB picture blocks (made as it is read, zeros but for the block headers): it is left
    /// to TagLib once the reading passes ``PlainFLAC/readBudget``, not read to its end.
    @Test func aFileOfHugeBlocksIsLeftOnceTheBudgetIsSpent() {
        let blockLength = (1 << 24) - 1
        let start = Self.file([(0, Self.streamInfo(frames: 10)), (4, Self.comment(["TITLE=x"]))], audio: 0)
        let headers = (0..<1000).map { index in
            (offset: start.count + index * (4 + blockLength), bytes: [UInt8(6) | (index == 999 ? 0x80 : 0)] + Self.bigEndian(blockLength, 3))
        }
        var fileStart = start
        fileStart[4 + 4 + 34] &= 0x7F // the comment is no longer the last block
        let size = start.count + 1000 * (4 + blockLength) + 1000
        var asked = 0
        let file = PlainFLAC.read(size: Int64(size), limits: .init(pictureBytes: 1 << 24, valueBytes: 100, valueCount: 100)) { offset, count in
            asked += count
            var bytes = [UInt8](repeating: 0, count: count)
            for (index, byte) in fileStart.enumerated() where Int64(index) >= offset && Int64(index) < offset + Int64(count) {
                bytes[index - Int(offset)] = byte
            }
            for header in headers where Int64(header.offset) >= offset && Int64(header.offset) + 4 <= offset + Int64(count) {
                for (index, byte) in header.bytes.enumerated() { bytes[header.offset - Int(offset) + index] = byte }
            }
            return bytes
        }
        #expect(file == nil)
        #expect(asked > PlainFLAC.readBudget - (1 << 24), "read until the budget, not given up before")
        #expect(asked <= PlainFLAC.readBudget + PlainFLAC.headSize + 4 * 1000 + 128)
    }

    /// Damaged copies — bytes changed (lengths and counts among them, often to their largest), cut short or lengthened
    /// — give nil or an answer within the limits; none traps, and none is read past its end.
    @Test func damagedFilesNeverTrap() {
        var generator = SplitMixGenerator(seed: 69)
        let limits = PlainFLAC.Limits(pictureBytes: 64, valueBytes: 16, valueCount: 8)
        var taken = 0
        for _ in 0..<20_000 {
            var bytes = Self.sample
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let at = Int(generator.next() % UInt64(400))
                switch generator.next() % 4 {
                case 0: bytes[at] = 0xFF
                case 1: bytes[at] = 0
                case 2: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                default: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                }
            }
            if generator.next() % 8 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
            guard let file = Self.read(bytes, limits: limits) else { continue }
            taken += 1
            #expect(file.properties.count <= limits.valueCount)
            #expect(file.properties.allSatisfy { $0.key.utf8.count <= 16 * 3 && $0.value.utf8.count <= 16 * 3 })
            #expect((file.picture?.bytes.count ?? 0) <= limits.pictureBytes)
        }
        #expect(taken > 1000, "changed bytes in values and padding still read")
    }
}
