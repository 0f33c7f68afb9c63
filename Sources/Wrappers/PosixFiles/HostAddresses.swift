import Glibc

/// A host name's addresses from the system's resolver (getaddrinfo: /etc/hosts, DNS, numeric forms such as
/// `2130706433`), as raw bytes: 4 for IPv4, 16 for IPv6. Blocks while a DNS query runs: call it off the loop.
public enum HostAddresses {
    /// The addresses `host` stands for, nil when it cannot be looked up.
    public static func lookUp(_ host: String) -> [[UInt8]]? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &found) == 0, let first = found else { return nil }
        defer { freeaddrinfo(first) }
        var addresses: [[UInt8]] = []
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate, addresses.count < 64 {
            if let address = info.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                        addresses.append(withUnsafeBytes(of: ipv4.pointee.sin_addr) { Array($0) })
                    }
                case AF_INET6:
                    address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                        addresses.append(withUnsafeBytes(of: ipv6.pointee.sin6_addr) { Array($0) })
                    }
                default:
                    break
                }
            }
            candidate = info.pointee.ai_next
        }
        return addresses
    }
}
