import RepriseCore
import SDBus

/// What Reprise's own audio-session interface reads and changes; the executable implements it over the
/// policy, PulseAudio and the other players.
public protocol AudioSessionControl: AnyObject {
    var category: AudioCategory { get }
    var options: AudioOptions { get }
    var silent: Bool { get }
    var isInterrupted: Bool { get }
    /// The name of the output Reprise plays to ("" when not known).
    var outputName: String { get }
    /// Every output: name, description, and whether Reprise plays to it.
    var outputs: [(name: String, description: String, current: Bool)] { get }
    func setCategory(_ category: AudioCategory, options: AudioOptions)
    func setSilent(_ on: Bool)
    /// Moves Reprise to the output `name` ("" follows the default again); throws for an unknown name.
    func setOutput(_ name: String) throws(PlayerError)
}

public enum AudioSessionNames {
    public static let interface = "app.reprise.AudioSession1"

    public static let description = DBusInterfaces.appRepriseAudioSession1
}

/// app.reprise.AudioSession1 at /app/reprise/Reprise (``MPRIS/repriseObjectPath``).
public final class AudioSessionInterface: InterfaceImplementation {
    private let control: AudioSessionControl
    private let bus: Bus
    private let log: Log
    private var announced = AnnouncedProperties([]) { _ in nil }

    public init(bus: Bus, control: AudioSessionControl, log: Log) throws(DBusError) {
        self.bus = bus
        self.control = control
        self.log = log
        try bus.export(AudioSessionNames.description, at: MPRIS.repriseObjectPath, implementation: self)
        announced = AnnouncedProperties(AudioSessionNames.description.properties.map(\.name)) { [unowned self] in try? get($0) }
    }

    /// Announces the properties that changed since the last call (one PropertiesChanged).
    public func announceChanges() {
        let changed = announced.refresh()
        guard !changed.isEmpty else { return }
        try? bus.emitPropertiesChanged(path: MPRIS.repriseObjectPath, interface: AudioSessionNames.interface, names: changed)
    }

    public func interruptionBegan(_ kind: InterruptionKind) {
        emit("InterruptionBegan", [.string(kind.rawValue)])
    }

    public func interruptionEnded(_ kind: InterruptionKind, shouldResume: Bool) {
        emit("InterruptionEnded", [.string(kind.rawValue), .bool(shouldResume)])
    }

    public func routeChanged(_ reason: RouteChangeReason, output: String) {
        emit("RouteChanged", [.string(reason.rawValue), .string(output)])
    }

    private func emit(_ member: String, _ arguments: [DBusValue]) {
        announceChanges()
        do {
            try bus.emitSignal(path: MPRIS.repriseObjectPath, interface: AudioSessionNames.interface, member: member, arguments)
        } catch {
            log.warning("could not send \(member): \(error)")
        }
    }

    public func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let args = call.arguments
        switch (call.member, args.first) {
        case ("SetCategory", .string(let name)?):
            guard args.count == 2, let names = args[1].stringArray else { throw .invalidArgs("SetCategory takes (s, as)") }
            guard let category = AudioCategory(name: name) else {
                throw .invalidArgs("unknown category '\(name)' (known: \(AudioCategory.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            do throws(PlayerError) {
                control.setCategory(category, options: try AudioOptions(names: names))
            } catch {
                throw .invalidArgs(error.message)
            }
        case ("SetSilent", .bool(let on)?):
            control.setSilent(on)
        case ("SetOutput", .string(let name)?):
            do throws(PlayerError) {
                try control.setOutput(name)
            } catch {
                throw .invalidArgs(error.message)
            }
        case ("ListOutputs", _):
            let outputs = control.outputs.map { DBusValue.structure([.string($0.name), .string($0.description), .bool($0.current)]) }
            return .reply([.array(elementSignature: "(ssb)", outputs)])
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
        announceChanges()
        return .reply([])
    }

    public func get(_ property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "Category": .string(control.category.rawValue)
        case "Options": .strings(control.options.names)
        case "Silent": .bool(control.silent)
        case "Output": .string(control.outputName)
        case "Interrupted": .bool(control.isInterrupted)
        default: throw DBusError.unknownProperty(property)
        }
    }

    public func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.readOnly(property, "\(property) is read-only (use Set\(property))")
    }
}
