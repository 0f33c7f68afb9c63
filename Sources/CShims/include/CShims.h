/* C helpers for what Swift cannot import from sd-bus, GLib and GStreamer:
 * vtables built at run time, sd-event attached to a GLib main loop,
 * and typed wrappers over variadic GObject property calls. */
#ifndef REPRISE_CSHIMS_H
#define REPRISE_CSHIMS_H

#include <stdbool.h>
#include <stdint.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <gst/gst.h>

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

/* ---- sd-event inside a GLib main loop ----------------------------------- */

/** A GSource that dispatches `event` (and everything attached to it, e.g. sd-bus) from GLib's loop. */
GSource *rp_sd_event_source_new(sd_event *event);

/* ---- GObject properties (g_object_set/get are variadic) ------------------ */

void rp_object_set_string(gpointer object, const char *name, const char *value);
void rp_object_set_double(gpointer object, const char *name, double value);
void rp_object_set_bool(gpointer object, const char *name, bool value);
void rp_object_set_object(gpointer object, const char *name, gpointer value);
/** Sets a flags- or enum-typed property from its integer value. */
void rp_object_set_flags(gpointer object, const char *name, unsigned value);
/** Parses `structure` (e.g. "props,media.role=music") and sets it as a GstStructure property. */
bool rp_object_set_structure(gpointer object, const char *name, const char *structure);
double rp_object_get_double(gpointer object, const char *name);
int rp_object_get_int(gpointer object, const char *name);
unsigned rp_object_get_flags(gpointer object, const char *name);
void rp_object_set_int(gpointer object, const char *name, int value);
bool rp_object_has_property(gpointer object, const char *name);

/* ---- GStreamer macros ----------------------------------------------------- */

/** playbin's GstPlayFlags, which are not in any public header. */
enum {
    RP_PLAY_FLAG_VIDEO = 1 << 0,
    RP_PLAY_FLAG_AUDIO = 1 << 1,
    RP_PLAY_FLAG_TEXT = 1 << 2,
    RP_PLAY_FLAG_VIS = 1 << 3,
    RP_PLAY_FLAG_SOFT_VOLUME = 1 << 4,
};

GstMessageType rp_message_type(GstMessage *message);
GstObject *rp_message_source(GstMessage *message);
const char *rp_object_name(GstObject *object);

/** Whether an installed demuxer (else decoder) accepts the caps `caps_string` (e.g. "audio/x-flac"). */
gboolean rp_element_accepts(const char *caps_string, gboolean demuxer);

/* ---- Memory ------------------------------------------------------------------ */

/** Caps glibc's malloc arenas at `count` (mallopt M_ARENA_MAX); call before threads start. */
bool rp_limit_malloc_arenas(int count);

/* ---- Tags on their way to a sink ------------------------------------------ */

/** Cuts every string in the TAG events reaching `element`'s sink pad to at most `max_bytes` bytes (at a
 * character boundary) and 16 values a tag. pulsesink passes titles and artists (several values joined
 * into one) to PulseAudio as stream properties, and the sound server drops the whole connection when one
 * is over 64 KiB. Runs on the streaming thread, in C. */
bool rp_limit_tag_strings(GstElement *element, unsigned max_bytes);

#endif
