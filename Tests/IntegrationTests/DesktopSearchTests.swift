import Foundation
import SDBus
import Testing
import TestSupport

/// GNOME Shell's search provider and KRunner's D-Bus runner, called exactly as the shells call them: the bus name
/// and object path read from the installed files, Reprise started by D-Bus activation.
@Suite(.serialized) struct DesktopSearchTests {
    /// `key=value` of an installed .ini/.desktop file.
    func value(_ key: String, in file: String) throws -> String {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(key + "=") })
        return String(line.dropFirst(key.count + 1))
    }

    func installed(_ session: (String) throws -> Session) throws -> (Session, prefix: String) {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("reprise-prefix-\(UUID().uuidString)").path
        var env = ProcessInfo.processInfo.environment
        env["PREFIX"] = prefix
        env["REPRISE_BINARY"] = repriseBinary
        let result = try runCommand(packageRoot.path + "/scripts/install.sh", [], environment: env)
        #expect(result.status == 0, "\(result.errors)")
        return (try session(prefix + "/share/dbus-1/services"), prefix)
    }

    @Test func gnomeShellFindsAnAlbumShowsItAndPlaysIt() throws {
        let (session, prefix) = try installed { try Session(serviceDirectory: $0) }
        defer { session.close(); try? FileManager.default.removeItem(atPath: prefix) }
        _ = try LibraryTests.musicFolder(in: session.home)
        let ini = prefix + "/share/gnome-shell/search-providers/reprise-search-provider.ini"
        let busName = try value("BusName", in: ini), path = try value("ObjectPath", in: ini)
        #expect(try value("Version", in: ini) == "2")
        #expect(FileManager.default.fileExists(atPath: prefix + "/share/applications/" + (try value("DesktopId", in: ini))))
        let provider = "org.gnome.Shell.SearchProvider2"
        func call(_ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
            try session.bus.call(destination: busName, path: path, interface: provider, member: member, arguments)
        }
        // The first call starts Reprise; its first scan runs in the background, so the shell's next keystrokes find more.
        var ids: [String] = []
        #expect(session.waitFor(30) {
            ids = (try? call("GetInitialResultSet", [.strings(["kind", "of"])]))?.first?.stringArray ?? []
            return !ids.isEmpty
        })
        if let owner = session.ownerProcess(of: busName) { session.adopt(owner) }
        let narrowed = try call("GetSubsearchResultSet", [.strings(ids), .strings(["kind", "of", "blue"])]).first?.stringArray ?? []
        #expect(narrowed.count == ids.count)
        let metas = try call("GetResultMetas", [.strings(ids)]).first
        guard case .array(_, let items)? = metas else { Issue.record("no metas"); return }
        let names = items.compactMap { $0.dictionary?["name"]?.stringValue }
        #expect(names.first == "Kind of Blue", "\(names)")
        #expect(items.first?.dictionary?["description"]?.stringValue == "Album by Miles Davis")
        #expect(items.allSatisfy { $0.dictionary?["gicon"]?.stringValue?.isEmpty == false && $0.dictionary?["id"] != nil })
        // Enter on the album: it plays.
        _ = try call("ActivateResult", [.string(ids[0]), .strings(["kind", "of"]), .uint32(0)])
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "So What" })
        #expect(session.queuedURLs().count == 2)
        _ = try call("LaunchSearch", [.strings(["kind"]), .uint32(0)])
        #expect(session.dbusError { _ = try call("ActivateResult", [.string("garbage"), .strings([]), .uint32(0)]) }?.name
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(try call("GetInitialResultSet", [.strings([])]).first == .strings([]))
    }

    @Test func kRunnerMatchesATrackAndRunsIt() throws {
        let (session, prefix) = try installed { try Session(serviceDirectory: $0) }
        defer { session.close(); try? FileManager.default.removeItem(atPath: prefix) }
        _ = try LibraryTests.musicFolder(in: session.home)
        let desktop = prefix + "/share/krunner/dbusplugins/reprise.desktop"
        #expect(try value("X-Plasma-API", in: desktop) == "DBus")
        let busName = try value("X-Plasma-DBusRunner-Service", in: desktop), path = try value("X-Plasma-DBusRunner-Path", in: desktop)
        let runner = "org.kde.krunner1"
        func call(_ member: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
            try session.bus.call(destination: busName, path: path, interface: runner, member: member, arguments)
        }
        var matches: [DBusValue] = []
        #expect(session.waitFor(30) {
            if case .array(_, let items)? = (try? call("Match", [.string("venus")]))?.first { matches = items }
            return !matches.isEmpty
        })
        if let owner = session.ownerProcess(of: busName) { session.adopt(owner) }
        guard case .structure(let fields)? = matches.first, fields.count == 6, let id = fields[0].stringValue else {
            Issue.record("bad match \(matches)"); return
        }
        #expect(fields[1] == .string("Venus as a Boy"))
        #expect(fields[5].dictionary?["subtext"]?.stringValue == "Björk — Début")
        #expect(try call("Actions").first == .array(elementSignature: "(sss)", []))
        _ = try call("Run", [.string(id), .string("")])
        #expect(session.waitFor { session.status() == "Playing" && session.title() == "Venus as a Boy" })
        // KRunner ends its session with Teardown; its plugin file says queries start at two letters.
        #expect(try call("Teardown").isEmpty)
        #expect(try value("X-Plasma-Runner-Min-Letter-Count", in: desktop) == "2")
    }
}
