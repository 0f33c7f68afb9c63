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

    /// Up to `count` bytes of the file at `fd` from `offset` (pread, again after an interrupted or short read): fewer
    /// at its end; nil when a read fails.
    public static func read(_ fd: Int32, at offset: Int64, count: Int) -> [UInt8]? {
        guard count >= 0, offset >= 0 else { return nil }
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let got = pread(fd, buffer.baseAddress! + initialized, count - initialized, off_t(offset) + off_t(initialized))
                if got < 0 && errno == EINTR { continue }
                failed = got < 0
                guard got > 0 else { break }
                initialized += got
            }
        }
        return failed ? nil : bytes
    }
}
