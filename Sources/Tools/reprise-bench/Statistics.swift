/// Medians and ratios for the report.
enum Statistics {
    /// The middle half of `values`: the first and third quartiles (nearest rank); nil for fewer than three.
    static func spread(_ values: [Double]) -> (low: Double, high: Double)? {
        guard values.count >= 3 else { return nil }
        let sorted = values.sorted()
        // Nearest rank: the ⌈share·n⌉-th smallest (of 3 samples, the first and the third).
        func rank(_ share: Double) -> Double { sorted[max(0, min(sorted.count, Int((share * Double(sorted.count)).rounded(.up))) - 1)] }
        return (rank(0.25), rank(0.75))
    }

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
    /// Where the middle half of each contender's samples lay (first and third quartile), when it was sampled.
    var spreads: [String: (low: Double, high: Double)] = [:]
    /// The contender whose value is the floor for this row, if any.
    var floorKey: String?
    var target: String = ""
    var note: String = ""
}
