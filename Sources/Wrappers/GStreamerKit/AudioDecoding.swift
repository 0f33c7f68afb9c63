import CGStreamer
import CGStreamerShims
import Synchronization

/// Decodes a file's sound to samples, synchronously, on the calling thread's behalf (GStreamer's threads do the
/// work): for analysis, never for playing.
public enum AudioDecoding {
    /// How decoding ended.
    public enum Outcome: Equatable, Sendable {
        case finished, failed, cancelled, timedOut
    }

    /// A flag another thread raises to stop a decode under way.
    public final class Cancellation: @unchecked Sendable { // one int: raised by any thread, read by the decode's
        fileprivate let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        public init() { flag.initialize(to: 0) }
        deinit { flag.deallocate() }
        /// Stops the decode (within 100 ms).
        public func cancel() { flag.pointee = 1 }
    }

    /// Hands every decoded buffer of `uri`'s first audio stream to `consume` (interleaved float frames, the rate,
    /// the channel count), until the stream ends.
    public static func decode(_ uri: String, cancellation: Cancellation? = nil, timeoutMilliseconds: Int64 = 0,
                              _ consume: @escaping (UnsafeBufferPointer<Float>, Int, Int) -> Void) -> Outcome {
        GStreamer.initialize()
        let box = Unmanaged.passRetained(ConsumerBox(consume))
        defer { box.release() }
        let result = rp_decode_float(uri, { context, samples, frames, rate, channels in
            guard let context, let samples else { return }
            let box = Unmanaged<ConsumerBox>.fromOpaque(context).takeUnretainedValue()
            box.consume(UnsafeBufferPointer(start: samples, count: frames * Int(channels)), Int(rate), Int(channels))
        }, box.toOpaque(), cancellation.map { UnsafePointer($0.flag) }, timeoutMilliseconds)
        switch result {
        case 0: return .finished
        case -2: return .cancelled
        case -3: return .timedOut
        default: return .failed
        }
    }
}

/// The closure a decode's callback calls (its context pointer).
private final class ConsumerBox {
    let consume: (UnsafeBufferPointer<Float>, Int, Int) -> Void
    init(_ consume: @escaping (UnsafeBufferPointer<Float>, Int, Int) -> Void) { self.consume = consume }
}
