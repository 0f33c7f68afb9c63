/* C helpers for video: an X11 window of our own (Xlib's unions and macros are awkward from Swift) and the
 * GStreamer video sink that draws into it (GstVideoOverlay, playbin's per-stream tag signals). */
#ifndef REPRISE_CVIDEO_H
#define REPRISE_CVIDEO_H

#include <stdbool.h>
#include <stdint.h>
#include <gst/gst.h>

/* ---- the window ---------------------------------------------------------- */

/** A top-level X11 window on its own display connection; used from one thread only. */
typedef struct rp_window rp_window;

/** Opens `display_name` (NULL: $DISPLAY) and creates an unmapped, black window; NULL when there is no display. */
rp_window *rp_window_open(const char *display_name, int width, int height, const char *class_name);
void rp_window_close(rp_window *window);
/** The display connection's file descriptor, readable when events wait. */
int rp_window_fd(const rp_window *window);
unsigned long rp_window_xid(const rp_window *window);
/** Sets WM_NAME and _NET_WM_NAME (UTF-8). */
void rp_window_set_title(rp_window *window, const char *utf8_title);
/** Maps (shows) or unmaps (hides) the window. */
void rp_window_set_visible(rp_window *window, bool visible);
/** Enters or leaves fullscreen: through the window manager when one supports it, else by covering the screen. */
void rp_window_set_fullscreen(rp_window *window, bool fullscreen);
/** Raises the window and asks for the input focus. */
void rp_window_raise(rp_window *window);
void rp_window_get_size(const rp_window *window, int *width, int *height);
/** Resizes the window (the window manager may adjust it); the new size arrives as a RESIZED event. */
void rp_window_resize(rp_window *window, int width, int height);
/** Paints the loading screen: black with a spinner at `phase` (0-11) in the centre. */
void rp_window_draw_loading(rp_window *window, int phase);
void rp_window_flush(rp_window *window);

typedef enum {
    RP_WINDOW_EVENT_KEY = 1,      /* keysym set */
    RP_WINDOW_EVENT_RESIZED = 2,  /* width, height set */
    RP_WINDOW_EVENT_EXPOSED = 3,
    RP_WINDOW_EVENT_CLOSE = 4,    /* the window manager's close button */
} rp_window_event_kind;

typedef struct {
    rp_window_event_kind kind;
    unsigned long keysym;
    int width, height;
} rp_window_event;

/** Takes the next pending event that matters; false when none is pending (never blocks). */
bool rp_window_next_event(rp_window *window, rp_window_event *event);

/* ---- the video sink ------------------------------------------------------ */

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
