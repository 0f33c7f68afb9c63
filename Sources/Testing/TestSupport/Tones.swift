import Foundation
/// Writes a sine tone of `seconds` to `path` with gst-launch: `encoder` is the encoding chain
/// (e.g. `["vorbisenc", "!", "oggmux"]`), `tags` a GStreamer tag list such as `title=\"A\",artist=\"B\"`.
public func generateTone(at path: String, seconds: Int, frequency: Int = 440, tags: String?, encoder: [String]) throws {
    var pipeline = ["-q", "audiotestsrc", "num-buffers=\(seconds * 44100 / 1024)", "freq=\(frequency)", "volume=0.2",
                    "!", "audio/x-raw,rate=44100,channels=2"]
    if let tags { pipeline += ["!", "taginject", "tags=\"\(tags)\""] }
    pipeline += ["!", "audioconvert", "!", "audioresample", "!"] + encoder + ["!", "filesink", "location=\(path)"]
    let result = try runCommand("gst-launch-1.0", pipeline)
    guard result.status == 0 else { throw HarnessError(message: "gst-launch for \(path): \(result.errors)") }
}

/// A WAV file of 0.1 s of 8 kHz mono 8-bit silence with INFO tags (title, artist, album, genre, track).
public func taggedWAV(title: String, artist: String, album: String, genre: String, track: Int) -> Data {
    func chunk(_ id: String, _ body: Data) -> Data {
        var data = Data(id.utf8)
        var size = UInt32(body.count).littleEndian
        data.append(Data(bytes: &size, count: 4))
        data.append(body)
        if body.count % 2 == 1 { data.append(0) }
        return data
    }
    func text(_ value: String) -> Data { Data(value.utf8) + Data([0]) }
    var format = Data()
    for value in [UInt16(1), UInt16(1)] { var v = value.littleEndian; format.append(Data(bytes: &v, count: 2)) }
    for value in [UInt32(8000), UInt32(8000)] { var v = value.littleEndian; format.append(Data(bytes: &v, count: 4)) }
    for value in [UInt16(1), UInt16(8)] { var v = value.littleEndian; format.append(Data(bytes: &v, count: 2)) }
    let info = Data("INFO".utf8) + chunk("INAM", text(title)) + chunk("IART", text(artist)) + chunk("IPRD", text(album))
        + chunk("IGNR", text(genre)) + chunk("ITRK", text(String(track)))
    let body = Data("WAVE".utf8) + chunk("fmt ", format) + chunk("LIST", info) + chunk("data", Data(repeating: 0x80, count: 800))
    return chunk("RIFF", body)
}

