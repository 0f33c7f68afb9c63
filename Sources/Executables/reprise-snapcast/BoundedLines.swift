import Glibc

/// Newline-delimited lines read from a descriptor with a bound kept while reading: a line longer than `limit` is
/// skipped to its end as it arrives (reported once as ``Line/tooLong``), so no peer makes the plugin hold more than
/// `limit` bytes plus one read's worth.
struct BoundedLines {
    enum Line: Equatable {
        case text([UInt8])
        case tooLong
        case end
    }

    private let descriptor: Int32
    private let limit: Int
    private var buffer: [UInt8] = []
    private var skipping = false
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(descriptor: Int32, limit: Int) {
        self.descriptor = descriptor
        self.limit = limit
    }

    /// The next line without its newline, `.tooLong` once for each line over the limit, `.end` at the end of input.
    mutating func next() -> Line {
        while true {
            if let end = buffer.firstIndex(of: 10) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return .text(line)
            }
            if buffer.count > limit {
                buffer.removeAll(keepingCapacity: true)
                if !skipping {
                    skipping = true
                    return .tooLong
                }
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .end }
            if skipping, let end = chunk[..<count].firstIndex(of: 10) {
                // The rest of the long line ends here: keep only what follows it.
                skipping = false
                buffer = Array(chunk[(end + 1)..<count])
            } else if skipping {
                continue
            } else {
                buffer += chunk[..<count]
            }
        }
    }
}
