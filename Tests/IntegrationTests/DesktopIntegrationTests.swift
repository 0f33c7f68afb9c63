import BusInterfaces
import Foundation
import TestSupport
import Glibc
import SDBus
import Testing

/// Installation, D-Bus activation, systemd notification, and the shipped introspection XML.
@Suite(.serialized) struct DesktopIntegrationTests {

    /// Installs into a scratch prefix with the project's install script.
    func install(prefix: String, uninstall: Bool = false) throws -> CommandResult {
        var env = ProcessInfo.processInfo.environment
        env["PREFIX"] = prefix
        env["DESTDIR"] = ""
        env["REPRISE_BINARY"] = repriseBinary
        return try runCommand(packageRoot.path + "/scripts/install.sh", uninstall ? ["--uninstall"] : [], environment: env)
    }

    @Test func installPutsEveryFileInPlaceAndUninstallRemovesThem() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-prefix-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let installed = try install(prefix: prefix)
        #expect(installed.status == 0, "\(installed.errors)")
        let expected = ["bin/reprise", "libexec/reprised", "share/applications/reprise.desktop", "share/icons/hicolor/scalable/apps/reprise.svg",
                        "share/metainfo/app.reprise.Reprise.metainfo.xml",
                        "share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service",
                        "share/dbus-1/interfaces/org.mpris.MediaPlayer2.xml",
                        "share/dbus-1/interfaces/org.mpris.MediaPlayer2.Player.xml",
                        "share/dbus-1/interfaces/org.mpris.MediaPlayer2.TrackList.xml",
                        "share/dbus-1/interfaces/org.mpris.MediaPlayer2.Playlists.xml",
                        "share/dbus-1/interfaces/app.reprise.AudioSession1.xml",
                        "share/dbus-1/interfaces/app.reprise.Controls1.xml",
                        "share/dbus-1/interfaces/app.reprise.Video1.xml",
                        "share/dbus-1/interfaces/app.reprise.Sound1.xml", "share/dbus-1/interfaces/app.reprise.Chapters1.xml",
                        "share/dbus-1/interfaces/app.reprise.Sleep1.xml", "share/dbus-1/interfaces/app.reprise.Library1.xml",
                        "share/gnome-shell/search-providers/reprise-search-provider.ini", "share/krunner/dbusplugins/reprise.desktop",
                        "share/bash-completion/completions/reprise", "share/zsh/site-functions/_reprise",
                        "share/fish/vendor_completions.d/reprise.fish",
                        "share/man/man1/reprise.1", "lib/systemd/user/reprise.service"]
        for file in expected { #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) missing") }
        #expect(FileManager.default.isExecutableFile(atPath: prefix + "/bin/reprise"))
        let service = try String(contentsOfFile: prefix + "/share/dbus-1/services/org.mpris.MediaPlayer2.reprise.service",
                                 encoding: .utf8)
        #expect(service.contains("Exec=\(prefix)/libexec/reprised"))
        #expect(service.contains("SystemdService=reprise.service"))
        let unit = try String(contentsOfFile: prefix + "/lib/systemd/user/reprise.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=\(prefix)/libexec/reprised"))
        #expect(unit.contains("Type=notify") && unit.contains("WatchdogSec=") && unit.contains("Restart=on-failure"))
        let version = try runCommand(prefix + "/bin/reprise", ["--version"])
        #expect(version.trimmed.hasPrefix("reprise "))
        #expect(try install(prefix: prefix, uninstall: true).status == 0)
        for file in expected { #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) left behind") }
    }

    @Test func callingTheNameStartsRepriseThroughDBusActivation() throws {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-prefix-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        #expect(try install(prefix: prefix).status == 0)
        let session = try Session(serviceDirectory: prefix + "/share/dbus-1/services")
        defer { session.close() }
        // A queue saved by an earlier run.
        let stateDirectory = try session.makeHomeFolder(".local/state/reprise")
        try ("reprise-state 1\nposition 3000000\ncurrent 1\nentry \(TestMedia.uri(media.first))\n"
             + "entry \(TestMedia.uri(media.second))\nend\n").write(toFile: stateDirectory + "/state", atomically: true, encoding: .utf8)
        #expect(!session.nameHasOwner(Session.name))
        // Any call to the name starts the service, which answers it with its saved state restored, paused.
        #expect(try session.get("PlaybackStatus") == .string("Paused"))
        #expect(session.waitFor { session.title() == "Second Wind" })
        #expect(session.waitFor { session.position() == 3_000_000 })
        let owner = try session.bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                         interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                         [.string(Session.name)])
        let pid = pid_t(owner.first?.int64Value ?? 0)
        #expect(pid > 0)
        session.adopt(pid)
        #expect(try session.get("Identity", interface: "org.mpris.MediaPlayer2") == .string("Reprise"))
        try session.call("OpenUri", [.string(TestMedia.uri(media.first))])
        #expect(session.status() == "Playing")
        #expect(try session.playerctl("-p", "reprise", "metadata", "title").trimmed == "First Light")
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(eventually { kill(pid, 0) != 0 })
    }

    @Test func tellsSystemdItIsReadyAndPingsTheWatchdog() throws {
        let session = try Session()
        defer { session.close() }
        let socketPath = session.directory + "/notify"
        let listener = try NotifyListener(path: socketPath)
        defer { listener.close() }
        try session.launch([], extraEnvironment: ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "200000"])
        var received: [String] = []
        _ = eventually(10, pollEvery: 0) {
            received += listener.receive()
            return received.filter { $0.contains("WATCHDOG=1") }.count >= 3
        }
        #expect(received.first?.contains("READY=1") == true)
        #expect(received.filter { $0.contains("WATCHDOG=1") }.count >= 3)
        try session.call("Quit", interface: "org.mpris.MediaPlayer2")
        #expect(eventually(10, pollEvery: 0) {
            received += listener.receive()
            return received.contains { $0.contains("STOPPING=1") }
        })
    }

    @Test func shippedIntrospectionXMLMatchesTheLiveService() throws {
        let session = try Session()
        defer { session.close() }
        try session.launch([])
        func introspect(_ path: String) throws -> String {
            try session.bus.call(destination: Session.name, path: path, interface: "org.freedesktop.DBus.Introspectable",
                                 member: "Introspect").first?.stringValue ?? ""
        }
        let mprisObject = try introspect(RepriseObjects.mprisPath), ownObject = try introspect(RepriseObjects.ownPath)
        // The MPRIS object carries the MPRIS interfaces and the standard ones, nothing else (playerctld aborts
        // on a PropertiesChanged for any other interface there); Reprise's own live on their own object.
        let standard = ["org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties"]
        let mpris = ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList",
                     "org.mpris.MediaPlayer2.Playlists"]
        let own = ["app.reprise.AudioSession1", "app.reprise.Controls1", "app.reprise.Sound1", "app.reprise.Video1",
                   "app.reprise.Chapters1", "app.reprise.Sleep1", "app.reprise.Library1", "app.reprise.Lyrics1",
                   "app.reprise.Scrobble1", "app.reprise.MPDServer1"]
        #expect(Set(IntrospectionSummary.interfaces(in: mprisObject)) == Set(standard + mpris))
        #expect(Set(IntrospectionSummary.interfaces(in: ownObject)) == Set(standard + own))
        for interface in mpris + own {
            let live = interface.hasPrefix("app.reprise.") ? ownObject : mprisObject
            let shipped = try String(contentsOfFile: packageRoot.path + "/dbus/\(interface).xml", encoding: .utf8)
            let expected = IntrospectionSummary(xml: shipped, interface: interface)
            let actual = IntrospectionSummary(xml: live, interface: interface)
            #expect(!expected.members.isEmpty)
            #expect(expected.members == actual.members, "\(interface): shipped \(expected.members) live \(actual.members)")
        }
    }
}

/// The members of one interface in introspection XML, as comparable lines ("property Rate d readwrite", …).
struct IntrospectionSummary {
    var members: [String] = []

    /// The names of the interfaces an object's introspection XML declares.
    static func interfaces(in xml: String) -> [String] {
        xml.components(separatedBy: "<interface name=\"").dropFirst().compactMap { $0.components(separatedBy: "\"").first }
    }

    init(xml: String, interface: String) {
        guard let start = xml.range(of: "<interface name=\"\(interface)\">"),
              let end = xml.range(of: "</interface>", range: start.upperBound..<xml.endIndex) else { return }
        let body = String(xml[start.upperBound..<end.lowerBound])
        var current = ""
        var args: [String] = []
        func flush() {
            if !current.isEmpty { members.append(current + (args.isEmpty ? "" : " (" + args.joined(separator: ",") + ")")) }
            current = ""
            args = []
        }
        for tag in body.components(separatedBy: "<").dropFirst() {
            let name = tag.prefix { $0.isLetter }
            let attributes = Self.attributes(tag)
            switch name {
            case "method", "signal":
                flush()
                current = "\(name) \(attributes["name"] ?? "")"
            case "property":
                flush()
                current = "property \(attributes["name"] ?? "") \(attributes["type"] ?? "") \(attributes["access"] ?? "")"
            case "arg":
                args.append("\(attributes["type"] ?? "") \(attributes["direction"] ?? (current.hasPrefix("signal") ? "out" : "in"))")
            case "annotation" where attributes["name"] == "org.freedesktop.DBus.Property.EmitsChangedSignal":
                current += " emits=\(attributes["value"] ?? "")"
            default: break
            }
        }
        flush()
        members.sort()
    }

    static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        let parts = tag.components(separatedBy: "\"")
        var index = 0
        while index + 1 < parts.count {
            let key = parts[index].trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "=", with: "")
                .components(separatedBy: .whitespaces).last ?? ""
            result[key] = parts[index + 1]
            index += 2
        }
        return result
    }
}

/// A datagram socket standing in for systemd's notification socket.
final class NotifyListener {
    private let fd: Int32

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            path.utf8CString.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(buffer.count))) }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0 else { throw HarnessError(message: "cannot bind \(path)") }
    }

    /// Messages that arrive within 50 ms.
    func receive() -> [String] {
        var messages: [String] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, 50) > 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        return messages
    }

    func close() { Glibc.close(fd) }
}
