/* C helpers for the process and its event loop: sd-event attached to a GLib main loop, and glibc's malloc
 * tuning and eventfd, whose headers Swift's Glibc module does not include. */
#ifndef REPRISE_CLOOPSHIMS_H
#define REPRISE_CLOOPSHIMS_H

#include <stdbool.h>
#include <glib.h>
#include <systemd/sd-event.h>

/* ---- sd-event inside a GLib main loop ----------------------------------- */

/** A GSource that dispatches `event` (and everything attached to it, e.g. sd-bus) from GLib's loop. */
GSource *rp_sd_event_source_new(sd_event *event);

/* ---- Memory ------------------------------------------------------------------ */

/** Caps glibc's malloc arenas at `count` (mallopt M_ARENA_MAX); call before threads start. */
bool rp_limit_malloc_arenas(int count);
/// Returns the pages of freed blocks to the system (malloc_trim(0)).
void rp_malloc_trim(void);
/** Blocks of `bytes` or more always get their own mapping, returned when freed (mallopt M_MMAP_THRESHOLD, which
    also stops glibc raising the threshold after each large free). */
bool rp_fix_mmap_threshold(int bytes);

/* ---- Waking the loop from another thread --------------------------------------- */

/** A non-blocking, close-on-exec eventfd (sys/eventfd.h is not in Swift's Glibc module); -1 on failure. */
int rp_wakeup_fd_new(void);

/** Lowers the calling thread's CPU priority to nice `nice` (Linux: per thread) and its disk priority to the idle
 *  class, for background work; 0 on success. */
int rp_lower_thread_priority(int nice);

/* ---- Sockets ------------------------------------------------------------------ */

/** The next connection waiting at `listener`, as a non-blocking, close-on-exec socket in one call; -1 when none
 *  waits or on failure (errno says which). */
int rp_accept_nonblocking(int listener);

#endif
