import Glibc

/// Calls on an open descriptor that the system may answer in parts.
public enum Descriptor {
    /// Writes all of `bytes` to `fd`, again after an interrupted or partial write; false when a write fails.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
}
