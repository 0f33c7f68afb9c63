import Glibc
import LoopKit
import MPRIS
import RepriseCore
import RepriseService
import SDBus

// `reprise`: the service, kept lean. It serves a command line of its own options and media that is there; every
// other command line (verbs, help, version, mistakes, a running service to hand media to) goes to `reprise-cli`
// beside it, which parses it whole. See ServeArguments.

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

/// Replaces this process with `reprise-cli` (found beside this executable) on the same arguments.
func handToCommandLine() -> Never {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let executable = length > 0 ? String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    let directory = executable.lastIndex(of: "/").map { String(executable[..<$0]) } ?? "."
    let cli = directory + "/reprise-cli"
    execv(cli, CommandLine.unsafeArgv)
    writeToStandardError("reprise: cannot run \(cli): \(String(cString: strerror(errno)))")
    exit(1)
}

// Arguments are bytes: a Latin-1 file name must reach the file system as the bytes it is (see RawPath).
let arguments = (1..<Int(CommandLine.argc)).map { index in
    RawPath.string(fromBytes: Array(UnsafeRawBufferPointer(start: CommandLine.unsafeArgv[index],
                                                            count: strlen(CommandLine.unsafeArgv[index]!))))
}
// A file whose name starts with "-" (`reprise -dash.flac`) is media, not an unknown option (as reprise-cli has it).
var media = arguments
if let end = media.firstIndex(of: "--") ?? Optional(media.endIndex) {
    for index in media.indices where index < end && media[index].hasPrefix("-") && !media[index].hasPrefix("--") {
        let name = media[index]
        if name.count > 1, RawPath.withCString(name, { access($0, F_OK) }) == 0 { media[index] = "./" + name }
    }
}
let currentDirectory: () -> String = {
    var directory = [CChar](repeating: 0, count: 4097)
    return getcwd(&directory, directory.count) != nil
        ? String(decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/"
}
guard let serve = ServeArguments.parse(media, exists: { RawPath.withCString($0) { access($0, F_OK) } == 0 },
                                       currentDirectory: currentDirectory) else { handToCommandLine() }
var check = AudioSettings()
do throws(PlayerError) {
    for setting in serve.settings { try check.set(setting.key, setting.value) }
} catch {
    writeToStandardError("reprise: \(error.message)")
    exit(2)
}
// A service already runs: reprise-cli hands the media over (or says so).
if !serve.newInstance, let bus = try? Bus.session(),
   (try? bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                  member: "NameHasOwner", [.string(MPRIS.repriseBusName)]))?.first == .bool(true) {
    handToCommandLine()
}

// GStreamer starts and ends streaming threads with every stream; glibc gives each thread its own malloc arena,
// and memory freed in one is seldom returned, so RSS sat ~2.5 MiB higher under the soak. One arena costs no reply
// latency we can measure (BENCHMARKS.md). MALLOC_ARENA_MAX in the environment still decides when it is set.
if getenv("MALLOC_ARENA_MAX") == nil { limitMallocArenas(1) }
exit(Service.run(Options(verbose: serve.verbose, media: serve.media,
                         audio: serve.settings.map { (key: $0.key, value: $0.value) })))
