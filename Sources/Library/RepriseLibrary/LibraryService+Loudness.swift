import GStreamerKit
import LoudnessKit
import RepriseCore
import SQLiteKit

/// Loudness for tracks without ReplayGain tags: after each pass (and each change inotify reports), the tracks
/// waiting are measured a few at a time on a thread of their own at idle priority (decoding them through GStreamer
/// into libebur128), never on the library's worker, whose searches would wait; what was measured is stored there.
extension LibraryService {
    /// Tracks measured in one step (a step's results are stored, and announced, together).
    static let loudnessBatch = 4

    /// Starts measuring the tracks waiting, unless it is under way.
    func measureLoudness() {
        guard !stopped, !status.measuring, loudnessWork != nil else { return }
        status.measuring = true
        nextLoudnessStep()
    }

    private func nextLoudnessStep() {
        let worker = worker
        work.run({ (worker.tracksToMeasure(limit: Self.loudnessBatch), worker.loudnessCounts()) }) { [weak self] listed in
            guard let self, !stopped else { return }
            let (tracks, counts) = listed
            (status.loudnessMeasured, status.loudnessWaiting) = counts
            guard !tracks.isEmpty, let loudnessWork else {
                status.measuring = false
                feed.publish(.library)
                return
            }
            feed.publish(.library)
            let cancellation = loudnessCancellation
            loudnessWork.run({
                tracks.map { track in (track, LoudnessMeter.measure(FilePath(escaped: track.path).uri, cancellation: cancellation)) }
            }) { [weak self] measured in
                guard let self, !stopped else { return }
                for (track, loudness) in measured where loudness == nil {
                    log.info("library: could not measure the loudness of \(FilePath(escaped: track.path).displayed)")
                }
                work.run({ worker.storeMeasurements(measured) }) { [weak self] stored in
                    guard let self else { return }
                    feed.publish(.measurements)
                    // Not stored (the index busy or its disk full): the same tracks would be listed and measured again
                    // at once, for ever; measuring waits for the next pass or change instead.
                    guard stored else {
                        log.warning("library: measured loudness could not be stored; measuring waits for the next scan")
                        status.measuring = false
                        feed.publish(.library)
                        return
                    }
                    nextLoudnessStep()
                }
            }
        }
    }

    /// The measured loudness of a file (track and album) when the index has it: for ReplayGain on files without
    /// tags.
    public func measuredLoudness(at path: FilePath, then: @escaping ((track: MeasuredLoudness, album: MeasuredLoudness?)?) -> Void) {
        let worker = worker
        let path = path.escaped
        work.run({ worker.measuredLoudness(atPath: path) }, then: then)
    }
}

extension LibraryWorker {
    func tracksToMeasure(limit: Int) -> [LibraryStore.TrackToMeasure] {
        answer("listing tracks to measure", []) { store throws(SQLiteError) in try store.tracksToMeasure(limit: limit) }
    }
    func loudnessCounts() -> (Int, Int) {
        answer("counting measurements", nil) { store throws(SQLiteError) in try store.loudnessCounts() } ?? (0, 0)
    }

    /// Stores what was measured (a file changed since it was listed keeps its cleared state).
    func storeMeasurements(_ measured: [(LibraryStore.TrackToMeasure, MeasuredLoudness?)]) -> Bool {
        guard let store else { return false }
        do {
            try store.batch { for (track, loudness) in measured { try store.storeMeasurement(loudness, of: track) } }
            return true
        } catch {
            return false
        }
    }

    func measuredLoudness(atPath path: String) -> (track: MeasuredLoudness, album: MeasuredLoudness?)? {
        answer("looking up a measurement", nil) { store throws(SQLiteError) in try store.measuredLoudness(atPath: path) }
    }
}

