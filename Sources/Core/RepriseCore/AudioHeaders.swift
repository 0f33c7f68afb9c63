/// What a file's headers say of its audio, as a tag reader found it (nothing decoded); 0 where unknown.
public struct AudioHeaders: Sendable, Equatable {
    public var lengthMilliseconds: Int64 = 0
    public var sampleRate = 0
    public var channels = 0
    public var bitrateKilobits = 0
    /// Nil for a codec Reprise does not name.
    public var codec: AudioEncoding.Codec?
    /// The bits of each sample where the headers say (lossless codecs).
    public var bitsPerSample = 0

    public init(lengthMilliseconds: Int64 = 0, sampleRate: Int = 0, channels: Int = 0, bitrateKilobits: Int = 0,
                codec: AudioEncoding.Codec? = nil, bitsPerSample: Int = 0) {
        self.lengthMilliseconds = lengthMilliseconds
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrateKilobits = bitrateKilobits
        self.codec = codec
        self.bitsPerSample = bitsPerSample
    }

    /// Reads a FLAC STREAMINFO block (34 bytes) as FLAC::Properties::read does, the bitrate over `audioBytes` (the
    /// file after its metadata). False when the block is short or the length or bitrate do not fit 32 bits.
    mutating func readStreamInfo(_ block: [UInt8], audioBytes: Int64) -> Bool {
        guard block.count >= 18 else { return false }
        let flags = PlainFLAC.bigEndian(block[10..<14])
        sampleRate = Int(flags >> 12)
        channels = Int((flags >> 9) & 7) + 1
        bitsPerSample = Int((flags >> 4) & 0x1F) + 1
        let frames = UInt64(flags & 0xF) << 32 | UInt64(PlainFLAC.bigEndian(block[14..<18]))
        guard frames > 0, sampleRate > 0 else { return true }
        let length = Double(frames) * 1000 / Double(sampleRate)
        let bitrate = Double(audioBytes) * 8 / length
        guard audioBytes >= 0, length + 0.5 <= Double(Int32.max), bitrate + 0.5 <= Double(Int32.max) else { return false }
        lengthMilliseconds = Int64(length + 0.5)
        bitrateKilobits = Int(bitrate + 0.5)
        return true
    }
}

extension FileTags {
    /// Takes the length, rate, channels, bitrate and encoding the headers give (each only where known).
    public mutating func apply(_ headers: AudioHeaders) {
        let (microseconds, overflow) = headers.lengthMilliseconds.multipliedReportingOverflow(by: 1000)
        lengthMicroseconds = headers.lengthMilliseconds > 0 && !overflow ? microseconds : nil
        sampleRate = headers.sampleRate > 0 ? headers.sampleRate : nil
        channels = headers.channels > 0 ? headers.channels : nil
        bitrateKilobits = headers.bitrateKilobits > 0 ? headers.bitrateKilobits : nil
        encoding = headers.codec.flatMap { codec in
            AudioEncoding(codec: codec, sampleRate: headers.sampleRate, channels: headers.channels,
                          bitsPerSample: headers.bitsPerSample > 0 ? headers.bitsPerSample : nil)
        }
    }
}

extension EmbeddedPicture {
    /// The longest media type kept, in bytes (the tag reader's reply has room for this many).
    public static let mediaTypeLimit = 39

    /// A picture whose tag claims `declaredType` (UTF-8, cut at ``mediaTypeLimit`` bytes; none: JPEG).
    public init(bytes: [UInt8], declaredType: some Collection<UInt8>) {
        let type = String(decoding: declaredType.prefix(Self.mediaTypeLimit), as: UTF8.self)
        self.init(bytes: bytes, mediaType: type.isEmpty ? "image/jpeg" : type)
    }
}
