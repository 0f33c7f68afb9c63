import Foundation
import Glibc
import Testing
import TestSupport

extension Session {
    /// Where Position says playback is when the listener at `sink` first hears the loaded file's sound (a file from
    /// ``silenceThenTone(silentSeconds:toneSeconds:)``): stops (nothing of before waits in the sink), records the
    /// sink's monitor, plays from the start reading Position every 20 ms for 7 s, and reads Position at the moment
    /// the recording's first loud sample was captured (the recording is taken to start when parec was started,
    /// a few tens of milliseconds early at most).
    func positionWhenHeard(at sink: String) throws -> Double {
        try call("Stop")
        #expect(waitFor { status() == "Stopped" })
        #expect(waitFor(4) { (try? peakLevel(of: sink)) ?? .max < 100 }, "\(sink) silent before")
        let recording = directory + "/\(sink)-heard.raw"
        var recorder = try Child.spawn("parec", ["-d", sink + ".monitor", "--raw", "--format=s16le", "--channels=2", "--rate=44100",
                                                 "--latency-msec=20", recording],
                                       environment: environment, stdout: directory + "/parec-\(sink).log",
                                       stderr: directory + "/parec-\(sink).log")
        let recordingStarted = monotonicSeconds()
        usleep(200_000)
        try call("Play")
        var readings: [(at: Double, position: Double)] = []
        let until = monotonicSeconds() + 7
        while monotonicSeconds() < until {
            if let position = position() { readings.append((monotonicSeconds(), Double(position) / 1_000_000)) }
            usleep(20_000)
        }
        kill(recorder.pid, SIGTERM)
        _ = recorder.wait()
        let samples = try Data(contentsOf: URL(fileURLWithPath: recording)).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        guard let onset = stride(from: 0, to: samples.count, by: 2).first(where: { abs(Int(samples[$0])) > 1000 }) else {
            throw HarnessError(message: "\(sink) heard nothing")
        }
        let heardAt = recordingStarted + Double(onset / 2) / 44100
        guard let reading = readings.min(by: { abs($0.at - heardAt) < abs($1.at - heardAt) }) else {
            throw HarnessError(message: "no Position was read")
        }
        return reading.position + (heardAt - reading.at)
    }
}

/// A 16-bit stereo 44.1 kHz WAV: `silentSeconds` of silence, then a 440 Hz tone.
func silenceThenTone(silentSeconds: Int, toneSeconds: Int) -> Data {
    let rate = 44100
    var pcm = [Int16](repeating: 0, count: (silentSeconds + toneSeconds) * rate * 2)
    for frame in (silentSeconds * rate)..<((silentSeconds + toneSeconds) * rate) {
        let value = Int16(6000 * sin(2 * Double.pi * 440 * Double(frame - silentSeconds * rate) / Double(rate)))
        pcm[frame * 2] = value
        pcm[frame * 2 + 1] = value
    }
    func le<T: FixedWidthInteger>(_ value: T) -> Data { withUnsafeBytes(of: value.littleEndian) { Data($0) } }
    let body = pcm.withUnsafeBytes { Data($0) }
    var data = Data("RIFF".utf8) + le(UInt32(36 + body.count)) + Data("WAVEfmt ".utf8)
    data += le(UInt32(16)) + le(UInt16(1)) + le(UInt16(2)) + le(UInt32(rate)) + le(UInt32(rate * 4)) + le(UInt16(4)) + le(UInt16(16))
    return data + Data("data".utf8) + le(UInt32(body.count)) + body
}
