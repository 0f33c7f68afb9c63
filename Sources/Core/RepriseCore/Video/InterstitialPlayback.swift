/// The interstitials of the loaded entry as the player plays them: the schedule (and which were watched), the one
/// playing, where the last check was, and whether skipping it was last announced as allowed.
public struct InterstitialPlayback: Sendable, Equatable {
    public internal(set) var schedule = InterstitialSchedule()
    /// Index into ``schedule`` of the one playing.
    public internal(set) var active: Int?
    var lastCheck: Int64 = 0
    var announcedSkippable = false

    public init() {}
}
