import Foundation
import Testing
import TestSupport

/// What the service (`reprised`) loads: no Foundation (libFoundation, its ICU data and FoundationEssentials add ~8 MiB of mapped
/// pages to every run; the service uses the standard library and Glibc). The debug build links the Swift libraries
/// dynamically, so `ldd` shows what the code needs.
@Suite struct FootprintTests {
    @Test func theServiceLinksNoFoundation() throws {
        let service = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent().appendingPathComponent("reprised").path
        let linked = try runCommand("/usr/bin/ldd", [service])
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(linked.output.contains("libswiftCore") || !linked.output.contains("swift"), "a dynamically linked build")
        for library in ["libFoundation.so", "libFoundationEssentials.so", "lib_FoundationICU.so"] {
            #expect(!linked.output.contains(library), "reprised links \(library)")
        }
    }

    /// No regex module: the standard library's `contains(_:)`, `firstRange(of:)` and `split(separator:)` with a string
    /// live in `_StringProcessing` (with `_RegexParser`), which one call links in whole — 0.8 MB of code, mapped while
    /// the service plays; four such calls had brought it back. `contains(text:)` and a `Character` separator do without.
    @Test func theServiceLinksNoRegexModule() throws {
        let service = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent().appendingPathComponent("reprised").path
        let imported = try runCommand("/usr/bin/nm", ["-D", "--undefined-only", service])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("swift_retain"), "the check finds what it looks for")
        let regex = imported.output.split(separator: "\n").filter { $0.contains(text: "17_StringProcessing") || $0.contains(text: "12_RegexParser") }
        #expect(regex.isEmpty, "reprised calls into the regex module: \(regex.joined(separator: "; "))")
    }

    /// One front door: the service carries no argument parser (nor the verbs), the command line not the service.
    @Test func theServiceLinksNoArgumentParserAndTheCommandLineNoService() throws {
        let directory = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent()
        let service = try Data(contentsOf: directory.appendingPathComponent("reprised"))
        let commandLine = try Data(contentsOf: URL(fileURLWithPath: repriseBinary))
        #expect(service.range(of: Data("14ArgumentParser".utf8)) == nil, "reprised links the argument parser")
        #expect(commandLine.range(of: Data("14ArgumentParser".utf8)) != nil, "the check finds what it looks for")
        #expect(commandLine.range(of: Data("14RepriseService".utf8)) == nil, "reprise links the service")
        #expect(service.range(of: Data("14RepriseService".utf8)) != nil)
    }

    /// TagLib (and the C++ library's streams and locales it starts) lives in the tag reader process, not the service;
    /// libavformat (about 190 MiB of libraries mapped) is opened by a reader only when a file mpd reads with FFmpeg
    /// comes, linked by neither.
    @Test func tagLibRunsInTheReaderProcessNotTheService() throws {
        let directory = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent()
        let service = try runCommand("/usr/bin/ldd", [directory.appendingPathComponent("reprised").path])
        let reader = try runCommand("/usr/bin/ldd", [directory.appendingPathComponent("reprise-tag-reader").path])
        #expect(service.status == 0 && reader.status == 0, "\(service.errors) \(reader.errors)")
        #expect(!service.output.contains("libtag.so"), "reprised links TagLib")
        #expect(reader.output.contains("libtag.so"), "the check finds what it looks for")
        #expect(!service.output.contains("libavformat.so") && !reader.output.contains("libavformat.so"), "\(reader.output)")
    }

    /// What only some runs need is opened when first used, not linked: SQLite (the library's index), Pango and Cairo
    /// (the video controls), libXi (the X11 window), libwayland-client, libdecor and xkbcommon (the Wayland window), libebur128 (measuring loudness). A
    /// service that plays a file maps none of them.
    @Test func librariesSomeRunsNeedAreOpenedNotLinked() throws {
        let service = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent().appendingPathComponent("reprised").path
        let linked = try runCommand("/usr/bin/ldd", [service])
        #expect(linked.status == 0 && linked.output.contains("libgstreamer-1.0.so"), "the check finds what it looks for: \(linked.errors)")
        for library in ["libsqlite3.so", "libpangocairo-1.0.so", "libcairo.so", "libXi.so", "libwayland-client.so", "libwayland-cursor.so",
                        "libdecor-0.so", "libxkbcommon.so", "libebur128.so"] {
            #expect(!linked.output.contains(library), "reprised links \(library)")
        }
    }
}
