import Testing
import RepriseCore

/// Finding a text by its bytes: where the standard library's regex-backed `contains(_:)` was used.
@Suite struct TextSearchTests {
    @Test func findsTheFirstOccurrenceByBytes() {
        let text = "http://a/b://c"
        let range = text.firstRange(ofText: "://")
        #expect(range.map { text[..<$0.lowerBound] } == "http")
        #expect(range.map { text[$0.upperBound...] } == "a/b://c")
        #expect(text.contains(text: "b://"))
        #expect(!text.contains(text: "://d"))
        #expect(!"ab".contains(text: "abc"), "a needle longer than the text")
        #expect("ab".contains(text: ""), "an empty needle is everywhere")
    }

    @Test func worksOnSubstringsAndNonASCIIText() {
        let text = "Ça va? <trackList> été"[...].dropFirst(7)
        #expect(text.firstRange(ofText: "<trackList").map { text.distance(from: text.startIndex, to: $0.lowerBound) } == 0)
        #expect("Blue Café".lowercased().contains(text: "café"))
        #expect(!"Blue Café".contains(text: "cafe"))
    }
}
