import Foundation

/// A Shoutcast/Icecast-style live stream on loopback: `audio` (whole MP3 frames) sent over and over at
/// `bytesPerSecond` (after a first second at once), no length, with the station's `icy-name`, `icy-genre` and
/// `icy-url` headers and, to clients that ask with `Icy-MetaData: 1`, a metadata block every `metaInterval` bytes
/// carrying `StreamTitle='…';` — the title set last, as raw bytes (a Latin-1 station sends Latin-1).
public final class IcyServer: @unchecked Sendable {
    /// What the `icy-name`, `icy-genre` and `icy-url` headers say.
    public typealias Station = (name: String, genre: String, url: String)

    private var listener: LoopbackListener!
    private let audio: [UInt8]
    private let station: Station
    private let bytesPerSecond: Int
    public let metaInterval: Int
    private let lock = NSLock()
    private var title: [UInt8]
    private var clients = 0

    public init(audio: Data, station: Station, title: String, bytesPerSecond: Int = 16_000, metaInterval: Int = 4_000) throws {
        self.audio = Array(audio)
        self.station = station
        self.title = Array(title.utf8)
        self.bytesPerSecond = bytesPerSecond
        self.metaInterval = metaInterval
        guard !audio.isEmpty else { throw HarnessError(message: "an ICY stream needs some audio") }
        listener = try LoopbackListener { [weak self] client in self?.serve(client) }
    }

    public var url: String { "http://127.0.0.1:\(listener.port)/live" }

    /// The title the next metadata block carries, as UTF-8.
    public func setTitle(_ text: String) { setTitle(bytes: Array(text.utf8)) }

    /// The title the next metadata block carries, as these bytes (for stations that send Latin-1).
    public func setTitle(bytes: [UInt8]) { lock.withLock { title = bytes } }

    /// Whether every metadata block carries a title of its own (the title set, then " #" and the block's number):
    /// a station flooding its listeners with changes.
    public func setNumbersEveryBlock(_ numbered: Bool) { lock.withLock { numbersEveryBlock = numbered } }
    private var numbersEveryBlock = false

    /// Connections served so far.
    public var connections: Int { lock.withLock { clients } }

    public func stop() { listener.stop() }

    deinit { listener?.stop() }

    private func serve(_ client: Int32) {
        guard let request = LoopbackListener.readRequest(client) else { return }
        lock.withLock { clients += 1 }
        let wantsMetadata = request.contains("icy-metadata: 1")
        var header = "ICY 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: \(station.name)\r\nicy-genre: \(station.genre)\r\n"
            + "icy-url: \(station.url)\r\nicy-br: \(bytesPerSecond * 8 / 1000)\r\n"
        if wantsMetadata { header += "icy-metaint: \(metaInterval)\r\n" }
        guard LoopbackListener.send(Array((header + "\r\n").utf8), to: client) else { return }
        var offset = 0, sinceMetadata = 0, sentTitle: [UInt8]? = nil, blocks = 0
        let start = Date()
        var sent = 0
        let chunk = bytesPerSecond / 20
        while true {
            // Paced: a second ahead at most.
            let due = Int(Date().timeIntervalSince(start) * Double(bytesPerSecond)) + bytesPerSecond
            if sent >= due {
                Thread.sleep(forTimeInterval: 0.02)
                continue
            }
            var out: [UInt8] = []
            var budget = chunk
            while budget > 0 {
                let room = wantsMetadata ? metaInterval - sinceMetadata : budget
                let take = min(budget, room, audio.count - offset)
                out += audio[offset..<offset + take]
                offset = (offset + take) % audio.count
                budget -= take
                sinceMetadata += take
                if wantsMetadata, sinceMetadata == metaInterval {
                    sinceMetadata = 0
                    blocks += 1
                    let title = lock.withLock { self.title + (numbersEveryBlock ? Array(" #\(blocks)".utf8) : []) }
                    out += metadataBlock(title == sentTitle ? nil : title)
                    sentTitle = title
                }
            }
            guard LoopbackListener.send(out, to: client) else { return }
            sent += chunk
        }
    }

    /// A metadata block: one length byte (in 16-byte units), then `StreamTitle='…';` padded with zeros; a lone
    /// zero byte when nothing changed.
    private func metadataBlock(_ title: [UInt8]?) -> [UInt8] {
        guard let title else { return [0] }
        var text = Array("StreamTitle='".utf8) + title + Array("';StreamUrl='';".utf8)
        let units = min(255, (text.count + 15) / 16)
        text = Array(text.prefix(units * 16))
        text += [UInt8](repeating: 0, count: units * 16 - text.count)
        return [UInt8(units)] + text
    }
}
