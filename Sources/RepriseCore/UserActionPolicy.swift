/// The one port between the surfaces people act through (the bus's interfaces, the video window's keys, desktop
/// search) and the audio policy: every transport or track request is told to it before it is carried out, and a
/// PlayPause asks it first.
public protocol UserActionPolicy: AnyObject {
    /// A person asked for `event` (from any surface), before it is carried out.
    func userActed(_ event: PolicyEvent)
    /// False drops a PlayPause (an echo of Reprise's own cork request, see the audio session).
    func allowsPlayPause() -> Bool
}

/// The policy where there is none (no audio session): everything allowed, nothing remembered.
public final class NoUserActionPolicy: UserActionPolicy {
    public init() {}
    public func userActed(_ event: PolicyEvent) {}
    public func allowsPlayPause() -> Bool { true }
}
