import Glibc

// Children of Foundation.Process inherit a blocked signal mask; start from a clean one so
// SIGTERM and SIGINT reach the event loop's handlers.
var unblocked = sigset_t()
sigemptyset(&unblocked)
sigprocmask(SIG_SETMASK, &unblocked, nil)

RepriseCommand.main()
