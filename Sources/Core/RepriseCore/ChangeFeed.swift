/// The parts of what Reprise shows that one transaction can change. A ``Change`` names the set that did; whoever
/// follows a part reads it again, the rest is left alone (the MPD protocol's `idle` subsystems are these, grouped).
public struct ChangeAspects: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Playing, paused or stopped, and what can be asked now (next, previous, seek).
    public static let transport = ChangeAspects(rawValue: 1 << 0)
    /// The position jumped (a seek, a restart): see ``Change/seekedToMicroseconds``.
    public static let position = ChangeAspects(rawValue: 1 << 1)
    /// The entry playing, or its tags.
    public static let current = ChangeAspects(rawValue: 1 << 2)
    /// The queue's entries: added, removed, moved, their tags (see ``Change/queueEdits``).
    public static let queue = ChangeAspects(rawValue: 1 << 3)
    /// The volume.
    public static let volume = ChangeAspects(rawValue: 1 << 4)
    /// Loop, shuffle and the rate.
    public static let options = ChangeAspects(rawValue: 1 << 5)
    /// Levelling, crossfade, the equalizer, the gain applied.
    public static let sound = ChangeAspects(rawValue: 1 << 6)
    public static let chapters = ChangeAspects(rawValue: 1 << 7)
    /// Lyrics found or forgotten.
    public static let lyrics = ChangeAspects(rawValue: 1 << 8)
    /// The synced line sung now.
    public static let lyricsLine = ChangeAspects(rawValue: 1 << 16)
    public static let sleep = ChangeAspects(rawValue: 1 << 9)
    /// The interstitials of the entry, the one playing, whether it can be skipped.
    public static let interstitials = ChangeAspects(rawValue: 1 << 10)
    /// The video window and the streams it offers (fullscreen, fit, tracks, loading).
    public static let video = ChangeAspects(rawValue: 1 << 11)
    /// The audio session: category, outputs, other players, interruptions.
    public static let audioSession = ChangeAspects(rawValue: 1 << 12)
    /// The library's contents or its scanning.
    public static let library = ChangeAspects(rawValue: 1 << 13)
    /// The playlist files.
    public static let storedPlaylists = ChangeAspects(rawValue: 1 << 14)
    public static let scrobbling = ChangeAspects(rawValue: 1 << 15)
    /// The library stored loudness it measured (a track's ReplayGain may follow).
    public static let measurements = ChangeAspects(rawValue: 1 << 17)

    /// Each part by the name the interfaces' XML gives it (`app.reprise.Codegen.Parts`).
    public static let byName: [String: ChangeAspects] = [
        "transport": .transport, "position": .position, "current": .current, "queue": .queue, "volume": .volume,
        "options": .options, "sound": .sound, "chapters": .chapters, "lyrics": .lyrics, "lyricsLine": .lyricsLine,
        "sleep": .sleep, "interstitials": .interstitials, "video": .video, "audioSession": .audioSession,
        "library": .library, "storedPlaylists": .storedPlaylists, "scrobbling": .scrobbling, "measurements": .measurements,
    ]

    /// The parts `names` names; nil when one of them is no part.
    public init?(named names: [String]) {
        var parts: ChangeAspects = []
        for name in names {
            guard let part = Self.byName[name] else { return nil }
            parts.formUnion(part)
        }
        self = parts
    }

    /// Everything the player itself owns.
    public static let player: ChangeAspects = [.transport, .position, .current, .queue, .volume, .options, .sound, .chapters,
                                               .lyrics, .lyricsLine, .sleep, .interstitials]
}

/// What one request or event changed: the parts, and the details a follower needs besides re-reading them.
public struct Change: Sendable, Equatable {
    public var aspects: ChangeAspects
    /// The queue's edits by entry id, in order (with ``ChangeAspects/queue``).
    public var queueEdits: [TrackListChange]
    /// Where the position jumped to, the last jump's (with ``ChangeAspects/position``).
    public var seekedToMicroseconds: Int64?
    /// False when nothing saved across a restart changed (tags read in the background, a lyrics line).
    public var affectsSavedState: Bool
    /// What a look at the playlist folders found (with ``ChangeAspects/storedPlaylists``).
    public var playlists: PlaylistLibrary.Changes

    public init(_ aspects: ChangeAspects, queueEdits: [TrackListChange] = [], seekedToMicroseconds: Int64? = nil,
                affectsSavedState: Bool = false, playlists: PlaylistLibrary.Changes = .init()) {
        self.aspects = aspects
        self.queueEdits = queueEdits
        self.seekedToMicroseconds = seekedToMicroseconds
        self.affectsSavedState = affectsSavedState
        self.playlists = playlists
    }
}

/// Follows the ``ChangeFeed``.
public protocol ChangeListener: AnyObject {
    func didChange(_ change: Change)
}

/// The one feed of changes: the player and every part with state of its own publish into it, once per transaction;
/// the D-Bus announcer, the state saver and every follower listen. Owned by the event loop.
///
/// A change published while one is being delivered (a listener acted on the player) waits until every listener
/// has heard the first: each hears every change, in order, and none is re-entered.
public final class ChangeFeed {
    private var listeners: [ChangeListener] = []
    private var waiting: [Change] = []
    private var delivering = false
    /// Holds not yet released (``hold()``).
    private var holds = 0

    public init() {}

    /// Adds `listener`, which hears every later change after those listening already.
    public func listen(_ listener: ChangeListener) { listeners.append(listener) }

    /// Tells every listener of `change` (now, after the change being delivered, or when the last hold ends).
    public func publish(_ change: Change) {
        guard !change.aspects.isEmpty else { return }
        waiting.append(change)
        deliverWaiting()
    }

    /// Until the matching ``release()``, changes published wait, in order: a surface's reply to the request that
    /// made them leaves before any follower hears them (an MPD `pause` is answered `OK` before the D-Bus signals
    /// go out). The state itself has changed already; only the telling waits.
    public func hold() { holds += 1 }

    /// Ends a ``hold()``; the last one delivers what waited.
    public func release() {
        holds -= 1
        deliverWaiting()
    }

    private func deliverWaiting() {
        guard !delivering, holds == 0, !waiting.isEmpty else { return }
        delivering = true
        defer { delivering = false }
        var next = 0
        while next < waiting.count {
            let change = waiting[next]
            next += 1
            for listener in listeners { listener.didChange(change) }
        }
        waiting.removeAll(keepingCapacity: true)
    }

    /// Tells of a change to `aspects` alone.
    public func publish(_ aspects: ChangeAspects) { publish(Change(aspects)) }
}
