import Glibc
import HTTPKit
import RepriseCore

/// Sends requests to a ListenBrainz server: reads the token file before each request (so a new token takes
/// effect without a restart) and posts. Blocking: used on the scrobbler's network worker only.
struct ListenSender: Sendable {
    let server: String
    let tokenPath: String

    /// What came of one request: the outcome and the rate-limit wait the headers asked for.
    struct Result: Sendable {
        let outcome: ListenBrainz.Outcome
        let rateLimitWait: Double?
    }

    func send(_ body: String) -> Result {
        let token: String
        switch TokenFile.read(tokenPath) {
        case .success(let value): token = value
        case .failure(let problem): return Result(outcome: .retry(afterSeconds: nil, reason: problem.message), rateLimitWait: nil)
        }
        let answer = HTTPClient.post(ListenBrainz.submitURL(base: server),
                                     headers: ["Authorization: Token \(token)", "Content-Type: application/json"],
                                     body: Array(body.utf8), userAgent: "Reprise/\(RepriseVersion.current)")
        switch answer {
        case .success(let answer):
            return Result(outcome: ListenBrainz.outcome(status: answer.status, headers: answer.headers, body: answer.body),
                          rateLimitWait: ListenBrainz.rateLimitWait(answer.headers))
        case .failure(let failure):
            return Result(outcome: .retry(afterSeconds: nil, reason: failure.message), rateLimitWait: nil)
        }
    }
}

/// The ListenBrainz user token, kept in a file of its own that only its owner can read (mode 0600 or stricter):
/// a token in a file others can read is refused, as ssh refuses such a key.
enum TokenFile {
    struct Problem: Error { let message: String }

    static func read(_ path: String) -> Swift.Result<String, Problem> {
        let descriptor = RawPath.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW) }
        guard descriptor >= 0 else {
            return .failure(Problem(message: errno == ENOENT ? "no token file at \(path)" : "token file \(path) cannot be opened (errno \(errno))"))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Problem(message: "token file \(path) is not a regular file"))
        }
        guard info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            return .failure(Problem(message: "token file \(path) can be read by others: chmod 600 it"))
        }
        guard info.st_size <= 4096 else { return .failure(Problem(message: "token file \(path) is larger than 4 KiB")) }
        var bytes = [UInt8](repeating: 0, count: 4097)
        var length = 0
        while length < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            length += count
        }
        let token = String(decoding: bytes[..<length], as: UTF8.self).trimmingWhitespace()
        guard !token.isEmpty, length <= 4096,
              token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            return .failure(Problem(message: "token file \(path) holds no token (one line of printable ASCII)"))
        }
        return .success(token)
    }
}
