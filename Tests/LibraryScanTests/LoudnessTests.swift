import Foundation
import Glibc
import LoudnessKit
import RepriseCore
import RepriseLibrary
import Testing
import TestSupport

/// libebur128 over GStreamer's decoding, against BS.1770's own arithmetic; measurements kept in the index with the
/// file's identity.
@Suite struct LoudnessMeasurementTests {
    let folder: String

    init() throws {
        folder = try makeTemporaryFolder("loudness")
    }

    /// A stereo 1 kHz sine of peak A measures 20·log10(A) LUFS (each channel's mean square A²/2, summed; the
    /// K-filter's +0.691 dB at 1 kHz cancels the formula's -0.691); its true peak is A.
    @Test func aSineMeasuresWhatTheStandardSays() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for amplitude in [0.5, 0.2, 0.05] {
            let path = folder + "/sine-\(amplitude).flac"
            let made = try runCommand("gst-launch-1.0", ["-q", "audiotestsrc", "num-buffers=\(8 * 44100 / 1024)", "freq=1000",
                                                         "volume=\(amplitude)", "!", "audio/x-raw,rate=44100,channels=2", "!",
                                                         "audioconvert", "!", "flacenc", "!", "filesink", "location=\(path)"])
            #expect(made.status == 0)
            let measured = try #require(LoudnessMeter.measure(FilePath(escaped: path).uri))
            #expect(abs(measured.integratedLUFS - 20 * log10(amplitude)) < 0.2, "\(amplitude): \(measured.integratedLUFS) LUFS")
            #expect(abs(measured.truePeak - amplitude) < amplitude * 0.05, "\(amplitude): peak \(measured.truePeak)")
            #expect(abs(measured.gainDecibels - (-18 - 20 * log10(amplitude))) < 0.2)
        }
        // Not sound at all, and a file that is not there: nothing measured, nothing trapped.
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: URL(fileURLWithPath: folder + "/noise.flac"))
        #expect(LoudnessMeter.measure(FilePath(escaped: folder + "/noise.flac").uri) == nil)
        #expect(LoudnessMeter.measure(FilePath(escaped: folder + "/missing.flac").uri) == nil)
    }

    @Test func measurementsAreKeptWithTheFilesIdentityAndAlbumsCombined() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try LibraryStore(path: folder + "/library.db") { _ in }
        func track(_ name: String, album: String?, tagged: Bool = false) -> LibraryTrack {
            var track = LibraryTrack(path: FilePath(escaped: folder + "/" + name), title: name, artist: "A", album: album,
                                     lengthMicroseconds: 60_000_000)
            if tagged { track.loudness = LoudnessTags(trackGain: -3, albumGain: nil, trackPeak: nil, albumPeak: nil) }
            return track
        }
        try store.store(track("one.flac", album: "B"), root: folder, size: 10, modified: 1)
        try store.store(track("two.flac", album: "B"), root: folder, size: 10, modified: 1)
        try store.store(track("tagged.flac", album: "B", tagged: true), root: folder, size: 10, modified: 1)
        let waiting = try store.tracksToMeasure(limit: 10)
        #expect(waiting.map { $0.path.hasSuffix("one.flac") || $0.path.hasSuffix("two.flac") } == [true, true], "tagged ones are not measured")
        #expect(try store.loudnessCounts() == (0, 2))
        #expect(try store.storeMeasurement(MeasuredLoudness(integratedLUFS: -10, truePeak: 0.9), of: waiting[0]))
        #expect(try store.measuredLoudness(atPath: waiting[0].path)?.album == nil, "the album's other track is not measured yet")
        #expect(try store.storeMeasurement(MeasuredLoudness(integratedLUFS: -20, truePeak: 0.5), of: waiting[1]))
        let both = try #require(try store.measuredLoudness(atPath: waiting[0].path))
        #expect(both.track.integratedLUFS == -10 && abs((both.album?.integratedLUFS ?? 0) - (10 * log10((0.1 + 0.01) / 2))) < 1e-9)
        #expect(try store.loudnessCounts() == (2, 0))
        // The file changes: stored again by the scanner, its measurement is cleared and it waits again; a
        // measurement of the old file arriving late is not kept.
        try store.store(track("one.flac", album: "B"), root: folder, size: 11, modified: 2)
        #expect(try store.loudnessCounts() == (1, 1))
        #expect(try !store.storeMeasurement(MeasuredLoudness(integratedLUFS: -30, truePeak: 0.1), of: waiting[0]))
        #expect(try store.measuredLoudness(atPath: waiting[0].path) == nil)
        // Could not be measured: not listed again.
        let again = try #require(try store.tracksToMeasure(limit: 10).first)
        #expect(try store.storeMeasurement(nil, of: again))
        #expect(try store.tracksToMeasure(limit: 10).isEmpty && store.loudnessCounts() == (1, 0))
    }
}
