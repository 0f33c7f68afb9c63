import RepriseCore
import Testing

/// LRC and plain lyrics: stamps, offsets, word times, ID tags, order, and what hostile files make of them.
@Suite struct LyricsTests {
    func parse(_ text: String) -> Lyrics? {
        try? LRC.parse(text: text, source: .sidecar).get()
    }

    @Test func syncedLinesInTimeOrderWithoutStampsOrWordTimes() throws {
        let lyrics = try #require(parse("""
            [ar:Someone]
            [ti:A Song]
            [length: 03:10]
            [00:12.00]First line
            [00:17.20]<00:17.20>Second <00:17.80>line <00:18.40>with words
            [00:21.10][01:05.30]The chorus, twice
            [00:30.5]Short fraction
            [00:40:25]Colon fraction
            [00:50]No fraction
            [1:00:00.00]An hour in
            """))
        #expect(lyrics.isSynced)
        #expect(lyrics.lines.map(\.text) == ["First line", "Second line with words", "The chorus, twice", "Short fraction",
                                             "Colon fraction", "No fraction", "The chorus, twice", "An hour in"])
        #expect(lyrics.lines.map(\.startMicroseconds) == [12_000_000, 17_200_000, 21_100_000, 30_500_000, 40_250_000,
                                                          50_000_000, 65_300_000, 3_600_000_000])
        #expect(!lyrics.plainText.contains("[") && !lyrics.plainText.contains("<"))
        #expect(lyrics.lineIndex(at: 0) == nil && lyrics.lineIndex(at: 12_000_000) == 0 && lyrics.lineIndex(at: 20_000_000) == 1)
        #expect(lyrics.lineIndex(at: 99_000_000_000) == 7)
        #expect(lyrics.nextLineStart(after: 0) == 12_000_000 && lyrics.nextLineStart(after: 12_500_000) == 17_200_000)
        #expect(lyrics.nextLineStart(after: 3_600_000_000) == nil)
    }

    @Test func theOffsetShiftsEveryLineAndNothingGoesBelowZero() throws {
        let earlier = try #require(parse("[offset:+500]\n[00:00.20]a\n[00:10.00]b"))
        #expect(earlier.lines.map(\.startMicroseconds) == [0, 9_500_000])
        let later = try #require(parse("[offset:-1500]\r\n[00:10.00]b\r\n"))
        #expect(later.lines.map(\.startMicroseconds) == [11_500_000])
    }

    @Test func plainTextIsUnsyncedLines() throws {
        let lyrics = try #require(parse("\n\nOne\r\nTwo\rThree\n\n"))
        #expect(!lyrics.isSynced && lyrics.lines.map(\.text) == ["One", "Two", "Three"])
        // Bracketed words of the lyrics themselves are kept; only LRC's ID tags go.
        let annotated = try #require(parse("[ar:Band]\n[Chorus]\n[Hook: Someone]\nWords"))
        #expect(annotated.lines.map(\.text) == ["[Chorus]", "[Hook: Someone]", "Words"])
        #expect(lyrics.plainText == "One\nTwo\nThree" && lyrics.lineIndex(at: 5_000_000) == nil)
        #expect(lyrics.nextLineStart(after: 0) == nil)
    }

    @Test func hostileLyricsAreBoundedOrRefused() throws {
        // Out of order, negative, huge (overflowing) stamps.
        let odd = try #require(parse("[00:30.00]c\n[-00:05.00]negative\n[999999999999:00.00]huge\n[00:10.00]a\n[00:20.00]b"))
        #expect(odd.lines.map(\.text) == ["negative", "a", "b", "c"])
        #expect(odd.lines.first?.startMicroseconds == 0)
        #expect(LRC.time(ArraySlice("922337203685:00.00".utf8)) == .some(nil))
        // Binary, too large, too many lines, nothing in it.
        #expect(LRC.parse([0x00, 0x01, 0xFF, 0x5B], source: .sidecar) == .failure(.notText))
        let large = [UInt8](repeating: 0x41, count: LRC.maximumBytes + 1)
        #expect(LRC.parse(large, source: .sidecar) == .failure(.tooLarge(bytes: large.count)))
        let many = [UInt8](String(repeating: "[00:01.00]x\n", count: LRC.maximumLines + 1).utf8)
        #expect(LRC.parse(many, source: .sidecar) == .failure(.tooManyLines))
        let stamps = [UInt8](String(repeating: "[00:01.00]", count: LRC.maximumLines + 1).utf8)
        #expect(LRC.parse(stamps, source: .sidecar) == .failure(.tooManyLines), "many stamps on one line count too")
        #expect(LRC.parse(Array("[ar:a]\n\n[ti:b]\n".utf8), source: .sidecar) == .failure(.empty))
        // Bad UTF-8 replaced; escape sequences kept as text here (the terminal's sanitiser shows them as pictures).
        let bad = try #require(try? LRC.parse([0x5B, 0x30, 0x30, 0x3A, 0x30, 0x31, 0x5D, 0xC3, 0x28, 0x1B, 0x5D, 0x32], source: .embedded).get())
        #expect(bad.lines.first?.text == "\u{FFFD}(\u{1B}]2")
        #expect(TerminalText.sanitized(bad.plainText) == "\u{FFFD}(\u{241B}]2")
        // Unclosed brackets and angle brackets that are no times stay text.
        let unclosed = try #require(parse("[00:01.00]<b>bold</b> [not closed"))
        #expect(unclosed.lines.first?.text == "<b>bold</b> [not closed")
    }

    /// Word times are found in time linear in the line: 200 KB of `<` with no `>` kept the lyrics worker busy for
    /// 20 s (each `<` scanned to the line's end), and a file at the size limit for hours.
    @Test func angleBracketsWithoutAnEndAreReadInLinearTime() throws {
        let opened = [UInt8](repeating: UInt8(ascii: "<"), count: 200_000)
        let lyrics = try #require(try? LRC.parse(Array("[00:01.00]".utf8) + opened, source: .sidecar).get())
        #expect(lyrics.lines.first?.text.utf8.count == opened.count)
        // The same with a word time at the very end: only it is taken out.
        let timed = try #require(try? LRC.parse(Array("[00:01.00]".utf8) + opened + Array("00:01.50>word <00:02.00>two".utf8),
                                                source: .sidecar).get())
        #expect(timed.lines.first?.text == String(repeating: "<", count: opened.count - 1) + "word two")
        // At the file limit: refused for its size of text, at once.
        let whole = [UInt8](repeating: UInt8(ascii: "<"), count: LRC.maximumBytes)
        #expect(LRC.parse(whole, source: .sidecar) == .failure(.tooLarge(bytes: LRC.maximumBytes + 1)))
        let bracketed = Array(String(repeating: "<0:0<1:1.5 [", count: 300_000).utf8)
        #expect((try? LRC.parse(bracketed + Array(">".utf8), source: .sidecar).get()) == nil)
    }

    @Test func utf16WithAByteOrderMark() throws {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "[00:02.00]Grüße".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let lyrics = try LRC.parse(bytes, source: .sidecar).get()
        #expect(lyrics.lines == [Lyrics.Line(startMicroseconds: 2_000_000, text: "Grüße")])
    }

    /// Random bytes drawn mostly from LRC's own alphabet: never a trap, lines always in time order, text bounded.
    @Test func randomInputIsAlwaysHandled() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("[]<>:.-+0123456789offsetar \n\r\u{1B}é".utf8) + [0xFF, 0xC3, 0x00]
        for round in 0..<3_000 {
            let count = Int.random(in: 0...(round % 10 == 0 ? 4_000 : 200), using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            guard case .success(let lyrics) = LRC.parse(bytes, source: .sidecar) else { continue }
            let starts = lyrics.lines.compactMap(\.startMicroseconds)
            #expect(starts == starts.sorted() && starts.allSatisfy { $0 >= 0 })
            #expect(starts.isEmpty || starts.count == lyrics.lines.count)
            #expect(lyrics.plainText.utf8.count <= LRC.maximumTextBytes)
        }
    }
}
