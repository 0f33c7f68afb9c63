import Glibc
import LoopKit
import PosixFiles
import RepriseCore
import RepriseService

// `reprised`: the service, kept lean. It takes its own options and `-- MEDIA` (see ServeArguments) and nothing else:
// `reprise` (the command people type) parses every other command line, hands media to a running service, and execs
// this when none runs; D-Bus activation and the systemd unit start it with no arguments.

// glibc's malloc tunables and GLib's G_SLICE are read before main: started without them (by systemd, D-Bus or hand;
// `reprise` sets them), the service execs itself once with them (MallocTuning).
MallocTuning.applyByExecingSelf()

prepareProcess() // a clean signal mask, one malloc arena

let arguments = ProcessArguments.current()
if arguments == ["--version"] {
    print("reprised \(RepriseVersion.current)")
    exit(0)
}
guard let serve = ServeArguments.parse(arguments, currentDirectory: PosixFileSystem.currentDirectory) else {
    writeToStandardError("usage: reprised [--verbose] [--new-instance] [--category C] [--options O] [--silent] [--replaygain M] "
                         + "[--crossfade S] [--library DIR] [-- MEDIA...]   (people type `reprise`)")
    exit(2)
}
var check = AudioSettings()
do throws(PlayerError) {
    for setting in serve.settings { try check.set(setting.key, setting.value) }
} catch {
    writeToStandardError("reprised: " + TerminalText.sanitized(error.message, keepingTabs: true))
    exit(2)
}

// Covers, TagLib's reads and playlists are freed after use: their pages go back to the system (MALLOC_MMAP_THRESHOLD_
// in the environment still decides when set).
if getenv("MALLOC_MMAP_THRESHOLD_") == nil { keepLargeBlocksMapped(from: 256 << 10) }
exit(Service.run(Options(verbose: serve.verbose, media: serve.media,
                         audio: serve.settings.map { (key: $0.key, value: $0.value) })))
