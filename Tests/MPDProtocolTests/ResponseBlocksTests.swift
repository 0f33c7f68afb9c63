import MPDProtocol
import Testing

/// A long reply built elsewhere (a listing made on a worker) joins a connection's replies as a block of its own:
/// what comes after it is written after it, and the reply it came from is left as it was.
@Suite struct ResponseBlocksTests {
    static func listing(songs: Int) -> MPDResponse {
        var reply = MPDResponse()
        for song in 0..<songs { reply.add("file", "Album \(song / 10)/\(song).flac") }
        return reply
    }

    @Test func aLongReplyKeepsItsPlaceAndIsNotChangedByWhatFollows() {
        let long = Self.listing(songs: 5_000)
        #expect(long.count >= MPDResponse.blockBytes)
        var output = MPDResponse()
        output.line("list_OK")
        output.append(long)
        output.line("OK")
        let expected = "list_OK\n" + String(decoding: long.bytes, as: UTF8.self) + "OK\n"
        #expect(output.count == expected.utf8.count)
        var blocks = output
        #expect(blocks.takeBlocks().map { String(decoding: $0, as: UTF8.self) }.joined() == expected)
        #expect(blocks.isEmpty && blocks.count == 0)
        #expect(String(decoding: output.take(), as: UTF8.self) == expected)
        #expect(String(decoding: long.bytes, as: UTF8.self).hasSuffix(".flac\n"), "the listing itself as it was built")
    }

    @Test func shortRepliesAndListingsOfLongOnesJoinInOrder() {
        var inner = MPDResponse()
        inner.append(Self.listing(songs: 4_000))
        inner.line("between")
        var output = MPDResponse()
        output.append(Self.listing(songs: 3)) // short: copied in
        output.append(inner) // its own blocks, then its short tail
        output.append(Self.listing(songs: 4_000))
        output.line("OK")
        let pieces = [Self.listing(songs: 3), Self.listing(songs: 4_000)].map { String(decoding: $0.bytes, as: UTF8.self) }
        let expected = pieces[0] + pieces[1] + "between\n" + pieces[1] + "OK\n"
        #expect(String(decoding: output.takeBlocks().reduce([], +), as: UTF8.self) == expected)
    }
}
