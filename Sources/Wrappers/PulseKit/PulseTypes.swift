import CPulse
import RepriseCore

/// A playback stream, copied out of `pa_sink_input_info`.
public struct SinkInputInfo: Sendable, Equatable {
    public let index: UInt32
    public let sink: UInt32
    public let processID: Int32?
    public let role: String?
    public let applicationName: String?
    /// The stream-restore group the server named for the stream (`module-stream-restore.id`, set by a stock
    /// PulseAudio's module-stream-restore or by the app itself); nil where the server names none.
    public let restoreGroup: String?
    /// Per-channel volumes (`pa_volume_t`, 65536 = 100 %).
    public let volumes: [UInt32]
    public let muted: Bool
    public let corked: Bool

    public init(index: UInt32, sink: UInt32, processID: Int32?, role: String?, applicationName: String?, volumes: [UInt32],
                muted: Bool, corked: Bool, restoreGroup: String? = nil) {
        self.index = index
        self.sink = sink
        self.processID = processID
        self.role = role
        self.applicationName = applicationName
        self.restoreGroup = restoreGroup
        self.volumes = volumes
        self.muted = muted
        self.corked = corked
    }
}

/// What the sound server reported.
public enum PulseEvent: Sendable, Equatable {
    /// Connected (again): everything known so far was reported afresh just before.
    case connected
    /// The server went away; the client reconnects by itself when it comes back.
    case disconnected
    case defaultSinkChanged(String)
    case sinkChanged(Output)
    case sinkRemoved(UInt32)
    case sinkInputChanged(SinkInputInfo, isNew: Bool)
    case sinkInputRemoved(UInt32)
}

extension Output {
    /// A sink as `pa_sink_info` describes it; a port whose availability is not known counts as usable.
    init(_ info: pa_sink_info) {
        let name = info.name.map { String(cString: $0) } ?? ""
        var portAvailable: Bool?
        if let port = info.active_port?.pointee { portAvailable = Int64(port.available) != Int64(PA_PORT_AVAILABLE_NO.rawValue) }
        self.init(index: info.index, name: name, description: info.description.map { String(cString: $0) } ?? name,
                  portAvailable: portAvailable)
    }
}

extension SinkInputInfo {
    /// Linked to a sink: its sink and volume are real. PipeWire's pulse server reports a new stream before it is
    /// linked (no sink, corked, volume 0).
    public var isLinked: Bool { sink != UInt32.max } // PA_INVALID_INDEX

    /// The same stream, muted or not.
    public func with(muted: Bool) -> SinkInputInfo {
        SinkInputInfo(index: index, sink: sink, processID: processID, role: role, applicationName: applicationName,
                      volumes: volumes, muted: muted, corked: corked, restoreGroup: restoreGroup)
    }

    /// The same stream with other volumes.
    public func with(volumes: [UInt32]) -> SinkInputInfo {
        SinkInputInfo(index: index, sink: sink, processID: processID, role: role, applicationName: applicationName,
                      volumes: volumes, muted: muted, corked: corked, restoreGroup: restoreGroup)
    }

    init(_ info: pa_sink_input_info) {
        index = info.index
        sink = info.sink
        func property(_ key: String) -> String? { pa_proplist_gets(info.proplist, key).map { String(cString: $0) } }
        processID = property("application.process.id").flatMap { Int32($0) }
        role = property("media.role")
        applicationName = property("application.name")
        restoreGroup = property("module-stream-restore.id")
        var cvolume = info.volume
        volumes = withUnsafeBytes(of: &cvolume.values) { raw in
            Array(raw.bindMemory(to: UInt32.self).prefix(Int(cvolume.channels)))
        }
        muted = info.mute != 0
        corked = info.corked != 0
    }
}
