import CGStreamer
import CGStreamerShims

/// A file's Chromaprint fingerprint (AcoustID's), made by GStreamer's `chromaprint` element from the first two
/// minutes of its sound as 16-bit samples at the file's own rate, without dither, whole decoded blocks until the
/// two minutes are reached: what MPD's `getfingerprint` gives for the same samples. (`fpcalc` cuts at two minutes
/// exactly and now and then differs from both.)
public enum AudioFingerprint {
    /// What fingerprinting a file came to.
    public enum Outcome: Equatable, Sendable {
        /// The compressed fingerprint, in URL-safe base64.
        case fingerprint(String)
        /// The file could not be decoded, or holds no sound.
        case undecodable
        /// Decoding took longer than allowed.
        case timedOut
        /// GStreamer's chromaprint element (plugins-bad) is not installed.
        case unavailable
    }

    /// Fingerprints `uri`, synchronously: call it off the loop.
    public static func chromaprint(of uri: String, timeoutMilliseconds: Int64) -> Outcome {
        GStreamer.initialize()
        var made: UnsafeMutablePointer<CChar>?
        let result = rp_audio_fingerprint(uri, timeoutMilliseconds, &made)
        defer { g_free(made) }
        switch result {
        case 0: return made.map { .fingerprint(String(cString: $0)) } ?? .undecodable
        case -3: return .timedOut
        case -4: return .unavailable
        default: return .undecodable
        }
    }
}
