import Testing
import TestSupport

/// What the service loads: no Foundation (libFoundation, its ICU data and FoundationEssentials add ~8 MiB of mapped
/// pages to every run; the service uses the standard library and Glibc). The debug build links the Swift libraries
/// dynamically, so `ldd` shows what the code needs.
@Suite struct FootprintTests {
    @Test func theServiceLinksNoFoundation() throws {
        let linked = try runCommand("/usr/bin/ldd", [repriseBinary])
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(linked.output.contains("libswiftCore") || !linked.output.contains("swift"), "a dynamically linked build")
        for library in ["libFoundation.so", "libFoundationEssentials.so", "lib_FoundationICU.so"] {
            #expect(!linked.output.contains(library), "reprise links \(library)")
        }
    }
}
