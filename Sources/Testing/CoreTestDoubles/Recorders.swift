import RepriseCore

/// Calls `body` with each change the feed publishes (tests that count or react to changes).
public final class ChangeClosure: ChangeListener {
    private let body: (Change) -> Void
    public init(_ body: @escaping (Change) -> Void) { self.body = body }
    public func didChange(_ change: Change) { body(change) }
}

/// A user-action policy that records what it was told and allows PlayPause unless told not to.
public final class RecordingPolicy: UserActionPolicy {
    public private(set) var events: [PolicyEvent] = []
    public var allowing = true
    public init() {}
    public func userActed(_ event: PolicyEvent) { events.append(event) }
    public func allowsPlayPause() -> Bool { allowing }
}
