/// Medians and ratios for the report.
enum Statistics {
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }
}

/// One row of the results table: a figure for each contender and, where there is one, the floor.
struct Row {
    let figure: String
    let unit: String
    var values: [String: Double] = [:]
    /// The contender whose value is the floor for this row, if any.
    var floorKey: String?
    var target: String = ""
    var note: String = ""
}
