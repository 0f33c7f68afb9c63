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
    /// A pointer on `sway` from the debug build's `wl-virtual-pointer`.
    convenience init(on sway: HeadlessSway, width: Int, height: Int) throws {
        try self.init(tool: packageRoot.appendingPathComponent(".build/debug/wl-virtual-pointer").path, on: sway, width: width, height: height)
    }
}
