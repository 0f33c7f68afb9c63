import CEbur128
import GStreamerKit
import RepriseCore

/// EBU R128 integrated loudness and true peak of a file, measured with libebur128 (the reference implementation)
/// over its decoded sound.
public enum LoudnessMeter {
    /// The loudness of the file at `uri`; nil when it has no sound that decodes (or was cancelled), or libebur128
    /// cannot be loaded.
    public static func measure(_ uri: String, cancellation: AudioDecoding.Cancellation? = nil) -> MeasuredLoudness? {
        guard rp_ebur128_load() else { return nil }
        var state: UnsafeMutablePointer<ebur128_state>?
        var format: (rate: Int, channels: Int)?
        var broken = false
        let outcome = AudioDecoding.decode(uri, cancellation: cancellation, timeoutMilliseconds: 600_000) { samples, rate, channels in
            guard !broken else { return }
            if format == nil || format! != (rate, channels) {
                // A stream whose format changes midway is measured from scratch in the new one (rare: chained Ogg).
                if state != nil { rp_ebur128_destroy(&state) }
                state = rp_ebur128_init(UInt32(clamping: channels), UInt(clamping: rate), Int32(EBUR128_MODE_I.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue))
                format = (rate, channels)
                if state == nil { broken = true }
            }
            guard let state, let base = samples.baseAddress else { return }
            if rp_ebur128_add_frames_float(state, base, samples.count / channels) != 0 { broken = true }
        }
        defer { if state != nil { rp_ebur128_destroy(&state) } }
        guard outcome == .finished, !broken, let state, let format else { return nil }
        var loudness = 0.0
        guard rp_ebur128_loudness_global(state, &loudness) == 0, loudness.isFinite else { return nil }
        var peak = 0.0
        for channel in 0..<format.channels {
            var channelPeak = 0.0
            if rp_ebur128_true_peak(state, UInt32(channel), &channelPeak) == 0, channelPeak.isFinite { peak = max(peak, channelPeak) }
        }
        return MeasuredLoudness(integratedLUFS: loudness, truePeak: peak)
    }
}
