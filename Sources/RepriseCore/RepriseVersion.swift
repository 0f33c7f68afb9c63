/// Reprise's version, shown by `reprise --version` and `reprised --version`.
public enum RepriseVersion {
    public static let current = "0.2.0"
}
