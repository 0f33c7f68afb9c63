import Testing
@testable import RepriseCore

@Suite struct RawPathTests {
    @Test func everyByteSequenceRoundTrips() {
        let samples: [[UInt8]] = [Array("plain/é/日本.ogg".utf8), [0x63, 0x61, 0x66, 0xE9], [0xC3], [0xE2, 0x82], [0xF5, 0x80, 0x80, 0x80],
                                  [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xFF, 0xFE, 0x41], Array(0...255).map(UInt8.init)]
        for bytes in samples {
            #expect(RawPath.bytes(of: RawPath.string(fromBytes: bytes)) == bytes, "\(bytes)")
        }
        var generator = SplitMixGenerator(seed: 7)
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(RawPath.bytes(of: RawPath.string(fromBytes: bytes)) == bytes)
        }
    }

    @Test func shownLosslessWhereValidAndAsReplacementElsewhere() {
        let name = RawPath.string(fromBytes: [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6F, 0x67, 0x67])
        #expect(RawPath.displayed(name) == "caf\u{FFFD}.ogg")
        #expect(TerminalText.sanitized(name) == "caf\u{FFFD}.ogg")
        #expect(MediaURI.file(path: "/m/" + name) == "file:///m/caf%E9.ogg")
        #expect(MediaURI("file:///m/caf%E9.ogg")?.path == "/m/" + name)
        #expect(RawPath.string(fromBytes: Array("Beyoncé".utf8)) == "Beyoncé")
    }
}

/// The library's path type: bytes in, the same bytes out; its folder, URI and display form.
@Suite struct FilePathTests {
    @Test func aLatin1PathKeepsItsBytes() {
        let bytes: [UInt8] = Array("/m/".utf8) + [0xC9] + Array("t".utf8) + [0xE9] + Array("/caf".utf8) + [0xE9] + Array(".ogg".utf8)
        let path = FilePath(bytes: bytes)
        #expect(path.bytes == bytes)
        #expect(FilePath(escaped: path.escaped) == path)
        #expect(path.uri == "file:///m/%C9t%E9/caf%E9.ogg")
        #expect(path.displayed == "/m/\u{FFFD}t\u{FFFD}/caf\u{FFFD}.ogg")
        #expect(path.folder == FilePath(bytes: Array("/m/".utf8) + [0xC9] + Array("t".utf8) + [0xE9]))
        #expect(path.isInside("/m") && path.isInside(path.folder) && !path.isInside("/m/É"))
        #expect(FilePath("/a.ogg").folder == "/" && FilePath("/m2/x").isInside("/m") == false)
    }
}
