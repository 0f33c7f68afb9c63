import Glibc

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

let options = Options(Array(CommandLine.arguments.dropFirst()))
if options.showHelp {
    print(Options.usage)
    exit(0)
}
if options.showVersion {
    print("reprise \(Options.version)")
    exit(0)
}
if !options.unknown.isEmpty {
    writeToStandardError("reprise: unknown option \(options.unknown[0])\n\(Options.usage)")
    exit(2)
}
exit(Service.run(options))
