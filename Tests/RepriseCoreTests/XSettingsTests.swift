import RepriseCore
import Testing

/// The XSETTINGS blob as managers write it (either byte order), and malformed ones: what comes before a fault is
/// read, nothing traps.
@Suite struct XSettingsTests {
    enum Value: Sendable { case integer(Int32), text(String), colour }

    /// A blob of `settings` (an integer, a string or a colour each), in the byte order asked.
    static func blob(_ settings: [(name: String, value: Value)], bigEndian: Bool = false, count: UInt32? = nil) -> [UInt8] {
        func card16(_ value: UInt16) -> [UInt8] { bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func card32(_ value: UInt32) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(value >> (8 * UInt32($0)) & 0xFF) }
            return bigEndian ? bytes.reversed() : bytes
        }
        func padded(_ text: String) -> [UInt8] { Array(text.utf8) + Array(repeating: 0, count: (4 - text.utf8.count % 4) % 4) }
        var bytes: [UInt8] = [bigEndian ? 1 : 0, 0, 0, 0] + card32(7) + card32(count ?? UInt32(settings.count))
        for (name, value) in settings {
            let type: UInt8 = switch value {
            case .integer: 0
            case .text: 1
            case .colour: 2
            }
            bytes += [type, 0] + card16(UInt16(name.utf8.count)) + padded(name) + card32(3)
            switch value {
            case .integer(let number): bytes += card32(UInt32(bitPattern: number))
            case .text(let text): bytes += card32(UInt32(text.utf8.count)) + padded(text)
            case .colour: bytes += card16(1) + card16(2) + card16(3) + card16(4)
            }
        }
        return bytes
    }

    static let desktop: [(name: String, value: Value)] = [
        ("Net/ThemeName", .text("Adwaita")), ("Gtk/CursorColour", .colour), ("Net/DoubleClickTime", .integer(250)), ("Xft/DPI", .integer(98_304)),
    ]

    @Test func readsIntegersAndStringsInEitherByteOrder() {
        for bigEndian in [false, true] {
            let settings = XSettings(bytes: Self.blob(Self.desktop, bigEndian: bigEndian))
            #expect(settings.integers == ["Net/DoubleClickTime": 250, "Xft/DPI": 98_304], "big endian: \(bigEndian)")
            #expect(settings.strings == ["Net/ThemeName": "Adwaita"])
            #expect(settings.doubleClickSeconds == 0.25)
        }
    }

    @Test func aMalformedBlobGivesWhatCameBeforeTheFault() {
        let whole = Self.blob(Self.desktop)
        // Cut anywhere: never a trap, and never a setting that was not whole.
        for length in 0...whole.count {
            let settings = XSettings(bytes: Array(whole.prefix(length)))
            #expect(settings.integers.count + settings.strings.count <= 3)
            if let value = settings.integers["Net/DoubleClickTime"] { #expect(value == 250) }
        }
        // A count of four billion over three settings; a name or string said to be longer than the blob; a type the
        // specification lacks; a byte order that is neither.
        #expect(XSettings(bytes: Self.blob(Self.desktop, count: .max)).integers.count == 2)
        var long = Self.blob([("Net/DoubleClickTime", .integer(250))])
        long[14] = 0xFF
        long[15] = 0xFF
        #expect(XSettings(bytes: long).integers.isEmpty)
        let text = Self.blob([("Net/ThemeName", .text("Adwaita"))])
        var longText = text
        longText[36] = 0xFF
        longText[39] = 0x7F
        #expect(XSettings(bytes: longText).strings.isEmpty)
        var unknown = Self.blob([("Odd", .integer(1)), ("Net/DoubleClickTime", .integer(250))])
        unknown[12] = 9
        #expect(XSettings(bytes: unknown).integers.isEmpty)
        var order = Self.blob(Self.desktop)
        order[0] = 2
        #expect(XSettings(bytes: order) == XSettings(bytes: []))
    }

    @Test func aDoubleClickTimeNoOneCouldUseIsNotTaken() {
        for absurd: Int32 in [0, -5, 10, 60_000] {
            #expect(XSettings(bytes: Self.blob([("Net/DoubleClickTime", .integer(absurd))])).doubleClickSeconds == nil, "\(absurd)")
        }
    }
}
