/// The settings an XSETTINGS manager (GNOME's and KDE's settings daemons, xsettingsd) publishes for X clients on the
/// `_XSETTINGS_SETTINGS` property of its selection's owner, read from the property's bytes as the XSETTINGS
/// specification lays them out. The bytes come from another program: every length and count is checked against what
/// is there, and a malformed blob gives the settings before the fault, never a trap.
public struct XSettings: Equatable, Sendable {
    public private(set) var integers: [String: Int32] = [:]
    public private(set) var strings: [String: String] = [:]

    /// The desktop's double-click interval (`Net/DoubleClickTime`, milliseconds) in seconds, where it is one a
    /// person could use (50 ms to 5 s).
    public var doubleClickSeconds: Double? {
        integers["Net/DoubleClickTime"].flatMap { (50...5000).contains($0) ? Double($0) / 1000 : nil }
    }

    public init(bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        guard let order = reader.byte(), order <= 1, reader.skip(3), reader.card32(bigEndian: order == 1) != nil,
              let count = reader.card32(bigEndian: order == 1) else { return }
        let bigEndian = order == 1
        for _ in 0..<min(Int(count), bytes.count / 12) {
            guard let type = reader.byte(), reader.skip(1), let nameLength = reader.card16(bigEndian: bigEndian),
                  let name = reader.text(Int(nameLength)), reader.card32(bigEndian: bigEndian) != nil else { return }
            switch type {
            case 0:
                guard let value = reader.card32(bigEndian: bigEndian) else { return }
                integers[name] = Int32(bitPattern: value)
            case 1:
                guard let length = reader.card32(bigEndian: bigEndian), let value = reader.text(Int(length)) else { return }
                strings[name] = value
            case 2:
                guard reader.skip(8) else { return }
            default:
                return // a type the specification does not have: its length is unknown
            }
        }
    }

    /// The blob's bytes in order, each read checked against its end.
    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, count <= bytes.count - at else { return false }
            at += count
            return true
        }

        mutating func byte() -> UInt8? {
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return bytes[at]
        }

        mutating func card16(bigEndian: Bool) -> UInt16? {
            guard let first = byte(), let second = byte() else { return nil }
            return bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
        }

        mutating func card32(bigEndian: Bool) -> UInt32? {
            guard let first = card16(bigEndian: bigEndian), let second = card16(bigEndian: bigEndian) else { return nil }
            return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
        }

        /// `count` bytes of text and the padding to a multiple of four after them (invalid UTF-8 repaired).
        mutating func text(_ count: Int) -> String? {
            let padded = count + (4 - count % 4) % 4
            guard count >= 0, padded <= bytes.count - at else { return nil }
            defer { at += padded }
            return String(decoding: bytes[at..<at + count], as: UTF8.self)
        }
    }
}
