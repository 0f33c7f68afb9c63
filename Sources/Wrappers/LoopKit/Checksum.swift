import CGStreamer

/// SHA-256 of `bytes` as lower-case hex (GLib's checksum), e.g. to name content-addressed files.
public func sha256Hex(_ bytes: [UInt8]) -> String? {
    guard let digest = bytes.withUnsafeBufferPointer({ g_compute_checksum_for_data(G_CHECKSUM_SHA256, $0.baseAddress, gsize($0.count)) })
    else { return nil }
    defer { g_free(digest) }
    return String(cString: digest)
}
