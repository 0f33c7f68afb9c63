/* An eventfd for waking the loop from worker threads; its header is not in Swift's Glibc module. */
#include "CLoopShims.h"
#include <sys/eventfd.h>

int rp_wakeup_fd_new(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
