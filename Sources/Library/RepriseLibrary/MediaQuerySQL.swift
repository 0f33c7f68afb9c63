import RepriseCore
import SQLiteKit

/// A ``MediaQuery`` as an SQL condition on the tracks table that keeps at least every track the query matches
/// (fewer rows to test one by one). Only what SQLite compares as Swift does is pushed down: ASCII text, numbers,
/// `Type`; anything else (non-ASCII values, `exists`, negations, unknown properties) narrows nothing. (SQLite lowers
/// ASCII letters only: a title whose Unicode lower case brings in an ASCII letter, as the Kelvin sign does, may be
/// missed by a `contains`.)
enum MediaQuerySQL {
    /// The condition (nil: it cannot narrow), its values appended to `values` (numbered after those already there).
    static func condition(_ query: MediaQuery, values: inout [Statement.Value]) -> String? {
        switch query {
        case .everything, .exists: return nil
        case .and(let left, let right):
            let l = condition(left, values: &values), r = condition(right, values: &values)
            switch (l, r) {
            case (nil, nil): return nil
            case (let one?, nil), (nil, let one?): return one
            case (let l?, let r?): return "(\(l) AND \(r))"
            }
        case .or(let left, let right):
            var attempt = values
            guard let l = condition(left, values: &attempt), let r = condition(right, values: &attempt) else { return nil }
            values = attempt
            return "(\(l) OR \(r))"
        case .compare(let property, let operation, let value):
            return compare(property, operation, value, values: &values)
        }
    }

    private static let textColumns = ["Artist": "artist", "Album": "album", "Genre": "genre", "DisplayName": "title"]
    private static let numberColumns = ["TrackNumber": "track", "Duration": "(length / 1000000)"]

    private static func compare(_ property: String, _ operation: MediaQuery.Operation, _ value: String,
                                values: inout [Statement.Value]) -> String? {
        if property == "Type" {
            let matchesMusic = MediaQuery.compare(property: property, operation: operation, value: value)
                .matches(["Type": .text("music")])
            return matchesMusic ? nil : "0"
        }
        if let column = numberColumns[property], let number = Int64(value) {
            let sqlOperator: String
            switch operation {
            case .equal: sqlOperator = "="
            case .less: sqlOperator = "<"
            case .lessOrEqual: sqlOperator = "<="
            case .greater: sqlOperator = ">"
            case .greaterOrEqual: sqlOperator = ">="
            default: return nil
            }
            values.append(.integer(number))
            return "\(column) \(sqlOperator) ?\(values.count)"
        }
        guard let column = textColumns[property], value.unicodeScalars.allSatisfy(\.isASCII) else { return nil }
        let test: String
        switch operation {
        case .contains:
            values.append(.text(value.lowercased()))
            test = "instr(lower(\(column)), ?\(values.count)) > 0"
        case .startsWith:
            values.append(.text(value.lowercased()))
            test = "substr(lower(\(column)), 1, length(?\(values.count))) = ?\(values.count)"
        case .equal:
            values.append(.text(value.lowercased()))
            test = "lower(\(column)) = ?\(values.count)"
        default: return nil
        }
        // A track without a title shows its file name: those stay for the test one by one.
        return column == "title" ? "(title IS NULL OR \(test))" : test
    }
}
