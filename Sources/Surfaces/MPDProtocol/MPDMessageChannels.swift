import RepriseCore

/// MPD's client-to-client messages (mpdscribble's "love", mpd-sima): a channel exists while a client is subscribed to
/// it; a message sent to it waits with each subscriber until `readmessages`, and wakes that subscriber's `idle
/// message`. Limits as MPD's: 16 subscriptions and 64 unread messages a client.
final class MPDMessageChannels {
    static let maximumSubscriptions = 16
    static let maximumUnread = 64

    private final class Subscriber {
        weak var session: MPDSession?
        var channels: Set<String> = []
        var unread: [(channel: String, text: String)] = []
        init(_ session: MPDSession) { self.session = session }
    }

    private var subscribers: [ObjectIdentifier: Subscriber] = [:]

    /// Subscribers whose connection is still open (a closed one's subscriptions end with it).
    private var live: [Subscriber] {
        subscribers = subscribers.filter { $0.value.session != nil && !($0.value.session?.isClosing ?? true) }
        return Array(subscribers.values)
    }

    /// Every channel someone is subscribed to, sorted.
    var channels: [String] { Set(live.flatMap(\.channels)).sorted() }

    func subscribe(_ session: MPDSession, to channel: String) throws(MPDError) {
        try Self.check(channel)
        _ = live
        let subscriber = subscribers[ObjectIdentifier(session)] ?? Subscriber(session)
        guard !subscriber.channels.contains(channel) else { throw MPDError(.exist, "already subscribed to this channel") }
        guard subscriber.channels.count < Self.maximumSubscriptions else { throw MPDError(.exist, "subscription list is full") }
        subscriber.channels.insert(channel)
        subscribers[ObjectIdentifier(session)] = subscriber
    }

    func unsubscribe(_ session: MPDSession, from channel: String) throws(MPDError) {
        guard let subscriber = subscribers[ObjectIdentifier(session)], subscriber.channels.remove(channel) != nil else {
            throw .noExist("not subscribed to this channel")
        }
        subscriber.unread.removeAll { $0.channel == channel }
    }

    /// Sends `text` to every subscriber of `channel` (not over their limit) and wakes them; refused when nobody got it.
    func send(_ text: String, to channel: String) throws(MPDError) {
        try Self.check(channel)
        var sent = false
        for subscriber in live where subscriber.channels.contains(channel) && subscriber.unread.count < Self.maximumUnread {
            subscriber.unread.append((channel, text))
            subscriber.session?.notify(.message)
            sent = true
        }
        guard sent else { throw .noExist("nobody is subscribed to this channel") }
    }

    /// Takes `session`'s unread messages.
    func takeUnread(_ session: MPDSession) -> [(channel: String, text: String)] {
        guard let subscriber = subscribers[ObjectIdentifier(session)] else { return [] }
        defer { subscriber.unread.removeAll() }
        return subscriber.unread
    }

    /// MPD's rule for a channel's name: letters, digits, `_`, `-`, `:` and `.`, at least one.
    private static func check(_ channel: String) throws(MPDError) {
        let valid = !channel.isEmpty && channel.utf8.allSatisfy { byte in
            (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
        guard valid else { throw .argument("invalid channel name") }
    }
}

/// `subscribe`, `unsubscribe`, `channels`, `sendmessage`, `readmessages`; and the partitions: Reprise has the
/// default one (`partition default`, `listpartitions`).
extension MPDCommandContext {
    func messageCommands() -> [MPDCommand] {
        [
            MPDCommand("subscribe", .read, 1, 1) { [self] call throws(MPDError) in
                try messages.subscribe(call.session, to: call[0])
                listener?.subsystemsChanged(.subscription)
                return .done
            },
            MPDCommand("unsubscribe", .read, 1, 1) { [self] call throws(MPDError) in
                try messages.unsubscribe(call.session, from: call[0])
                listener?.subsystemsChanged(.subscription)
                return .done
            },
            MPDCommand("channels", .read, 0, 0) { [self] call throws(MPDError) in
                for channel in messages.channels { call.add("channel", channel) }
                return .done
            },
            MPDCommand("sendmessage", .control, 2, 2) { [self] call throws(MPDError) in
                try messages.send(call[1], to: call[0])
                return .done
            },
            MPDCommand("readmessages", .read, 0, 0) { [self] call throws(MPDError) in
                for message in messages.takeUnread(call.session) {
                    call.add("channel", message.channel)
                    call.add("message", message.text)
                }
                return .done
            },
            MPDCommand("partition", .read, 1, 1) { call throws(MPDError) in
                guard call[0] == "default" else { throw .noExist("partition does not exist") }
                return .done
            },
            MPDCommand("listpartitions", .read, 0, 0) { call throws(MPDError) in
                call.add("partition", "default")
                return .done
            },
        ]
    }
}
