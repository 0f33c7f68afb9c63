import Glibc
import LoopKit
import RepriseCore

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

// GStreamer starts and ends streaming threads with every stream; glibc gives each thread its own malloc arena,
// and memory freed in one is seldom returned, so RSS sat ~2.5 MiB higher under the soak. One arena costs no reply
// latency we can measure (BENCHMARKS.md). MALLOC_ARENA_MAX in the environment still decides when it is set.
if getenv("MALLOC_ARENA_MAX") == nil { limitMallocArenas(1) }

// Arguments are bytes: a Latin-1 file name must reach the file system as the bytes it is (see RawPath).
let arguments = (1..<Int(CommandLine.argc)).map { index in
    RawPath.string(fromBytes: Array(UnsafeRawBufferPointer(start: CommandLine.unsafeArgv[index],
                                                            count: strlen(CommandLine.unsafeArgv[index]!))))
}
// A file whose name starts with "-" (`reprise -dash.flac`) is media, not an unknown option: it is passed as "./-dash.flac"
// (up to a "--", after which everything is media anyway).
var media = arguments
if let end = media.firstIndex(of: "--") ?? Optional(media.endIndex) {
    for index in media.indices where index < end && media[index].hasPrefix("-") && !media[index].hasPrefix("--") {
        let name = media[index]
        if name.count > 1, RawPath.withCString(name, { access($0, F_OK) }) == 0 { media[index] = "./" + name }
    }
}
RepriseCommand.main(media)
