/* C helpers for what Swift cannot import from GLib and GStreamer: typed wrappers over variadic GObject
 * property calls, GStreamer macros, the element registry, tags on their way to a sink. */
#ifndef REPRISE_CGSTREAMERSHIMS_H
#define REPRISE_CGSTREAMERSHIMS_H

#include <stdbool.h>
#include <stdint.h>
#include <gst/gst.h>

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

/* ---- Tags on their way to a sink ------------------------------------------ */

/** Cuts every string in the TAG events reaching `element`'s sink pad to at most `max_bytes` bytes (at a
 * character boundary) and 16 values a tag. pulsesink passes titles and artists (several values joined
 * into one) to PulseAudio as stream properties, and the sound server drops the whole connection when one
 * is over 64 KiB. Runs on the streaming thread, in C. */
bool rp_limit_tag_strings(GstElement *element, unsigned max_bytes);

/* ---- Video: the sink that draws into a window, playbin's streams ------------------------------------------------------ */

/** A bin (convert, scale to a set size, crop, ximagesink) that draws into the X window `xid`; NULL when
 *  ximagesink is missing. */
GstElement *rp_video_sink_new(unsigned long xid);
/** Scales frames to `width`×`height` (0: the stream's own size) and crops `left`/`top`/`right`/`bottom`. */
void rp_video_sink_set_layout(GstElement *sink, int width, int height, int left, int top, int right, int bottom);
/** Redraws the last frame (after the window was exposed or resized). */
void rp_video_sink_expose(GstElement *sink);

/** The display size of playbin's current video stream: pixels and pixel aspect ratio; false when none. */
bool rp_playbin_video_format(GstElement *playbin, int *width, int *height, int *par_n, int *par_d);
/** A string tag of playbin stream `index` through the action signal `signal` (get-audio-tags,
 *  get-text-tags); a newly allocated string (g_free) or NULL. */
char *rp_playbin_stream_tag(GstElement *playbin, const char *signal, int index, const char *tag);

#endif
