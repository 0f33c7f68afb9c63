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
    RP_PLAY_FLAG_DOWNLOAD = 1 << 7,
};

GstMessageType rp_message_type(GstMessage *message);
GstObject *rp_message_source(GstMessage *message);
const char *rp_object_name(GstObject *object);

/** Posts an application message named `name` carrying `generation` on `element`'s bus (from any thread): how the
 *  pipeline thread tells the loop, in order with the pipeline's own messages, where a new stream's messages begin. */
void rp_post_generation(GstElement *element, const char *name, uint64_t generation);
/** When `message` is an application message named `name`, its generation in `*generation`, and true. */
bool rp_message_generation(GstMessage *message, const char *name, uint64_t *generation);

/** Whether an installed demuxer (else decoder) accepts the caps `caps_string` (e.g. "audio/x-flac"). */
gboolean rp_element_accepts(const char *caps_string, gboolean demuxer);

/* ---- Reprise's own audio filter ------------------------------------------------------------------------- */

/** A floating bin for playbin's audio-filter (in stream order, before playsink's queue): scaletempo (when
 *  `keep_pitch` and installed) and, with `replay_gain` (and the elements installed), rgvolume and rglimiter in
 *  `*leveller` and `*limiter` with a reference of the caller's (NULL when absent); an identity when it has nothing
 *  else. NULL when no bin can be made. */
GstElement *rp_audio_filter_new(bool keep_pitch, bool replay_gain, GstElement **leveller, GstElement **limiter);

/** A floating bin for playbin's audio-sink: a ten-band equalizer (in `*equalizer`, a reference of the caller's;
 *  NULL without plugins-good), a volume element (in `*gain`, likewise), then `sink` (taken). Reprise's equalizer,
 *  volume, ducking and policy mutes happen there, inside its pipeline (so no sound server remembers them) and after
 *  playsink's queue (so they are heard within the sink's own latency, not a second later). NULL when `volume` is
 *  missing. */
GstElement *rp_audio_output_new(GstElement *sink, GstElement **gain, GstElement **equalizer);
/* Sets the bands of equalizer-nbands (count of them): peak filters at `frequencies` (Hz), each `bandwidth_ratio` of
   its frequency wide, at `gains` (dB). */
void rp_equalizer_set_bands(GstElement *equalizer, const double *frequencies, const double *gains, int count, double bandwidth_ratio);

/* ---- Decoding to samples ------------------------------------------------------ */

/** Receives decoded audio: `frames` interleaved float frames of `channels` at `rate` (on a streaming thread). */
typedef void (*rp_float_frames_callback)(void *context, const float *samples, size_t frames, int rate, int channels);

/** Decodes the first audio stream of `uri` to interleaved 32-bit float as fast as it can, handing every buffer to
 *  `callback`, and returns when it ends: 0 at the end of the stream, -1 on an error, -2 when `*cancel` became
 *  non-zero, -3 after `timeout_ms` (0: none). The calling thread waits; the callback runs on GStreamer's. */
int rp_decode_float(const char *uri, rp_float_frames_callback callback, void *context, const volatile int *cancel,
                    int64_t timeout_ms);
/** The Chromaprint fingerprint of `uri`'s first audio stream (its first two minutes, as 16-bit samples at the
 *  file's own rate, as MPD's `getfingerprint` computes it) in `*fingerprint` (free it with g_free): 0 when made, -1
 *  when the file cannot be decoded or holds no sound, -3 after `timeout_ms` (0: none), -4 without GStreamer's
 *  chromaprint element (plugins-bad). The calling thread waits. */
int rp_audio_fingerprint(const char *uri, int64_t timeout_ms, char **fingerprint);
/** uridecodebin's pad-added handler: links the first audio pad to `data`'s sink pad (other streams are left). */
void rp_link_first_audio_pad(GstElement *source, GstPad *pad, gpointer data);

/* ---- Tags on their way to a sink ------------------------------------------ */

/** Cuts every string in the TAG events reaching `element`'s sink pad to at most `max_bytes` bytes (at a
 * character boundary) and 16 values a tag. pulsesink passes titles and artists (several values joined
 * into one) to PulseAudio as stream properties, and the sound server drops the whole connection when one
 * is over 64 KiB. Runs on the streaming thread, in C. */
bool rp_limit_tag_strings(GstElement *element, unsigned max_bytes);
/** The whole tag list of a RP_FULL_TAGS element message (posted before a cut copy reaches the sink), with what the
 *  cut left out in `cut` (free both), or NULL. */
GstTagList *rp_message_full_tags(GstMessage *message, char **cut);
/** True for the copy cut for the sound server (the sink's tag message of it is not the stream's tags). */
bool rp_tag_list_is_cut_copy(const GstTagList *list);

/** Adds ReplayGain track and album gains to the TAG events reaching `element`'s sink pad from Opus's
 *  R128_TRACK_GAIN and R128_ALBUM_GAIN comments (Q7.8 dB towards -23 LUFS, so +5 dB for ReplayGain's -18 LUFS),
 *  where the stream has no ReplayGain tags of its own. The Opus header's output gain is applied by the decoder. */
bool rp_map_r128_gains(GstElement *element);

/* ---- Video: the sink that keeps frames for the window, playbin's streams ------------------------------------------------------ */

/** Sound only: a fakesink as video sink and no video decoder plugged (never a sink playbin picks itself, such as
 *  DirectFB's, which crashes without a display). False when fakesink is missing. */
bool rp_playbin_sound_only(GstElement *playbin);
/** Decodes video again (before giving playbin a real video sink). */
void rp_playbin_decode_video(GstElement *playbin);
/** A bin (convert, scale to a set size, crop, convert to BGRx, a clock-synchronised fakesink) that keeps the latest
 *  frame. `notify(userdata)` runs on the default main context (the event loop) after a new frame arrived, at most
 *  one pending at a time; the frame itself never leaves C on the streaming thread. NULL when an element is missing. */
GstElement *rp_video_sink_new(void (*notify)(void *), void *userdata);
/** Scales frames to `width`×`height` (0: the stream's own size) and crops `left`/`top`/`right`/`bottom`. */
void rp_video_sink_set_layout(GstElement *sink, int width, int height, int left, int top, int right, int bottom);
/** A video sink bin drawing into a Wayland surface of the application's (waylandsink as a subsurface of `surface`,
 *  on the application's `display` connection, scaled by the compositor): crops, converts what the compositor cannot
 *  take, and hands no frames to the application. NULL without waylandsink. */
GstElement *rp_video_sink_new_wayland(void *display, void *surface, int width, int height);
/** Where in the surface the picture goes (waylandsink keeps its aspect inside the rectangle, black around it). */
void rp_video_sink_set_render_rectangle(GstElement *sink, int x, int y, int width, int height);

/** A frame mapped for reading: 32-bit BGRx pixels, `stride` bytes a row. */
typedef struct {
    const uint8_t *data;
    int width, height, stride;
} rp_video_frame;

/** Maps the latest frame (on the loop); false when there is none. Unmap it before mapping again. */
bool rp_video_sink_map_latest(GstElement *sink, rp_video_frame *frame);
void rp_video_sink_unmap(GstElement *sink);
/** Drops the kept frame (a new stream, or nothing to show). */
void rp_video_sink_forget(GstElement *sink);

/** The display size of playbin's current video stream: pixels and pixel aspect ratio; false when none. */
bool rp_playbin_video_format(GstElement *playbin, int *width, int *height, int *par_n, int *par_d);
/** Live streams' titles (Shoutcast/Icecast StreamTitle) reach `playbin`'s bus the moment they arrive, as an
 *  element message named RP_STREAM_TITLE_MESSAGE (UTF-8, converted from Latin-1 and the like), and no longer as
 *  a title tag from the sink once the audio before them has played. */
void rp_post_live_titles_early(GstElement *playbin);
/** Drops the state changes of `pipeline`'s children from `bus` as they are posted (the pipeline's own pass). */
void rp_bus_drop_children_state_changes(GstBus *bus, GstElement *pipeline);
/** The bus watch `watch` (on the default context) stays in GLib's poll set while it dispatches: blocking it takes its
 *  descriptor out of the set and back for every message, and each change wakes the loop for one more turn. */
void rp_bus_watch_not_blocked(guint watch);
#define RP_STREAM_TITLE_MESSAGE "reprise-stream-title"
/** The chapters of a TOC message (entries of type chapter at any depth, in order): up to `max` starts in
 *  nanoseconds and titles (g_free each; NULL when untitled). Returns how many; 0 for other messages. */
int rp_message_toc_chapters(GstMessage *message, int64_t *starts, char **titles, int max);
/** The title of such a message (owned by the message), else NULL. */
const char *rp_message_stream_title(GstMessage *message);

/** A string tag of playbin stream `index` through the action signal `signal` (get-audio-tags,
 *  get-text-tags); a newly allocated string (g_free) or NULL. */
char *rp_playbin_stream_tag(GstElement *playbin, const char *signal, int index, const char *tag);

#endif
