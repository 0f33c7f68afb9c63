/// What a UPnP control point — any device on the network — may make Reprise open through a renderer bridge (Rygel's
/// MPRIS plugin turns SetAVTransportURI into OpenUri): MPD's rule for a network client. Local files only in the
/// music folders; `http` and `https` URLs only to hosts that are not this machine or its link (loopback, link-local
/// and unspecified addresses are refused unless the config's `renderer-local-addresses = allow` says otherwise);
/// no other scheme (a camera, a device, a capture source are not a control point's to open).
public struct RendererPushRules: Sendable {
    /// The folders local files may be pushed from (absolute, without a trailing slash; "/" allows every file).
    public var musicFolders: [String]
    /// Whether URLs to loopback and link-local addresses are taken (a media server on this machine).
    public var allowsLocalAddresses: Bool
    /// The addresses a host name or literal stands for (4 or 16 bytes each), nil when it cannot be looked up. May
    /// block (a DNS query): ``refusal(for:)`` runs off the loop.
    public var lookUp: @Sendable (String) -> [[UInt8]]?

    public init(musicFolders: [String], allowsLocalAddresses: Bool = false, lookUp: @escaping @Sendable (String) -> [[UInt8]]?) {
        self.musicFolders = musicFolders
        self.allowsLocalAddresses = allowsLocalAddresses
        self.lookUp = lookUp
    }

    /// Why `uri` must not be opened for a control point, or nil when it may. May block: see ``lookUp``.
    public func refusal(for uri: String) -> String? {
        guard uri.utf8.count <= 8192, !uri.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7f || $0 == "\\" }),
              let parsed = MediaURI(uri) else {
            return "not a URI a control point may push"
        }
        switch parsed.scheme {
        case "file":
            guard parsed.host.map({ $0.isEmpty || $0.lowercased() == "localhost" }) ?? true,
                  !parsed.path.split(separator: "/").contains(".."),
                  musicFolders.contains(where: { $0 == "/" || parsed.path.hasPrefix($0 + "/") }) else {
                return "a control point may push only files in the music folder"
            }
            return nil
        case "http", "https":
            guard let host = Self.hostName(parsed.host) else { return "no host in \(parsed.scheme) URL" }
            if allowsLocalAddresses { return nil }
            if host == "localhost" || host.hasSuffix(".localhost") { return "\(host) is this machine (renderer-local-addresses is not allow)" }
            guard let addresses = lookUp(host), !addresses.isEmpty else { return "\(host) cannot be looked up" }
            if addresses.contains(where: Self.isLocal) {
                return "\(host) is a loopback or link-local address (renderer-local-addresses is not allow)"
            }
            return nil
        default:
            return "a control point may push http, https or files in the music folder, not \(parsed.scheme)"
        }
    }

    /// The host of a URL as it is looked up: lower-cased, an IPv6 literal without its brackets; nil when empty or
    /// percent-encoded (which a client library may decode into another host).
    static func hostName(_ host: String?) -> String? {
        guard var host = host?.lowercased(), !host.isEmpty, !host.contains("%") else { return nil }
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            host = String(host[host.index(after: host.startIndex)..<end])
        }
        while host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }

    /// Whether an address (4 or 16 bytes) is this machine or its link: 127/8, 0/8, 169.254/16, ::, ::1, fe80::/10,
    /// and the IPv4 ones mapped into IPv6 (::ffff:a.b.c.d) or compatible (::a.b.c.d).
    public static func isLocal(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4:
            return address[0] == 127 || address[0] == 0 || (address[0] == 169 && address[1] == 254)
        case 16:
            if address[0] == 0xfe && address[1] & 0xc0 == 0x80 { return true }
            let zeros = address[0..<10].allSatisfy { $0 == 0 }
            if zeros && address[10] == 0xff && address[11] == 0xff { return isLocal(Array(address[12...])) }
            if zeros && address[10] == 0 && address[11] == 0 { return true } // ::, ::1 and the deprecated ::a.b.c.d
            return false
        default:
            return true // not an address at all: refused as if local
        }
    }
}
