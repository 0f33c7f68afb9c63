/// Texts kept for long as ranges of one buffer of UTF-8, each given back as a new `String` when read: no string of
/// whatever they were made from stays alive (one left among freed blocks would keep its page resident).
struct MPDTextBuffer: Sendable {
    private var bytes: [UInt8] = []
    /// Where each text begins (it ends where the next begins, the last where the bytes end).
    private var starts: [Int] = []

    var count: Int { starts.count }

    /// Adds `text`; its position in the buffer.
    mutating func append(_ text: some StringProtocol) -> Int {
        starts.append(bytes.count)
        bytes.append(contentsOf: text.utf8)
        return starts.count - 1
    }

    subscript(position: Int) -> String {
        let end = position + 1 < starts.count ? starts[position + 1] : bytes.count
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[starts[position]..<end]), as: UTF8.self) }
    }

    /// Lends the text at `position` as UTF-8 to `body`; false for an empty text (no value) without calling it.
    func lend(_ position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        let end = position + 1 < starts.count ? starts[position + 1] : bytes.count
        guard end > starts[position] else { return false }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[starts[position]..<end])) }
    }

    /// Gives back the capacity grown into while appending.
    mutating func shrink() {
        bytes = Array(bytes)
        starts = Array(starts)
    }
}
