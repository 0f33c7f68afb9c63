import ArgumentParser
import Glibc
import LoopKit
import PosixFiles
import RepriseClient
import RepriseCore

/// `reprise`: the service itself (the default, with media arguments or none) and the verbs that drive a
/// running one over the session bus.
struct RepriseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reprise",
        abstract: "A media player service for the Linux desktop, controlled over MPRIS2.",
        version: "reprise \(RepriseVersion.current)",
        subcommands: [Serve.self] + clientVerbs,
        defaultSubcommand: Serve.self)
}

/// Replaces this process with `reprised`, the service, on `arguments` (same PID: one exec). It is found beside this
/// executable (a build) or in `../libexec` (an installation); returns only when it cannot be run.
func execService(_ arguments: [String]) -> String {
    let candidates = [ProcessArguments.sibling("reprised"), ProcessArguments.sibling("../libexec/reprised")]
    guard let service = candidates.first(where: { access($0, X_OK) == 0 }) else { return "reprised is not installed beside reprise" }
    // Nothing this process opened goes on into the service: Foundation's run-loop machinery keeps a connected pair of
    // loopback UDP sockets (not close-on-exec), which the service would then hold for its whole life.
    closeDescriptorsOnExec()
    MallocTuning.exportForExec() // read by the loader at exec: the service need not exec itself again
    // Arguments as the bytes they were given (see RawPath).
    let argv: [UnsafeMutablePointer<CChar>?] = (["reprised"] + arguments).map { RawPath.withCString($0) { strdup($0) } } + [nil]
    execv(service, argv)
    argv.forEach { free($0) }
    return "cannot run \(service): \(String(cString: strerror(errno)))"
}

/// Marks every descriptor above standard error close-on-exec.
func closeDescriptorsOnExec() {
    guard let directory = opendir("/proc/self/fd") else { return }
    defer { closedir(directory) }
    var descriptors: [Int32] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name), fd > 2 { descriptors.append(fd) }
    }
    for fd in descriptors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
}

/// Starts the service, or hands the media to the one already running.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Play media (files, directories, playlists, URIs); the default when no verb is given.",
        discussion: "With no service running, starts one that plays the media (or, with none, restores the saved "
                    + "queue). With one running, hands the media to it, replacing its queue (or adding to it with "
                    + "--enqueue), and exits.")

    @Flag(name: .shortAndLong, help: "Log every event.") var verbose = false
    @Flag(help: "Add to the running service's queue instead of replacing it.") var enqueue = false
    @Flag(help: "Start another instance even when one runs (it takes org.mpris.MediaPlayer2.reprise.instance<PID>).")
    var newInstance = false
    @Option(help: ArgumentHelp("Audio category: ambient, soloAmbient, playback, record, playAndRecord.",
                               discussion: "playback (the default) plays in silent mode and interrupts other "
                                           + "players; ambient mixes with them and soloAmbient does not, and both go "
                                           + "quiet in silent mode."))
    var category: String?
    @Option(help: "Audio options, comma-separated: mixWithOthers, duckOthers, notifyOthersOnDeactivation.") var options: String?
    @Flag(help: "Start in silent mode.") var silent = false
    @Option(help: ArgumentHelp("ReplayGain: off, track, album or auto.",
                               discussion: "Loudness levelling from the tracks' ReplayGain tags (or measured "
                                           + "loudness), applied inside Reprise's pipeline. auto, the default: album "
                                           + "gain while an album plays in order, track gain under shuffle or in a "
                                           + "mixed queue."))
    var replaygain: String?
    @Option(help: ArgumentHelp("Crossfade between tracks: seconds (0.5 to 12) or off.",
                               discussion: "An equal-power fade over the end of one track and the start of the next "
                                           + "(off by default). Tracks of one album that follow each other stay "
                                           + "gapless; a user's change of track fades over 0.3 s."))
    var crossfade: String?
    @Option(help: "Index and search this music folder for this run (instead of the configured ones).") var library: String?
    @Argument(help: ArgumentHelp("Files, directories, playlists or URIs.", valueName: "media")) var parsedMedia: [String] = []

    func run() throws {
        let media = MediaWords.all(after: parsedMedia) // taken out of the command line before parsing
        var settings: [(key: String, value: String)] = []
        if let category { settings.append(("category", category)) }
        if let options { settings.append(("options", options)) }
        if silent { settings.append(("silent", "true")) }
        if let replaygain { settings.append(("replaygain", replaygain)) }
        if let crossfade { settings.append(("crossfade", crossfade)) }
        if let library {
            var directory = [CChar](repeating: 0, count: 4097)
            let here = getcwd(&directory, directory.count) != nil
                ? String(decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "/"
            settings.append(("library", library.hasPrefix("/") ? library : here + "/" + library))
        }
        var check = AudioSettings()
        do throws(PlayerError) {
            for (key, value) in settings { try check.set(key, value) }
        } catch {
            writeToStandardError("reprise: " + TerminalText.sanitized(error.message, keepingTabs: true))
            throw ExitCode(2)
        }
        if !newInstance, try handToRunningService(media, enqueue: enqueue) { return }
        // The service is `reprised` (same PID), told exactly this.
        let serve = ServeArguments(verbose: verbose, newInstance: newInstance, settings: settings, media: media)
        writeToStandardError("reprise: " + execService(serve.commandLine))
        throw ExitCode(1)
    }
}
