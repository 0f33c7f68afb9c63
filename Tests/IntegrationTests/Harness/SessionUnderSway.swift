import TestSupport

/// A private session and a headless sway of `width`×`height` beside it; stop the sway, then close the session.
func sessionUnderSway(width: Int, height: Int) throws -> (Session, HeadlessSway) {
    let session = try Session()
    do {
        return (session, try HeadlessSway(width: width, height: height))
    } catch {
        session.close()
        throw error
    }
}
