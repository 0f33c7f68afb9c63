import Foundation
import Glibc

/// A UPnP control point in raw SSDP and SOAP, as a phone app or a TV drives a renderer: it finds a MediaRenderer
/// with M-SEARCH on loopback, reads its description, and calls its services' actions. Every socket is made inside
/// `namespace` (where the renderer runs).
public final class UPnPControlPoint {
    /// A UPnP error a renderer answered (701 "Transition not available", 714 "Illegal MIME-type"…).
    public struct Fault: Error, Equatable, CustomStringConvertible {
        public let code: Int
        public let text: String
        public var description: String { "UPnP \(code) \(text)" }
    }

    private let namespace: NetworkNamespace
    private let port: UInt16
    /// Control paths and service types by short service name (`AVTransport`, `RenderingControl`…).
    private let services: [String: (type: String, controlPath: String)]

    /// Finds the MediaRenderer whose description has a control path containing `controlPathContaining` (Rygel's
    /// name each bridged player's, `org.mpris.MediaPlayer2.reprise`), searching for up to `seconds`.
    public init(in namespace: NetworkNamespace, controlPathContaining marker: String, seconds: Double = 20) throws {
        self.namespace = namespace
        let deadline = monotonicSeconds() + seconds
        var tried: Set<String> = []
        while monotonicSeconds() < deadline {
            for location in try Self.search(in: namespace, target: "urn:schemas-upnp-org:device:MediaRenderer:1") where !tried.contains(location) {
                tried.insert(location)
                guard let (port, path) = Self.loopbackAddress(location),
                      let description = try? Self.http(in: namespace, port: port, "GET", path).body,
                      description.contains(marker) else { continue }
                var services: [String: (String, String)] = [:]
                for block in Self.elements("service", in: description) {
                    guard let type = Self.elements("serviceType", in: block).first,
                          let control = Self.elements("controlURL", in: block).first,
                          let name = type.split(separator: ":").dropLast().last else { continue }
                    services[String(name)] = (type, control)
                }
                self.port = port
                self.services = services
                return
            }
        }
        throw HarnessError(message: "no MediaRenderer for \(marker) answered M-SEARCH (found \(tried.sorted()))")
    }

    /// Calls `action` of `service` with `arguments` (in order; values escaped here); returns its out arguments,
    /// or the renderer's UPnP error.
    public func call(_ service: String, _ action: String, _ arguments: [(String, String)] = []) throws -> Result<[String: String], Fault> {
        guard let (type, path) = services[service] else { throw HarnessError(message: "the renderer has no \(service)") }
        let values = arguments.map { "<\($0.0)>\(Self.escaped($0.1))</\($0.0)>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" \
            s:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><s:Body><u:\(action) xmlns:u="\(type)">\(values)\
            </u:\(action)></s:Body></s:Envelope>
            """
        let reply = try Self.http(in: namespace, port: port, "POST", path, body: body,
                                  headers: ["Content-Type: text/xml; charset=\"utf-8\"", "SOAPACTION: \"\(type)#\(action)\""])
        if let code = Self.elements("errorCode", in: reply.body).first.flatMap({ Int($0) }) {
            return .failure(Fault(code: code, text: Self.elements("errorDescription", in: reply.body).first ?? ""))
        }
        guard reply.status == 200, let response = Self.elements("u:\(action)Response", in: reply.body).first
                ?? Self.innerOfAnyResponse(reply.body) else {
            throw HarnessError(message: "\(action): HTTP \(reply.status) \(reply.body)")
        }
        var out: [String: String] = [:]
        let pattern = try NSRegularExpression(pattern: "<([A-Za-z]+)>([^<]*)</\\1>")
        for match in pattern.matches(in: response, range: NSRange(response.startIndex..., in: response)) {
            out[String(response[Range(match.range(at: 1), in: response)!])] = Self.unescaped(String(response[Range(match.range(at: 2), in: response)!]))
        }
        return .success(out)
    }

    /// Calls `action` as ``call(_:_:_:)`` does; the renderer's UPnP error is thrown.
    @discardableResult
    public func perform(_ service: String, _ action: String, _ arguments: [(String, String)] = []) throws -> [String: String] {
        try call(service, action, arguments).get()
    }

    /// A `H:MM:SS(.fff)` time as UPnP writes it, in seconds.
    public static func seconds(_ time: String) -> Double? {
        let parts = time.split(separator: ":")
        guard parts.count == 3, let hours = Double(parts[0]), let minutes = Double(parts[1]), let seconds = Double(parts[2]) else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    // MARK: SSDP and HTTP

    /// The LOCATION of every device answering an M-SEARCH for `target` within a second.
    private static func search(in namespace: NetworkNamespace, target: String) throws -> [String] {
        let descriptor = try namespace.entered { socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0) }
        guard descriptor >= 0 else { throw HarnessError(message: "no UDP socket") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = "M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: \"ssdp:discover\"\r\nMX: 1\r\nST: \(target)\r\n\r\n"
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("239.255.255.250")
        address.sin_port = in_port_t(1900).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(descriptor, request, request.utf8.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var locations: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = monotonicSeconds() + 1.2
        while monotonicSeconds() < end {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            let answer = String(decoding: buffer[..<count], as: UTF8.self)
            for line in answer.split(separator: "\r\n") where line.lowercased().hasPrefix("location:") {
                locations.append(line.dropFirst("location:".count).trimmingCharacters(in: .whitespaces))
            }
        }
        return locations
    }

    /// The port and path of an `http://127.0.0.1:PORT/path` location; nil for any other host.
    private static func loopbackAddress(_ location: String) -> (UInt16, String)? {
        guard location.hasPrefix("http://127.0.0.1:") else { return nil }
        let rest = location.dropFirst("http://127.0.0.1:".count)
        guard let slash = rest.firstIndex(of: "/"), let port = UInt16(rest[..<slash]) else { return nil }
        return (port, String(rest[slash...]))
    }

    /// One HTTP/1.1 exchange with 127.0.0.1:`port` (the connection closed after it).
    private static func http(in namespace: NetworkNamespace, port: UInt16, _ method: String, _ path: String,
                             body: String = "", headers: [String] = []) throws -> (status: Int, body: String) {
        guard let descriptor = try namespace.entered({ LoopbackListener.connect(port: port) }) else {
            throw HarnessError(message: "cannot connect to 127.0.0.1:\(port)")
        }
        defer { close(descriptor) }
        let head = (["\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close", "Content-Length: \(body.utf8.count)"]
            + headers).joined(separator: "\r\n") + "\r\n\r\n"
        guard LoopbackListener.send(Array((head + body).utf8), to: descriptor) else { throw HarnessError(message: "\(method) \(path): not sent") }
        let received = LoopbackListener.readAll(descriptor)
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw HarnessError(message: "\(method) \(path): no answer") }
        let headLines = text[..<split.lowerBound].split(separator: "\r\n")
        let status = headLines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var content = String(text[split.upperBound...])
        if headLines.contains(where: { $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked") }) {
            content = dechunked(content)
        }
        return (status, content)
    }

    private static func dechunked(_ text: String) -> String {
        var rest = Substring(text)
        var out = ""
        while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound].split(separator: ";").first ?? "", radix: 16), size > 0 {
            let start = line.upperBound
            guard let end = rest.utf8.index(start, offsetBy: size, limitedBy: rest.endIndex) else { break }
            out += rest[start..<end]
            rest = rest[end...].dropFirst(2)
        }
        return out
    }

    // MARK: XML, as far as a control point reads it

    /// The contents of every `<name>…</name>` (or `<name attributes…>`) in `xml`, in order.
    private static func elements(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.range(of: "<\(name)") {
            rest = rest[open.upperBound...]
            guard let next = rest.first, next == ">" || next == " " || next == "/" else { continue }
            guard next != "/", let headEnd = rest.firstIndex(of: ">"), let close = rest[headEnd...].range(of: "</\(name)>") else { continue }
            found.append(String(rest[rest.index(after: headEnd)..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// The inside of a `…Response` element under whatever prefix the renderer chose.
    private static func innerOfAnyResponse(_ xml: String) -> String? {
        guard let body = elements("s:Body", in: xml).first ?? elements("SOAP-ENV:Body", in: xml).first else { return nil }
        return body
    }

    private static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func unescaped(_ value: String) -> String {
        value.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}
