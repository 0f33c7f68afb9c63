/// Finding one text in another by their UTF-8 bytes: an exact match, as a search for a delimiter ("://") or a tag
/// name needs. The standard library's own `contains(_:)` and `firstRange(of:)` for strings live in its regex
/// module, which a call to them links in whole (0.8 MB of code in the service, mapped while it plays).
extension StringProtocol where UTF8View.Index == Index {
    /// Whether `other`'s bytes occur in ours (an empty `other` always does).
    public func contains(text other: some StringProtocol) -> Bool { firstRange(ofText: other) != nil }

    /// The first range whose bytes are `other`'s.
    public func firstRange(ofText other: some StringProtocol) -> Range<Index>? {
        let needle = Array(other.utf8)
        guard let first = needle.first else { return startIndex..<startIndex }
        var from = utf8.startIndex
        while let found = utf8[from...].firstIndex(of: first) {
            if utf8[found...].starts(with: needle) { return found..<utf8.index(found, offsetBy: needle.count) }
            from = utf8.index(after: found)
        }
        return nil
    }
}
