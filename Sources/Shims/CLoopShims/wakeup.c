/* An eventfd for waking the loop from worker threads; its header is not in Swift's Glibc module. */
#include "CLoopShims.h"
#include <sys/eventfd.h>

int rp_wakeup_fd_new(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int rp_lower_thread_priority(int nice) {
    pid_t thread = (pid_t)syscall(SYS_gettid);
    int result = setpriority(PRIO_PROCESS, (id_t)thread, nice);
    /* ioprio_set(IOPRIO_WHO_PROCESS, thread, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0)): not in glibc's headers. */
    syscall(SYS_ioprio_set, 1, thread, (3 << 13) | 0);
    return result;
}
