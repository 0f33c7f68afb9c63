import Foundation

/// ID3v2.3 tags made byte by byte, for crafted files: frames as TagLib and GStreamer read them.
public enum ID3v2 {
    /// One frame: its id, a 32-bit size (v2.3 sizes are not sync-safe), no flags, then `body`.
    public static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + [UInt8(body.count >> 24), UInt8((body.count >> 16) & 0xff), UInt8((body.count >> 8) & 0xff),
                          UInt8(body.count & 0xff), 0, 0] + body
    }

    /// A whole tag (header with a sync-safe size) holding `frames`, to put before an MP3's audio.
    public static func tag(_ frames: [UInt8]) -> Data {
        let size = frames.count
        var tag = Data("ID3".utf8) + [3, 0, 0]
        tag.append(contentsOf: [UInt8((size >> 21) & 0x7f), UInt8((size >> 14) & 0x7f), UInt8((size >> 7) & 0x7f), UInt8(size & 0x7f)])
        tag.append(contentsOf: frames)
        return tag
    }

    /// At least `bytes` of tiny TXXX frames ("k" = "v"): about a million objects to a reader that makes one of each.
    public static func tinyFrames(filling bytes: Int) -> [UInt8] {
        let one = frame("TXXX", [0, 0x6b, 0, 0x76])
        var frames: [UInt8] = []
        frames.reserveCapacity(bytes + one.count)
        while frames.count < bytes { frames += one }
        return frames
    }
}
