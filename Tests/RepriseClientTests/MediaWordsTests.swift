import Testing
@testable import RepriseClient

/// What ``MediaWords`` takes out of a command line before swift-argument-parser sees it.
@Suite struct MediaWordsTests {
    let verbs: Set<String> = ["serve", "add", "status", "play"]

    @Test func servingKeepsOptionsAndTheirValuesAndTakesTheMedia() {
        let split = MediaWords.split(["--category", "movie", "a.ogg", "--enqueue", "b.ogg", "--", "--odd.ogg"], verbs: verbs)
        #expect(split.kept == ["--category", "movie", "--enqueue"])
        #expect(split.media == ["a.ogg", "b.ogg", "--odd.ogg"])
    }

    @Test func addKeepsItsVerbAndItsOwnValueOptions() {
        let split = MediaWords.split(["add", "--artist", "Ann", "x.flac", "-"], verbs: verbs)
        #expect(split.kept == ["add", "--artist", "Ann"])
        #expect(split.media == ["x.flac", "-"])
    }

    @Test func otherVerbsAreLeftWhole() {
        let split = MediaWords.split(["status", "--player", "mpv"], verbs: verbs)
        #expect(split.kept == ["status", "--player", "mpv"] && split.media.isEmpty)
    }

    /// The parser's own options take words that are not media: `zsh` is a shell, not a file to play.
    @Test(arguments: [["--generate-completion-script", "zsh"], ["--generate-completion-script=fish"],
                      ["---completion", "add", "--", "x"], ["--experimental-dump-help"]])
    func theParsersOwnOptionsAreLeftWhole(_ words: [String]) {
        let split = MediaWords.split(words, verbs: verbs)
        #expect(split.kept == words && split.media.isEmpty)
    }

    @Test func twentyThousandWordsAreSplitInOnePass() {
        let files = (0..<20_000).map { "track\($0).ogg" }
        let split = MediaWords.split(["--enqueue"] + files, verbs: verbs)
        #expect(split.kept == ["--enqueue"] && split.media == files)
    }
}
