import LoopKit

/// A local file that neither prerolls nor fails is failed after ``openTimeoutMilliseconds``. GStreamer 1.22's
/// decodebin can swallow a demuxer's error: a tiny damaged MP4 (a `chpl` box of size 0 and no track) makes qtdemux
/// post "no known streams found" while decodebin is still plugging it, and, depending on thread timing, the error
/// never reaches the bus, so the pipeline waits for good (and a client's OpenUri with it). Streams over the network
/// are not watched: buffering them may take as long as the network does.
extension GStreamerEngine {
    static let openTimeoutMilliseconds: UInt32 = 8000

    /// Starts watching the load of `uri` (replacing any watch).
    func watchOpening(_ uri: String) {
        stopWatchingOpening()
        guard uri.hasPrefix("file:") else { return }
        openWatchdog = timers.once(afterMilliseconds: Self.openTimeoutMilliseconds) { [weak self] in
            guard let self, loaded, !prerolled, !errorReported else { return }
            errorReported = true
            log.warning("\(uri) did not open within \(Self.openTimeoutMilliseconds / 1000) s: giving up on it")
            player?.engineDidFail("the file did not open within \(Self.openTimeoutMilliseconds / 1000) s (damaged, or not media GStreamer can play)")
        }
    }

    /// The stream prerolled, failed or was unloaded.
    func stopWatchingOpening() {
        openWatchdog?.cancel()
        openWatchdog = nil
    }
}
