import CHTTPShim
import Glibc

/// An HTTP answer: the status, the last response's headers and the body (at most the size asked for).
public struct HTTPAnswer: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]
}

/// Why no answer came: refused, timed out, unreachable, too long, or libcurl missing.
public struct HTTPFailure: Error, Sendable, Equatable {
    public let message: String
}

/// HTTP POSTs over libcurl (loaded on first use, not at start). Every call blocks until the answer or the
/// timeout: call it from a worker, never from the event loop.
public enum HTTPClient {
    /// Whether requests can be made at all (nil), or why not.
    public static var unavailableReason: String? {
        var why = [CChar](repeating: 0, count: 256)
        return rp_http_available(&why, why.count) != 0 ? nil : String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// POSTs `body` to `url`. Header lines must not contain CR or LF (they are refused).
    public static func post(_ url: String, headers: [String], body: [UInt8], userAgent: String,
                            connectTimeoutSeconds: Int = 10, totalTimeoutSeconds: Int = 30,
                            maximumBodyBytes: Int = 65_536) -> Result<HTTPAnswer, HTTPFailure> {
        guard !url.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) else { return .failure(HTTPFailure(message: "bad address")) }
        guard headers.allSatisfy({ !$0.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) }) else {
            return .failure(HTTPFailure(message: "a header line contains a line break"))
        }
        var answer = rp_http_answer()
        let cHeaders = headers.map { strdup($0) }
        defer { cHeaders.forEach { free($0) } }
        let code = cHeaders.map { UnsafePointer<CChar>($0) }.withUnsafeBufferPointer { lines in
            body.withUnsafeBytes { bytes in
                rp_http_post(url, lines.baseAddress, lines.count, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                             bytes.count, userAgent, connectTimeoutSeconds, totalTimeoutSeconds, maximumBodyBytes, &answer)
            }
        }
        defer { rp_http_answer_free(&answer) }
        guard code == 0 else {
            let message = withUnsafeBytes(of: answer.error) { Array($0.prefix { $0 != 0 }) }
            return .failure(HTTPFailure(message: String(decoding: message, as: UTF8.self)))
        }
        let received = answer.body.map { Array(UnsafeBufferPointer(start: $0, count: answer.body_length)) } ?? []
        let headerText = answer.headers.map { pointer in
            String(decoding: UnsafeRawBufferPointer(start: pointer, count: answer.headers_length), as: UTF8.self)
        } ?? ""
        return .success(HTTPAnswer(status: answer.status, headers: parseHeaders(headerText), body: received))
    }

    /// "Name: value" lines after the status line; folded or malformed lines are skipped.
    static func parseHeaders(_ text: String) -> [(name: String, value: String)] {
        text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else { return nil }
            let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            return (String(line[..<colon]), String(value))
        }
    }
}
