import CPulse

/// One entry of the sound server's stream-restore database (what it remembers for a group of streams, e.g.
/// `sink-input-by-media-role:game`): the volume, device and mute the next stream of that group starts with.
public struct RestoreEntry: Equatable, Sendable {
    public var name: String
    /// Channel positions for `volumes` (empty with no volume saved).
    public var channelPositions: [Int32]
    /// Per-channel volumes; empty when the entry saves none.
    public var volumes: [UInt32]
    public var device: String?
    public var muted: Bool

    public init(name: String, channelPositions: [Int32], volumes: [UInt32], device: String?, muted: Bool) {
        (self.name, self.channelPositions, self.volumes, self.device, self.muted) = (name, channelPositions, volumes, device, muted)
    }
}

extension PulseClient {
    /// Reads the whole stream-restore database; `done` gets nil when the server has none (no module-stream-restore)
    /// or there is no connection. The server answers requests in order: the answer reflects every request sent
    /// before this one and none sent after.
    public func readRestoreEntries(_ done: @escaping ([RestoreEntry]?) -> Void) {
        guard let context, isConnected else { return done(nil) }
        let collector = Unmanaged.passRetained(EntryCollector(done)).toOpaque()
        let operation = pa_ext_stream_restore_read(context, { _, info, eol, userdata in
            guard let userdata else { return }
            let collector = Unmanaged<EntryCollector>.fromOpaque(userdata)
            guard eol == 0, let info else {
                collector.takeRetainedValue().finish(failed: eol < 0)
                return
            }
            collector.takeUnretainedValue().entries.append(RestoreEntry(info.pointee))
        }, collector)
        guard let operation else {
            Unmanaged<EntryCollector>.fromOpaque(collector).release()
            return done(nil)
        }
        pa_operation_unref(operation)
    }

    /// Replaces these entries (others stay as they are), for the streams that start from now on.
    public func writeRestoreEntries(_ entries: [RestoreEntry]) {
        guard let context, isConnected, !entries.isEmpty else { return }
        let names = entries.map { strdup($0.name) }
        let devices = entries.map { $0.device.map { strdup($0) } ?? nil }
        defer {
            names.forEach { free($0) }
            devices.forEach { free($0) }
        }
        var infos = entries.enumerated().map { position, entry in
            var info = pa_ext_stream_restore_info()
            info.name = UnsafePointer(names[position])
            info.device = devices[position].map { UnsafePointer($0) }
            info.mute = entry.muted ? 1 : 0
            let count = min(entry.volumes.count, entry.channelPositions.count, Int(PA_CHANNELS_MAX))
            info.volume.channels = UInt8(count)
            info.channel_map.channels = UInt8(count)
            withUnsafeMutableBytes(of: &info.volume.values) { raw in
                for channel in 0..<count { raw.storeBytes(of: entry.volumes[channel], toByteOffset: channel * 4, as: UInt32.self) }
            }
            withUnsafeMutableBytes(of: &info.channel_map.map) { raw in
                for channel in 0..<count {
                    raw.storeBytes(of: entry.channelPositions[channel], toByteOffset: channel * 4, as: Int32.self)
                }
            }
            return info
        }
        if let operation = pa_ext_stream_restore_write(context, PA_UPDATE_REPLACE, &infos, UInt32(infos.count), 0, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// Removes these entries: streams of those groups start as if none had been seen before.
    public func deleteRestoreEntries(_ names: [String]) {
        guard let context, isConnected, !names.isEmpty else { return }
        let copies = names.map { UnsafePointer(strdup($0)) } + [nil]
        defer { copies.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        if let operation = pa_ext_stream_restore_delete(context, copies, nil, nil) { pa_operation_unref(operation) }
    }
}

private final class EntryCollector {
    var entries: [RestoreEntry] = []
    let done: ([RestoreEntry]?) -> Void
    init(_ done: @escaping ([RestoreEntry]?) -> Void) { self.done = done }
    func finish(failed: Bool) { done(failed ? nil : entries) }
}

extension RestoreEntry {
    init(_ info: pa_ext_stream_restore_info) {
        var info = info
        let count = pa_cvolume_valid(&info.volume) != 0 ? Int(min(info.volume.channels, info.channel_map.channels)) : 0
        let volumes = withUnsafeBytes(of: info.volume.values) { raw in
            (0..<count).map { raw.load(fromByteOffset: $0 * 4, as: UInt32.self) }
        }
        let positions = withUnsafeBytes(of: info.channel_map.map) { raw in
            (0..<count).map { raw.load(fromByteOffset: $0 * 4, as: Int32.self) }
        }
        self.init(name: info.name.map { String(cString: $0) } ?? "", channelPositions: positions, volumes: volumes,
                  device: info.device.map { String(cString: $0) }, muted: info.mute != 0)
    }
}
