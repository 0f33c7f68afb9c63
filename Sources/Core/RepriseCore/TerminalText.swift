/// The one sanitiser for text that reaches a terminal, and its measure in terminal cells.
///
/// Tags, file names, device names and other players' data are hostile: an ESC or C1 control starts a sequence that
/// can retitle the terminal, write the clipboard (OSC 52), make it type an answer, or clear the screen; bidirectional
/// controls reorder what follows. ``sanitized(_:)`` makes C0 controls, DEL and C1 controls visible (as control
/// pictures, `␛`, or `<U+0085>`) and drops bidirectional controls; ``cells(_:)`` counts columns the way terminals
/// draw them (East Asian wide characters and emoji take two, combining marks and zero-width characters none).
public enum TerminalText {
    /// `text` safe to write to a terminal. `keepingTabs`: a tab stays a tab (for lines Reprise lays out itself).
    public static func sanitized(_ text: String, keepingTabs: Bool = false) -> String {
        let text = RawPath.displayed(text)
        guard text.unicodeScalars.contains(where: { needsWork($0, keepingTabs: keepingTabs) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09 where keepingTabs:
                result.append(scalar)
            case 0x00...0x1F:
                result.append(Unicode.Scalar(0x2400 + scalar.value)!) // ␀ … ␟ (␛ for ESC)
            case 0x7F:
                result.append("\u{2421}") // ␡
            case 0x80...0x9F:
                result.append(contentsOf: "<U+00\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            case _ where isBidiControl(scalar):
                continue
            default:
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func needsWork(_ scalar: Unicode.Scalar, keepingTabs: Bool) -> Bool {
        let value = scalar.value
        if value == 0x09 { return !keepingTabs }
        return value < 0x20 || (0x7F...0x9F).contains(value) || isBidiControl(scalar)
    }

    /// Bidirectional controls (they reorder what follows on screen).
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Columns `text` takes in a terminal (after sanitising).
    public static func cells(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + cells(of: $1) }
    }

    /// Columns one scalar takes: 0, 1 or 2.
    public static func cells(of scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200B || (0x1160...0x11FF).contains(value) { return 0 } // zero width space, Hangul jungseong/jongseong
        if isWide(value) || (scalar.properties.isEmojiPresentation && value >= 0x1F000) { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth ranges (Unicode's EastAsianWidth W and F), with the emoji blocks.
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3, 0x25FD...0x25FE,
             0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE,
             0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705,
             0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757, 0x2795...0x2797, 0x27B0, 0x27BF,
             0x2B1B...0x2B1C, 0x2B50, 0x2B55, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E,
             0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F900...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` cut to at most `columns` cells, ending in "…" when cut (a wide character never split).
    public static func fitted(_ text: String, _ columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard cells(text) > columns else { return text }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let width = cells(of: scalar)
            if used + width > columns - 1 { break }
            result.append(scalar)
            used += width
        }
        return String(result) + "…"
    }

    /// `text` padded with spaces to `columns` cells (unchanged when it is as wide or wider).
    public static func padded(_ text: String, _ columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - cells(text)))
    }
}
