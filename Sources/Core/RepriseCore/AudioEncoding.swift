/// How a file's audio is encoded, as its headers say (nothing decoded): the codec, the sample rate, the channels
/// and, for a lossless codec, the bits of each sample. What MPD clients see as a song's `Format`.
public struct AudioEncoding: Sendable, Equatable {
    public enum Codec: String, Sendable, CaseIterable {
        case vorbis, opus, flac, mpeg, aac, alac
        /// Integer PCM (WAV, AIFF).
        case pcm
        /// IEEE float PCM (WAV).
        case pcmFloat = "pcm-float"
        case wavPack = "wavpack"
        /// Windows Media Audio (lossy: 1, 2, Pro) and its lossless kind.
        case wma, wmaLossless = "wma-lossless"
        case speex
        case trueAudio = "tta"
        case monkeysAudio = "ape"
    }

    public var codec: Codec
    public var sampleRate: Int
    public var channels: Int
    /// The bits of each sample where the codec keeps them (lossless ones); nil for the others.
    public var bitsPerSample: Int?

    /// Nil unless the rate (1 Hz–1 MHz), the channels (1–255) and the bits (1–64) are ones an encoder writes: the
    /// values come from a file's headers.
    public init?(codec: Codec, sampleRate: Int, channels: Int, bitsPerSample: Int?) {
        guard (1...1_000_000).contains(sampleRate), (1...255).contains(channels),
              bitsPerSample.map({ (1...64).contains($0) }) ?? true else { return nil }
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
    }

    /// As the library's index keeps it: `CODEC:RATE:BITS:CHANNELS` (BITS empty when the codec keeps none).
    public var storedText: String {
        "\(codec.rawValue):\(sampleRate):\(bitsPerSample.map(String.init) ?? ""):\(channels)"
    }

    /// Reads ``storedText``; nil for anything else (the index is input like any file).
    public init?(storedText: String) {
        let parts = storedText.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, let codec = Codec(rawValue: String(parts[0])), let rate = Int(parts[1]),
              let channels = Int(parts[3]) else { return nil }
        let bits = parts[2].isEmpty ? nil : Int(parts[2])
        guard parts[2].isEmpty || bits != nil else { return nil }
        self.init(codec: codec, sampleRate: rate, channels: channels, bitsPerSample: bits)
    }
}

/// What a medium's file says of itself beside its tags: when it last changed and how its audio is encoded.
public struct FileFacts: Sendable, Equatable {
    /// Its last modification, in seconds since 1970 (UTC).
    public var modifiedSeconds: Int64?
    public var encoding: AudioEncoding?

    public init(modifiedSeconds: Int64? = nil, encoding: AudioEncoding? = nil) {
        self.modifiedSeconds = modifiedSeconds
        self.encoding = encoding
    }
}
