/// A D-Bus match rule for signals, built from its parts (values quoted as the specification says) instead of
/// written by hand. The generated signal types (`…Signals.…Match`) and the standard signals below make them.
public struct MatchRule: Sendable, Equatable, CustomStringConvertible {
    public var sender: String?
    public var path: String?
    public var interface: String?
    public var member: String?
    /// The first argument equals this.
    public var arg0: String?
    /// The first argument is this bus name or below it (`org.mpris.MediaPlayer2` matches every player).
    public var arg0Namespace: String?

    public init(sender: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil,
                arg0: String? = nil, arg0Namespace: String? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
        self.arg0Namespace = arg0Namespace
    }

    /// The rule as sd-bus takes it: `type='signal',sender='…',…`.
    public var description: String {
        let parts: [(String, String?)] = [("sender", sender), ("path", path), ("interface", interface), ("member", member),
                                         ("arg0", arg0), ("arg0namespace", arg0Namespace)]
        return (["type='signal'"] + parts.compactMap { key, value in value.map { "\(key)=\(Self.quoted($0))" } })
            .joined(separator: ",")
    }

    /// A value in single quotes; a quote inside ends the quoting, is escaped, and starts it again.
    static func quoted(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// PropertiesChanged from `sender` (any peer when nil), on `path` and for `interface` when given.
    public static func propertiesChanged(sender: String? = nil, path: String? = nil, interface: String? = nil) -> MatchRule {
        MatchRule(sender: sender, path: path, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                  arg0: interface)
    }

    /// The bus's NameOwnerChanged for `name`, or for every name under `namespace`.
    public static func nameOwnerChanged(name: String? = nil, namespace: String? = nil) -> MatchRule {
        MatchRule(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                  member: "NameOwnerChanged", arg0: name, arg0Namespace: namespace)
    }

    /// Every signal of `interface` (a member when given) from `sender` on `path`.
    public static func signals(of interface: String, member: String? = nil, sender: String? = nil, path: String? = nil) -> MatchRule {
        MatchRule(sender: sender, path: path, interface: interface, member: member)
    }
}

extension Bus {
    /// Calls `handler` with each signal `rule` matches (see ``addMatch(_:_:)``).
    @discardableResult
    public func addMatch(_ rule: MatchRule, _ handler: @escaping (ReceivedMessage) -> Void) throws(DBusError) -> BusMatch {
        try addMatch(rule.description, handler)
    }
}
