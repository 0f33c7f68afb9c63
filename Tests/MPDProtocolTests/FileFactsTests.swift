import MPDProtocol
import RepriseCore
import Testing

/// A song's `Format` and `Last-Modified`: the format MPD's decoders give each codec (each checked against Debian's
/// mpd by `MPDFileFactsTests`), written where MPD writes them.
@Suite struct FileFactsTests {
    func encoding(_ codec: AudioEncoding.Codec, _ rate: Int, _ channels: Int, bits: Int? = nil) -> AudioEncoding {
        AudioEncoding(codec: codec, sampleRate: rate, channels: channels, bitsPerSample: bits)!
    }

    @Test func formatsAsMPDsDecodersGiveThem() {
        let cases: [(AudioEncoding, String?)] = [
            (encoding(.vorbis, 22_050, 1), "22050:f:1"), (encoding(.aac, 44_100, 2), "44100:f:2"),
            (encoding(.pcmFloat, 44_100, 2, bits: 32), "44100:f:2"), (encoding(.opus, 48_000, 1), "48000:16:1"),
            (encoding(.mpeg, 22_050, 1), "22050:24:1"), (encoding(.flac, 96_000, 2, bits: 24), "96000:24:2"),
            (encoding(.flac, 44_100, 2, bits: 16), "44100:16:2"), (encoding(.flac, 44_100, 2, bits: 20), nil),
            (encoding(.wavPack, 44_100, 2, bits: 32), "44100:32:2"), (encoding(.pcm, 11_025, 1, bits: 8), "11025:16:1"),
            (encoding(.pcm, 48_000, 2, bits: 24), "48000:32:2"), (encoding(.alac, 44_100, 2, bits: 16), "44100:16:2"),
            (encoding(.pcm, 44_100, 2), nil),
        ]
        for (encoding, format) in cases { #expect(MPDSongWriter.format(of: encoding) == format, "\(encoding)") }
    }

    @Test func theIndexTextComesBackAndNothingElseReadsAsOne() {
        for stored in [encoding(.flac, 96_000, 2, bits: 24), encoding(.opus, 48_000, 6), encoding(.pcmFloat, 8_000, 1, bits: 32)] {
            #expect(AudioEncoding(storedText: stored.storedText) == stored)
        }
        for hostile in ["", "flac", "flac:44100:16", "mp9:44100::2", "flac:0::2", "flac:44100:16:0", "flac:44100:99:2",
                        "flac:99999999999999999999:16:2", "flac:44100:x:2", "flac:44100:16:2:1", "opus:-48000::2"] {
            #expect(AudioEncoding(storedText: hostile) == nil, "\(hostile)")
        }
    }

    @Test func writtenAfterTheNameBeforeTheTags() {
        var track = LibraryTrack(path: "/music/a.flac", title: "A", lengthMicroseconds: 2_000_000)
        track.fileFacts = FileFacts(modifiedSeconds: 1_764_307_445, encoding: encoding(.flac, 44_100, 2, bits: 16))
        var response = MPDResponse()
        MPDSongWriter(musicFolder: "/music").write(track, name: "a.flac", wanted: MPDWantedTags(["Title"]), into: &response)
        #expect(String(decoding: response.bytes, as: UTF8.self)
                == "file: a.flac\nLast-Modified: 2025-11-28T05:24:05Z\nFormat: 44100:16:2\nTitle: A\nTime: 2\nduration: 2.000\n")
    }
}
