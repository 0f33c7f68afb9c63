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
