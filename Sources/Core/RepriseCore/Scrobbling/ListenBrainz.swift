/// The ListenBrainz API as far as a player needs it (`POST /1/submit-listens`): the requests' bodies, and what
/// an answer means for the queue — accepted, try again later (and when), the token refused, the listens refused.
/// Maloja, Koito and self-hosted ListenBrainz servers take the same requests under their own base URL.
public enum ListenBrainz {
    public static let defaultURL = "https://api.listenbrainz.org"
    /// Listens per request: well under the API's 1,000, so one answer never waits on a huge body.
    public static let batchSize = 100
    /// The longest wait a server's headers can ask for (a day); a larger or absurd value is taken as this.
    public static let longestWaitSeconds = 86_400.0

    /// The submission address under `base` (`https://api.listenbrainz.org`, `http://host:port/apis/listenbrainz`).
    public static func submitURL(base: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/1/submit-listens"
    }

    /// Whether `url` can be a server's base: http or https, a host, no spaces or controls.
    public static func isValidBase(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.utf8.count <= 2048 else { return false }
        let rest = url.drop { $0 != ":" }.dropFirst(3)
        return !rest.isEmpty && !rest.hasPrefix("/") && url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    /// "Playing now": the track, no time.
    public static func playingNowBody(_ listen: Listen, version: String = RepriseVersion.current) -> String {
        var item = listen.json(client: "Reprise", version: version)
        if case .object(let fields) = item { item = .object(fields.filter { $0.0 != "listened_at" }) }
        return JSON.object([("listen_type", .string("playing_now")), ("payload", .array([item]))]).text
    }

    /// Listens heard: `single` for one, `import` for several.
    public static func submitBody(_ listens: [Listen], version: String = RepriseVersion.current) -> String {
        JSON.object([("listen_type", .string(listens.count == 1 ? "single" : "import")),
                     ("payload", .array(listens.map { $0.json(client: "Reprise", version: version) }))]).text
    }

    public enum Outcome: Equatable, Sendable {
        case accepted
        /// Not now: the server is down, busy or answered oddly; try again after `seconds` (nil: back off).
        case retry(afterSeconds: Double?, reason: String)
        /// The token was refused (401, 403): nothing is sent until the token or the settings change.
        case tokenRefused(reason: String)
        /// The listens themselves were refused (400, 413): sent one by one, a refused single one is dropped.
        case listensRefused(reason: String)
    }

    /// What an answer means. `headers` are the last response's (names in any case).
    public static func outcome(status: Int, headers: [(name: String, value: String)], body: [UInt8]) -> Outcome {
        let message = errorMessage(body)
        switch status {
        case 200:
            guard let value = JSONValue(parsing: body), value["status"]?.string == "ok" else {
                return .retry(afterSeconds: nil, reason: "the server answered 200 without status ok")
            }
            return .accepted
        case 401, 403: return .tokenRefused(reason: "token refused (\(status))" + (message.map { ": \($0)" } ?? ""))
        case 400, 413: return .listensRefused(reason: "listens refused (\(status))" + (message.map { ": \($0)" } ?? ""))
        case 429:
            return .retry(afterSeconds: resetWait(headers) ?? retryAfter(headers),
                          reason: "rate limited (429)" + (message.map { ": \($0)" } ?? ""))
        default:
            return .retry(afterSeconds: status == 503 ? retryAfter(headers) : nil,
                          reason: "the server answered \(status)" + (message.map { ": \($0)" } ?? ""))
        }
    }

    /// How long to wait before the next request when the rate-limit headers say none are left (nil: no wait).
    public static func rateLimitWait(_ headers: [(name: String, value: String)]) -> Double? {
        guard let remaining = header("x-ratelimit-remaining", in: headers).flatMap(Int.init), remaining <= 0 else { return nil }
        return resetWait(headers)
    }

    private static func resetWait(_ headers: [(name: String, value: String)]) -> Double? {
        header("x-ratelimit-reset-in", in: headers).flatMap(seconds)
    }

    private static func retryAfter(_ headers: [(name: String, value: String)]) -> Double? {
        header("retry-after", in: headers).flatMap(seconds)
    }

    private static func seconds(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return min(value, longestWaitSeconds)
    }

    private static func header(_ name: String, in headers: [(name: String, value: String)]) -> String? {
        headers.last { $0.name.lowercased() == name }.map { $0.value.trimmingWhitespace() }
    }

    /// The `error` of a JSON error body, made one short line (it ends up in `reprise scrobble status`).
    static func errorMessage(_ body: [UInt8]) -> String? {
        guard body.count <= 65_536, let text = JSONValue(parsing: body)?["error"]?.string else { return nil }
        let line = String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200).map(Character.init))
        return line.isEmpty ? nil : line
    }
}

/// The wait after the `failures`-th failure in a row: 5 s, doubling, at most 10 minutes. A wait the server names
/// (`Retry-After`, `X-RateLimit-Reset-In`) is a floor under the backoff, never a way around it: a server answering
/// "retry in 0 seconds" is not asked again at once.
public struct ScrobbleBackoff: Sendable, Equatable {
    public static let firstSeconds = 5.0
    public static let longestSeconds = 600.0
    /// The least time between two requests to a server that refused the last one (a refused listen sent alone,
    /// then the next): never more than one a second.
    public static let refusedSpacingSeconds = 1.0
    public private(set) var failures = 0

    public init() {}

    public mutating func failed() -> Double {
        failures = min(failures + 1, 32)
        return min(Self.firstSeconds * Double(1 << (failures - 1)), Self.longestSeconds)
    }

    /// The wait after a failure for which the server named `serverWait` seconds (nil: it named none): the longer
    /// of the two, the server's bounded by ``ListenBrainz/longestWaitSeconds``.
    public mutating func failed(serverWait: Double?) -> Double {
        let server = serverWait.map { $0.isNaN ? 0 : min(max(0, $0), ListenBrainz.longestWaitSeconds) } ?? 0
        return max(failed(), server)
    }

    public mutating func succeeded() { failures = 0 }
}
