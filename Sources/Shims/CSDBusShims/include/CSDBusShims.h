/* C helpers for what Swift cannot build from sd-bus alone: vtables made at run time. libsystemd only. */
#ifndef REPRISE_CSDBUSSHIMS_H
#define REPRISE_CSDBUSSHIMS_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>

/* ---- sd-bus vtables ---------------------------------------------------- */

/** How a property announces changes (maps to SD_BUS_VTABLE_PROPERTY_* flags). */
typedef enum {
    RP_PROPERTY_EMITS_NOTHING = 0,
    RP_PROPERTY_EMITS_CHANGE = 1,
    RP_PROPERTY_EMITS_INVALIDATION = 2,
    RP_PROPERTY_CONST = 3,
} rp_property_emits;

/** A growable sd_bus_vtable whose strings are owned copies that live as long as the table. */
typedef struct rp_vtable rp_vtable;

rp_vtable *rp_vtable_new(void);
/** `in_names`/`out_names` are comma-separated argument names (may be empty). */
void rp_vtable_add_method(rp_vtable *table, const char *member, const char *in_signature, const char *in_names,
                          const char *out_signature, const char *out_names, sd_bus_message_handler_t handler);
void rp_vtable_add_property(rp_vtable *table, const char *member, const char *signature,
                            sd_bus_property_get_t getter, sd_bus_property_set_t setter /* NULL: read-only */,
                            rp_property_emits emits);
void rp_vtable_add_signal(rp_vtable *table, const char *member, const char *signature, const char *names);
/** Terminates the table; the pointer stays valid until rp_vtable_free. */
const sd_bus_vtable *rp_vtable_finish(rp_vtable *table);
void rp_vtable_free(rp_vtable *table);

/* ---- signals held back while sd-bus waits ------------------------------ */

/** Blocks, on the calling thread, every signal that has a handler (faults excepted), saving the mask before in
 *  `previous`. libsystemd 252's sd_bus_call, sd_bus_flush and sd_bus_wait give up with EINTR when a handler runs
 *  during their wait (fixed upstream in systemd 253, systemd/systemd#25483): held, such a signal is handled once
 *  the wait is over. Signals left to their default action (Ctrl+C in the command line) still act at once. */
void rp_hold_handled_signals(sigset_t *previous);
/** Restores the mask `rp_hold_handled_signals` saved; held signals are delivered now. */
void rp_release_held_signals(const sigset_t *previous);

#endif
