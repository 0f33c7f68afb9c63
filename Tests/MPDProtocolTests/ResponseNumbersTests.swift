import MPDProtocol
import Testing

/// Numbers written straight into a reply, digit by digit, read as MPD writes them: integers of every width and
/// sign (a file's size, an id, a hostile count), and seconds with three decimals, rounded, never negative.
@Suite struct ResponseNumbersTests {
    static func text(_ build: (inout MPDResponse) -> Void) -> String {
        var response = MPDResponse()
        build(&response)
        return String(decoding: response.bytes, as: UTF8.self)
    }

    @Test func integersOfEveryWidthAndSign() {
        #expect(Self.text { $0.add("a", 0) } == "a: 0\n")
        #expect(Self.text { $0.add("a", 7) } == "a: 7\n")
        #expect(Self.text { $0.add("a", 1_000_000) } == "a: 1000000\n")
        #expect(Self.text { $0.add("a", -42) } == "a: -42\n")
        #expect(Self.text { $0.add("a", Int64.max) } == "a: \(Int64.max)\n")
        #expect(Self.text { $0.add("a", Int64.min) } == "a: \(Int64.min)\n")
        #expect(Self.text { $0.add("a", UInt64.max) } == "a: \(UInt64.max)\n")
        #expect(Self.text { $0.add("a", UInt8(255)) } == "a: 255\n")
        for value in [9, 10, 99, 100, 12_345, 99_999_999_999] {
            #expect(Self.text { $0.add("n", value) } == "n: \(value)\n")
        }
    }

    @Test func secondsWithThreeDecimals() {
        #expect(Self.text { $0.add("elapsed", seconds: 0) } == "elapsed: 0.000\n")
        #expect(Self.text { $0.add("elapsed", seconds: 1.5) } == "elapsed: 1.500\n")
        #expect(Self.text { $0.add("elapsed", seconds: 12.0456) } == "elapsed: 12.046\n")
        #expect(Self.text { $0.add("elapsed", seconds: 0.0004) } == "elapsed: 0.000\n")
        #expect(Self.text { $0.add("elapsed", seconds: 59.9996) } == "elapsed: 60.000\n")
        #expect(Self.text { $0.add("elapsed", seconds: -3) } == "elapsed: 0.000\n")
        #expect(Self.text { $0.add("elapsed", seconds: .nan) } == "elapsed: 0.000\n")
        #expect(Self.text { $0.add("elapsed", seconds: .infinity) } == "elapsed: 0.000\n")
        #expect(Self.text { $0.add("elapsed", seconds: 1e300) } == "elapsed: 9200000000000000.000\n")
    }
}
