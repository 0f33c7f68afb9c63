import TestSupport

extension Session {
    /// A session on `soundServer` with a loopback-only network namespace for the servers a test runs there (Rygel,
    /// snapserver, shairport-sync); the caller stops the namespace, then closes the session.
    static func inNetworkNamespace(soundServer: SoundServerKind = .minimalPulseAudio) throws -> (Session, NetworkNamespace) {
        let session = try Session(soundServer: soundServer)
        do {
            return (session, try NetworkNamespace(directory: session.directory))
        } catch {
            session.close()
            throw error
        }
    }
}
