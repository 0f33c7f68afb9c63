/// Numbers another player reports, made safe to compute with and show: a broken player may send NaN, an infinite
/// or a huge rate, or a position of Int64.max. Everything the CLI and the view read from a player passes here.
enum ReportedNumbers {
    /// Longest position or length believed: a hundred years, in microseconds.
    static let longest: Int64 = 100 * 365 * 24 * 3600 * 1_000_000

    /// nil when the value is not a finite volume.
    static func volume(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return min(max(value, 0), 100)
    }

    /// 1 unless the value is a finite, positive rate of at most 1000.
    static func rate(_ value: Double?) -> Double {
        guard let value, value.isFinite, value > 0, value <= 1000 else { return 1 }
        return value
    }

    static func microseconds(_ value: Int64?) -> Int64 { min(max(value ?? 0, 0), longest) }

    /// The value when it is finite and within ±1000 (a gain in dB, say); else 0.
    static func finite(_ value: Double?) -> Double {
        guard let value, value.isFinite, abs(value) <= 1000 else { return 0 }
        return value
    }

    /// "+3.0 dB", "-6.5 dB", "0.0 dB": one decimal.
    static func decibels(_ value: Double) -> String {
        let tenths = (finite(value) * 10).rounded()
        let sign = tenths > 0 ? "+" : tenths < 0 ? "-" : ""
        let magnitude = Int(abs(tenths))
        return "\(sign)\(magnitude / 10).\(magnitude % 10) dB"
    }
}
