import BusInterfaces
import MPRIS
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
    /// What is wrong with the output in use ("" when nothing is known to be): nothing consumes what Reprise plays.
    var outputProblem: String { get }
    func setCategory(_ category: AudioCategory, options: AudioOptions)
    func setSilent(_ on: Bool)
    /// Moves Reprise to the output `name` ("" follows the default again); throws for an unknown name.
    func setOutput(_ name: String) throws(PlayerError)
}

/// app.reprise.AudioSession1 at /app/reprise/Reprise (``MPRIS/repriseObjectPath``).
public final class AudioSessionInterface: AudioSession1Handler {
    private let control: AudioSessionControl
    private let signals: AudioSession1Signals
    private let log: Log
    /// Announces the properties that changed since the last call (one PropertiesChanged).
    public let announceChanges: () -> Void

    /// Sends its signals on `bus` at Reprise's own path; `announceChanges` has the adaptor announce its properties.
    public init(control: AudioSessionControl, bus: any ObjectBus, log: Log, announceChanges: @escaping () -> Void) {
        self.control = control
        signals = AudioSession1Signals(bus: bus, path: RepriseObjects.ownPath)
        self.log = log
        self.announceChanges = announceChanges
    }

    public func interruptionBegan(_ kind: InterruptionKind) {
        emit("InterruptionBegan") { () throws(DBusError) in try signals.interruptionBegan(kind: kind.rawValue) }
    }

    public func interruptionEnded(_ kind: InterruptionKind, shouldResume: Bool) {
        emit("InterruptionEnded") { () throws(DBusError) in try signals.interruptionEnded(kind: kind.rawValue, shouldResume: shouldResume) }
    }

    public func routeChanged(_ reason: RouteChangeReason, output: String) {
        emit("RouteChanged") { () throws(DBusError) in try signals.routeChanged(reason: reason.rawValue, output: output) }
    }

    private func emit(_ member: String, _ send: () throws(DBusError) -> Void) {
        announceChanges()
        do throws(DBusError) {
            try send()
        } catch {
            log.warning("could not send \(member): \(error)")
        }
    }

    public func setCategory(category: String, options: [String]) throws(DBusError) {
        guard let value = AudioCategory(name: category) else {
            throw .invalidArgs("unknown category '\(category)' (known: \(AudioCategory.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        do throws(PlayerError) {
            control.setCategory(value, options: try AudioOptions(names: options))
        } catch {
            throw .invalidArgs(error.message)
        }
        announceChanges()
    }

    public func setSilent(silent: Bool) throws(DBusError) {
        control.setSilent(silent)
        announceChanges()
    }

    public func setOutput(output: String) throws(DBusError) {
        do throws(PlayerError) {
            try control.setOutput(output)
        } catch {
            throw .invalidArgs(error.message)
        }
        announceChanges()
    }

    public func listOutputs() throws(DBusError) -> [AudioOutputEntry] {
        control.outputs.map { AudioOutputEntry(name: $0.name, description: $0.description, active: $0.current) }
    }

    public var category: String { control.category.rawValue }
    public var options: [String] { control.options.names }
    public var silent: Bool { control.silent }
    public var output: String { control.outputName }
    public var outputProblem: String { control.outputProblem }
    public var interrupted: Bool { control.isInterrupted }
}
