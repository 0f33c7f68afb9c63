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

    /// TagLib (and the C++ library's streams and locales it starts) lives in the tag reader process, not the service.
    @Test func tagLibRunsInTheReaderProcessNotTheService() throws {
        let directory = URL(fileURLWithPath: repriseBinary).deletingLastPathComponent()
        let service = try runCommand("/usr/bin/ldd", [directory.appendingPathComponent("reprised").path])
        let reader = try runCommand("/usr/bin/ldd", [directory.appendingPathComponent("reprise-tag-reader").path])
        #expect(service.status == 0 && reader.status == 0, "\(service.errors) \(reader.errors)")
        #expect(!service.output.contains("libtag.so"), "reprised links TagLib")
        #expect(reader.output.contains("libtag.so"), "the check finds what it looks for")
    }
}
