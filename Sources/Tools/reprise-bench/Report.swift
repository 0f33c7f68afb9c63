import Foundation

/// Formats the results as one Markdown table.
enum Report {
    static func markdown(_ rows: [Row], contenders: [String]) -> String {
        let reprise = contenders[0]
        var lines = ["| figure | " + reprise + " | floor | " + reprise + " ÷ floor | "
                     + contenders.dropFirst().joined(separator: " | ") + (contenders.count > 1 ? " | " : "") + "target |"]
        lines.append("|" + String(repeating: "---|", count: 5 + contenders.count - 1))
        for row in rows {
            let value = row.values[reprise]
            let floor = row.values["floor"]
            let ratio = value.flatMap { v in floor.map { v / $0 } }
            var cells = ["\(row.figure) (\(row.unit))", format(value, row.spreads[reprise]), format(floor, row.spreads["floor"]),
                         ratio.map { String(format: "%.2f×", $0) } ?? "–"]
            cells += contenders.dropFirst().map { format(row.values[$0], row.spreads[$0]) }
            cells.append(row.target + (row.note.isEmpty ? "" : (row.target.isEmpty ? "" : "; ") + row.note))
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// A median with the middle half of its samples: "585.6 (540–610)".
    static func format(_ value: Double?, _ spread: (low: Double, high: Double)?) -> String {
        guard let spread, value != nil else { return format(value) }
        return format(value) + " (" + format(spread.low) + "–" + format(spread.high) + ")"
    }

    static func format(_ value: Double?) -> String {
        guard let value else { return "–" }
        switch abs(value) {
        case 1000...: return String(format: "%.0f", value)
        case 10...: return String(format: "%.1f", value)
        default: return String(format: "%.2f", value)
        }
    }
}
