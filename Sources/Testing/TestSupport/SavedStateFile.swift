import RepriseCore

/// What the tests and tools check of the service's saved state file, by the core's own rule (one source for the
/// header: a test never copies the version it expects).
public enum SavedStateFile {
    /// Whether `text` is a whole state file as this version of the service writes it.
    public static func isWhole(_ text: String) -> Bool { SavedState.isWhole(text) }
}
