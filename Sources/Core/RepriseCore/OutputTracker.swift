/// An audio output (a PulseAudio sink) as the policy sees it.
public struct Output: Sendable, Equatable {
    public let index: UInt32
    public let name: String
    public let description: String
    /// Whether its active port (jack) can be used; nil when it has no ports.
    public let portAvailable: Bool?

    public init(index: UInt32, name: String, description: String, portAvailable: Bool?) {
        self.index = index
        self.name = name
        self.description = description
        self.portAvailable = portAvailable
    }
}

/// Which outputs exist, which one Reprise's stream is on and which is the default, turned into route events:
/// the output in use removed or its port unplugged → ``PolicyEvent/outputLost``; a new default output →
/// the stream should follow (``PolicyEvent/outputAdded``) unless the user chose an output.
public struct OutputTracker: Sendable {
    public private(set) var outputs: [UInt32: Output] = [:]
    public private(set) var defaultName: String?
    /// The sink Reprise's stream is on (nil: no stream now).
    public private(set) var streamSink: UInt32?
    /// The sink the stream was on before its last move (PulseAudio moves a stream off a sink being removed
    /// before it reports the removal).
    private var sinkBeforeMove: UInt32?
    /// The output the user chose, if any; followed instead of the default.
    public private(set) var chosenName: String?

    public init() {}

    public var currentOutput: Output? { streamSink.flatMap { outputs[$0] } }

    /// Outputs sorted by name.
    public var sortedOutputs: [Output] { outputs.values.sorted { $0.name < $1.name } }

    public func output(named name: String) -> Output? { outputs.values.first { $0.name == name } }

    public mutating func outputChanged(_ output: Output) -> PolicyEvent? {
        let previous = outputs[output.index]
        outputs[output.index] = output
        guard output.index == streamSink, output.portAvailable == false, previous?.portAvailable != false else { return nil }
        return .outputLost
    }

    public mutating func outputRemoved(_ index: UInt32) -> PolicyEvent? {
        let removed = outputs.removeValue(forKey: index)
        if let removed, removed.name == chosenName { chosenName = nil }
        let inUse = index == streamSink || index == sinkBeforeMove
        if index == sinkBeforeMove { sinkBeforeMove = nil }
        return inUse ? .outputLost : nil
    }

    /// Reprise's stream is (now) on `sink`.
    public mutating func streamIsOn(_ sink: UInt32) {
        if let current = streamSink, current != sink, outputs[current] != nil { sinkBeforeMove = current }
        streamSink = sink
    }

    public mutating func streamEnded() {
        streamSink = nil
        sinkBeforeMove = nil
    }

    /// The server's default output is now `name`: returns where the stream should move (nil: stay) and the event.
    /// A default that changed because the old one was removed is no new device (the removal was reported).
    public mutating func defaultChanged(to name: String) -> (moveTo: String?, event: PolicyEvent?) {
        let previous = defaultName
        defaultName = name
        guard chosenName == nil, let previous, previous != name else { return (nil, nil) }
        let moveTo = currentOutput.map { $0.name == name ? nil : name } ?? nil
        return (moveTo, output(named: previous) == nil ? nil : .outputAdded)
    }

    /// The user picked `name` (nil: follow the default again). Returns where the stream should move.
    public mutating func choose(_ name: String?) -> String? {
        chosenName = name
        let target = name ?? defaultName
        return target == currentOutput?.name ? nil : target
    }

    /// Forgets everything (the sound server went away).
    public mutating func reset() {
        let chosen = chosenName
        self = OutputTracker()
        chosenName = chosen
    }
}
