/* Signals with a handler held back on the calling thread while sd-bus waits (see CSDBusShims.h). */
#include "CSDBusShims.h"

#include <signal.h>
#include <string.h>

void rp_hold_handled_signals(sigset_t *previous) {
    sigset_t held;
    sigemptyset(&held);
    for (int number = 1; number < NSIG; number++) {
        /* Faults are delivered to the thread that caused them: never held. */
        if (number == SIGSEGV || number == SIGBUS || number == SIGFPE || number == SIGILL || number == SIGTRAP
            || number == SIGABRT || number == SIGSYS || number == SIGKILL || number == SIGSTOP) continue;
        struct sigaction action;
        if (sigaction(number, NULL, &action) != 0) continue;
        bool handled = (action.sa_flags & SA_SIGINFO) ? action.sa_sigaction != NULL
                                                       : (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN);
        if (handled) sigaddset(&held, number);
    }
    pthread_sigmask(SIG_BLOCK, &held, previous);
}

void rp_release_held_signals(const sigset_t *previous) {
    pthread_sigmask(SIG_SETMASK, previous, NULL);
}
