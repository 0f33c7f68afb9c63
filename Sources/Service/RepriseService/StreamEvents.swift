/// Follows what happens to the engine's streams (the video window, the audio session); each hears only what it
/// implements.
protocol StreamEventListener: AnyObject {
    /// A stream is about to load.
    func streamWillLoad()
    /// The loaded stream prerolled, with the subtitle file found beside it (if any).
    func streamReady(subtitleURI: String?)
    /// Buffering of network media, in percent (100: enough to play).
    func buffering(percent: Int)
    /// The sound server asked the stream to pause (true) or play again (false).
    func corkRequested(_ cork: Bool)
}

extension StreamEventListener {
    func streamWillLoad() {}
    func streamReady(subtitleURI: String?) {}
    func buffering(percent: Int) {}
    func corkRequested(_ cork: Bool) {}
}

/// The engine's listener list: made before the engine, given to it and to each listener at init. Owned by the
/// event loop.
final class StreamEvents {
    private var listeners: [StreamEventListener] = []

    func listen(_ listener: StreamEventListener) { listeners.append(listener) }

    func streamWillLoad() { for listener in listeners { listener.streamWillLoad() } }
    func streamReady(subtitleURI: String?) { for listener in listeners { listener.streamReady(subtitleURI: subtitleURI) } }
    func buffering(percent: Int) { for listener in listeners { listener.buffering(percent: percent) } }
    func corkRequested(_ cork: Bool) { for listener in listeners { listener.corkRequested(cork) } }
}
