import RepriseCore

extension MPDError {
    /// The ACK a refusal of the player is, by MPD's codes for the same refusal (beside its D-Bus error,
    /// `PlayerError.dbusError`): an argument that can never be valid is `ARG`, media that cannot be found, read or
    /// decoded — or a scheme not read — is `NO_EXIST`, too much waiting work is `SYSTEM`. `text` replaces the
    /// player's message where MPD words it its own way ("No such song").
    public init(_ error: PlayerError, text: String? = nil) {
        let code: Code = switch error {
        case .invalidArgument: .argument
        case .unsupportedScheme, .unplayable: .noExist
        case .busy: .system
        }
        self.init(code, text ?? error.message)
    }
}
