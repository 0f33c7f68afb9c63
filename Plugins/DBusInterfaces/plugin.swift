import Foundation
import PackagePlugin

/// Generates the target's `DBusInterfaces` (one `InterfaceDescription` per interface) from the package's
/// `dbus/*.xml` and `dbus/external/*.xml`, the single source of every interface's shape.
@main
struct DBusInterfaces: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // Reprise's own interfaces, and (in external/) the ones it implements that others define.
        let folders = ["dbus", "dbus/external"].map { context.package.directoryURL.appending(path: $0) }
        let files = try folders.flatMap { try FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }
            .filter { $0.pathExtension == "xml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "DBusInterfaces.swift")
        return [.buildCommand(displayName: "Generating D-Bus interfaces from dbus/*.xml",
                              executable: try context.tool(named: "dbus-codegen").url,
                              arguments: [output.path] + files.map(\.path),
                              inputFiles: files, outputFiles: [output])]
    }
}
