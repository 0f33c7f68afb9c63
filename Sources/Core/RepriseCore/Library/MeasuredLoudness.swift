/// A track's loudness as measured (EBU R128): its integrated loudness and true peak, for tracks whose tags carry no
/// ReplayGain; played at ReplayGain 2.0's reference of -18 LUFS.
public struct MeasuredLoudness: Equatable, Sendable {
    /// Integrated loudness in LUFS.
    public var integratedLUFS: Double
    /// The largest true peak of its channels (linear, 1 = full scale).
    public var truePeak: Double

    public init(integratedLUFS: Double, truePeak: Double) {
        self.integratedLUFS = integratedLUFS
        self.truePeak = truePeak
    }

    /// ReplayGain 2.0's reference loudness.
    public static let referenceLUFS = -18.0

    /// The gain (dB) that brings it to the reference.
    public var gainDecibels: Double { Self.referenceLUFS - integratedLUFS }
}
