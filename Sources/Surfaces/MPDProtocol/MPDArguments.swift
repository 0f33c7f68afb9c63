import RepriseCore

/// MPD's argument forms: numbers, booleans, positions and `START:END` ranges, refused as MPD refuses them.
enum MPDArguments {
    static func integer(_ text: String) throws(MPDError) -> Int {
        guard let value = Int(text) else { throw .argument("Integer expected: \(text)") }
        return value
    }

    static func unsigned(_ text: String) throws(MPDError) -> Int {
        let value = try integer(text)
        guard value >= 0 else { throw .argument("Number is negative: \(text)") }
        return value
    }

    static func bool(_ text: String) throws(MPDError) -> Bool {
        switch text {
        case "0": false
        case "1": true
        default: throw .argument("Boolean (0/1) expected: \(text)")
        }
    }

    /// Seconds, fractional allowed; finite and at most a year.
    static func seconds(_ text: String) throws(MPDError) -> Double {
        guard let value = Double(text), value.isFinite, abs(value) <= 366 * 86_400 else { throw .argument("Float expected: \(text)") }
        return value
    }

    /// An optional range argument: every position when absent.
    static func range(_ text: String?, count: Int) throws(MPDError) -> Range<Int> {
        guard let text else { return 0..<count }
        return try range(text, count: count)
    }

    /// `N` (one position) or `START:END` (END excluded; missing: to the end of `count`), within `0...count`.
    static func range(_ text: String, count: Int) throws(MPDError) -> Range<Int> {
        guard let colon = text.firstIndex(of: ":") else {
            let position = try unsigned(text)
            guard position < count else { throw .argument("Bad song index") }
            return position..<(position + 1)
        }
        let start = try unsigned(String(text[..<colon]))
        let endText = String(text[text.index(after: colon)...])
        let end = endText.isEmpty ? count : try unsigned(endText)
        guard start <= end else { throw .argument("Bad song index") }
        guard end <= count, start <= count else { throw .argument("Bad song index") }
        return start..<end
    }

    /// `rangeid`'s `START:END` in seconds, fractional, each side optional (missing: the start, the end); both missing:
    /// the whole song (nil). Read to the millisecond, as MPD reads it; an end not after the start is a bad range.
    static func timeRange(_ text: String) throws(MPDError) -> PlayRange? {
        guard let colon = text.firstIndex(of: ":") else { throw .argument("Bad range") }
        func milliseconds(_ part: Substring) -> Int64?? {
            if part.isEmpty { return .some(nil) }
            guard part.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let seconds = Double(part),
                  seconds.isFinite, seconds < 4_294_967 else { return nil }
            return .some(Int64((seconds * 1000).rounded(.down)))
        }
        guard let start = milliseconds(text[..<colon]), let end = milliseconds(text[text.index(after: colon)...]) else {
            throw .argument("Bad range")
        }
        let startMicroseconds = (start ?? 0) * 1000
        let endMicroseconds = end.flatMap { $0 > 0 ? $0 * 1000 : nil }
        if let endMicroseconds, endMicroseconds <= startMicroseconds { throw .argument("Bad range") }
        return PlayRange(startMicroseconds: startMicroseconds, endMicroseconds: endMicroseconds)
    }
}
