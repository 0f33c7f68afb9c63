import RepriseCore
import SDBus

/// org.mpris.MediaPlayer2.Player
final class PlayerInterface: InterfaceImplementation {
    private let player: Player
    /// The values last announced, which are the current ones (every change is announced when it happens):
    /// reads (GetAll from every widget) are served from them instead of being recomputed.
    var announced: (String) -> DBusValue? = { _ in nil }
    var onUserAction: ((PolicyEvent) -> Void)?
    var allowsPlayPause: (() -> Bool)?

    init(player: Player) { self.player = player }

    /// The user action a call stands for, as the audio policy counts them.
    private func userAction(_ member: String) -> PolicyEvent? {
        switch member {
        case "Play": .userPlayed
        case "Pause": .userPaused
        case "Stop": .userStopped
        case "PlayPause": player.status == .playing ? .userPaused : .userPlayed
        case "Next", "Previous", "OpenUri": .userChangedTrack
        default: nil
        }
    }

    func call(_ call: MethodCall) throws(DBusError) -> MethodOutcome {
        let args = call.arguments
        // The spec: with CanPause false, PlayPause has no effect and raises an error (the others only have no effect).
        if call.member == "PlayPause", !player.canPause {
            throw .notSupported("nothing to play or pause (CanPause is false)")
        }
        if call.member == "PlayPause", allowsPlayPause?() == false { return .reply([]) }
        if let action = userAction(call.member) { onUserAction?(action) }
        switch (call.member, args.first) {
        case ("Next", _): player.next()
        case ("Previous", _): player.previous()
        case ("Pause", _): player.pause()
        case ("PlayPause", _): player.playPause()
        case ("Stop", _): player.stop()
        case ("Play", _): player.play()
        case ("Seek", .int64(let offset)?): player.seek(by: offset)
        case ("SetPosition", .objectPath(let track)?):
            guard args.count == 2, case .int64(let position) = args[1] else { throw .invalidArgs("SetPosition takes (o, x)") }
            player.setPosition(entryID: MPRIS.entryID(fromTrackPath: track), microseconds: position)
        case ("OpenUri", .string(let uri)?):
            player.open(uri, completion: call.answer)
            return .deferred
        default:
            throw .invalidArgs("bad arguments for \(call.member)")
        }
        return .reply([])
    }

    func get(_ property: String) throws(DBusError) -> DBusValue {
        if let value = announced(property) { return value }
        return try currentValue(of: property)
    }

    func currentValue(of property: String) throws(DBusError) -> DBusValue {
        switch property {
        case "PlaybackStatus": .string(player.status.rawValue)
        case "LoopStatus": .string(player.loopStatus.rawValue)
        case "Rate": .double(player.rate)
        case "Shuffle": .bool(player.shuffle)
        case "Metadata": MetadataEncoding.encode(player.announcedTrack)
        case "Volume": .double(player.volume)
        case "Position": .int64(player.positionMicroseconds)
        case "MinimumRate": .double(player.rateRange.lowerBound)
        case "MaximumRate": .double(player.rateRange.upperBound)
        case "CanGoNext": .bool(player.canGoNext)
        case "CanGoPrevious": .bool(player.canGoPrevious)
        case "CanPlay": .bool(player.canPlay)
        case "CanPause": .bool(player.canPause)
        case "CanSeek": .bool(player.canSeek)
        case "CanControl": .bool(true)
        default: throw DBusError.unknownProperty(property)
        }
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        do throws(PlayerError) {
            switch (property, value) {
            case ("LoopStatus", .string(let text)):
                guard let status = LoopStatus(rawValue: text) else {
                    throw .invalidArgument("LoopStatus must be one of \(LoopStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                player.setLoopStatus(status)
            case ("Rate", .double(let rate)): try player.setRate(rate)
            case ("Shuffle", .bool(let on)): player.setShuffle(on)
            case ("Volume", .double(let volume)): try player.setVolume(volume)
            default: throw .invalidArgument("cannot set \(property) to a value of type \(value.signature)")
            }
        } catch {
            throw error.dbusError
        }
    }
}
