import Foundation
import PackagePlugin

/// Generates `RepriseVersion` from `debian/changelog`'s newest entry, the one place Reprise's version is written:
/// `reprise --version`, the Debian package and the AppStream release all read it there.
@main
struct VersionFromChangelog: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let changelog = context.package.directoryURL.appending(path: "debian/changelog")
        let output = context.pluginWorkDirectoryURL.appending(path: "RepriseVersion.swift")
        // The first line reads `reprise (VERSION) DISTRIBUTION; urgency=…`; a version with anything but
        // [0-9A-Za-z.+~:-] in it is refused rather than written into Swift source.
        let script = """
            version=$(sed -n '1s/^reprise (\\([0-9A-Za-z.+~:-]*\\)) .*/\\1/p' "$1")
            [ -n "$version" ] || { echo "debian/changelog: no version on its first line" >&2; exit 1; }
            printf '%s\\n' '/// Reprise'"'"'s version, from debian/changelog (generated): `reprise --version`, `reprised --version`.' \
              'public enum RepriseVersion {' "    public static let current = \\"$version\\"" '}' > "$2"
            """
        return [.buildCommand(displayName: "Reading Reprise's version from debian/changelog",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "sh", changelog.path, output.path],
                              inputFiles: [changelog], outputFiles: [output])]
    }
}
