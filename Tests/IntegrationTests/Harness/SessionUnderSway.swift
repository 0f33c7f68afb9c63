import TestSupport

/// A private session and a headless sway of `width`×`height` beside it, stopped when the session closes.
func sessionUnderSway(width: Int, height: Int) throws -> (Session, HeadlessSway) {
    let session = try Session()
    do {
        let sway = try HeadlessSway(width: width, height: height)
        session.onClose { sway.stop() }
        return (session, sway)
    } catch {
        session.close()
        throw error
    }
}

extension VirtualPointer {
    /// A pointer (and on KWin touch) on `compositor` from the debug build's `wl-virtual-input`.
    convenience init(on compositor: some VirtualInputTarget, width: Int, height: Int) throws {
        try self.init(tool: packageRoot.appendingPathComponent(".build/debug/wl-virtual-input").path, on: compositor,
                      width: width, height: height)
    }
}
