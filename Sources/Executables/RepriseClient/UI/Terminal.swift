import Glibc

/// The terminal's settings before the view took it over, for the fatal-signal handler (which may only use
/// async-signal-safe calls: `tcsetattr` and `write`).
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var restoreSequence: [UInt8] = []
nonisolated(unsafe) private var terminalTaken = false

/// Raw keyboard input and full-screen (or one-line) drawing, restored on every way out: normal exit,
/// SIGINT/SIGTERM/SIGHUP (handled by the loop) and crashes (a fatal-signal handler restores, then re-raises).
enum Terminal {
    /// Switches to raw input (no echo, no line editing); `fullScreen` also enters the alternate screen.
    static func take(fullScreen: Bool) {
        guard !terminalTaken else { return }
        tcgetattr(0, &savedSettings)
        var raw = savedSettings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 1 // VMIN
        raw.c_cc.5 = 0 // VTIME
        tcsetattr(0, TCSANOW, &raw)
        restoreSequence = Array(((fullScreen ? "\u{1B}[?1049l" : "\r\u{1B}[2K") + "\u{1B}[?25h").utf8)
        terminalTaken = true
        write(fullScreen ? "\u{1B}[?1049h\u{1B}[?25l" : "\u{1B}[?25l")
        for fatal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
            signal(fatal) { number in
                Terminal.restoreFromSignal()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }

    /// Puts the terminal back as it was (safe to call more than once).
    static func restore() {
        guard terminalTaken else { return }
        terminalTaken = false
        _ = restoreSequence.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSANOW, &savedSettings)
    }

    private static func restoreFromSignal() {
        guard terminalTaken else { return }
        _ = restoreSequence.withUnsafeBytes { Glibc.write(1, $0.baseAddress, $0.count) }
        tcsetattr(0, TCSANOW, &savedSettings)
    }

    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                offset += count
            }
        }
    }

    /// Columns and rows (80×24 when unknown).
    static var size: (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Reads what is waiting on standard input (nil at end of input).
    static func readInput() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(0, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return [] }
        guard count > 0 else { return nil }
        return Array(buffer[..<count])
    }
}

/// A key press decoded from raw terminal input.
enum Key: Equatable {
    case character(Character), left, right, up, down, tab, enter, escape

    /// The keys in `bytes` (escape sequences for arrows included).
    static func decode(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") || bytes[index + 1] == UInt8(ascii: "O") {
                switch bytes[index + 2] {
                case UInt8(ascii: "A"): keys.append(.up)
                case UInt8(ascii: "B"): keys.append(.down)
                case UInt8(ascii: "C"): keys.append(.right)
                case UInt8(ascii: "D"): keys.append(.left)
                default: break
                }
                index += 3
                continue
            }
            switch byte {
            case 0x1B: keys.append(.escape)
            case 0x09: keys.append(.tab)
            case 0x0A, 0x0D: keys.append(.enter)
            default: keys.append(.character(Character(Unicode.Scalar(byte))))
            }
            index += 1
        }
        return keys
    }
}
