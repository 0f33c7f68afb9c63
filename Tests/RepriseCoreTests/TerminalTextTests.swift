import RepriseCore
import Testing

@Suite struct TerminalTextTests {
    @Test func controlsBecomeVisibleAndBidiControlsGo() {
        #expect(TerminalText.sanitized("\u{1B}]0;owned\u{07}Title") == "␛]0;owned␇Title")
        #expect(TerminalText.sanitized("a\u{9B}2Jb\u{7F}") == "a<U+009B>2Jb␡")
        #expect(TerminalText.sanitized("line\nnext\ttab") == "line␊next␉tab")
        #expect(TerminalText.sanitized("col\tumns", keepingTabs: true) == "col\tumns")
        #expect(TerminalText.sanitized("evil\u{202E}txt.mp3\u{2066}") == "eviltxt.mp3")
        #expect(TerminalText.sanitized("Beyoncé — 日本") == "Beyoncé — 日本")
    }

    @Test func cellsCountWideAndZeroWidthCharacters() {
        #expect(TerminalText.cells("abc") == 3)
        #expect(TerminalText.cells("日本語") == 6)
        #expect(TerminalText.cells("e\u{301}") == 1)          // e + combining acute
        #expect(TerminalText.cells("🎵x") == 3)
        #expect(TerminalText.cells("한국어") == 6)
        #expect(TerminalText.cells("ｆｕｌｌ") == 8)        // fullwidth Latin
    }

    @Test func fittingNeverSplitsAWideCharacterOrOverflows() {
        #expect(TerminalText.fitted("日本語のタイトル", 7) == "日本語…")
        #expect(TerminalText.cells(TerminalText.fitted("日本語のタイトル", 8)) <= 8)
        #expect(TerminalText.fitted("short", 10) == "short")
        #expect(TerminalText.fitted("exactly", 7) == "exactly")
        #expect(TerminalText.padded("日本", 6) == "日本  ")
    }
}
