/* C helpers for a Wayland toplevel of our own (libwayland-client, libdecor, xkbcommon). The video itself is drawn
   by GStreamer's waylandsink into a subsurface of this window's surface; the window only paints black behind it. */
#ifndef REPRISE_CWAYLAND_H
#define REPRISE_CWAYLAND_H

#include <stdbool.h>
#include <stdint.h>

/** A toplevel on its own Wayland connection; used from one thread only (waylandsink uses the connection from its
 *  own threads through its own event queue). */
typedef struct rp_wl_window rp_wl_window;

/** Connects to $WAYLAND_DISPLAY and prepares a hidden window with the given app id (the desktop entry's name);
 *  NULL when there is no Wayland compositor or it lacks what the window needs. */
rp_wl_window *rp_wl_window_open(int width, int height, const char *app_id);
/** Lets go of the window; its connection and surface stay (waylandsink keeps using them while it exists). */
void rp_wl_window_close(rp_wl_window *window);
/** The connection's descriptor, readable when events wait. */
int rp_wl_window_fd(const rp_wl_window *window);
/** The wl_display and the window's wl_surface, for waylandsink. */
void *rp_wl_window_display(const rp_wl_window *window);
void *rp_wl_window_surface(const rp_wl_window *window);
void rp_wl_window_set_title(rp_wl_window *window, const char *utf8_title);
/** Maps the toplevel (a new xdg toplevel on the same surface) or unmaps it. */
void rp_wl_window_set_visible(rp_wl_window *window, bool visible);
/** Fullscreen through xdg-shell; the compositor answers with a configure. */
void rp_wl_window_set_fullscreen(rp_wl_window *window, bool fullscreen);
/** Picture in Picture: the toplevel mapped again without decorations at a fixed width x height (a compositor that
 *  tiles floats a fixed-size window); off: mapped again as it was, decorated, at its old size. Wayland lets no
 *  client place itself or stay above others: where it goes is the compositor's choice. */
void rp_wl_window_set_picture_in_picture(rp_wl_window *window, bool on, int width, int height);
/** The logical size of the output the window is on (the first output until it entered one). */
void rp_wl_window_get_screen_size(const rp_wl_window *window, int *width, int *height);
/** The window's content size in logical pixels, as last configured. */
void rp_wl_window_get_size(const rp_wl_window *window, int *width, int *height);
/** The output's integer scale the window's buffers are drawn at. */
int rp_wl_window_scale(const rp_wl_window *window);
/** Asks for a content size (kept for the next configure when the window is not fullscreen). */
void rp_wl_window_resize(rp_wl_window *window, int width, int height);
/** A grey dot: centre, diameter (logical pixels), level (0 black, 255 white). */
typedef struct {
    int x, y, diameter;
    uint8_t level;
} rp_wl_dot;
/** Shows the loading screen above the video: black with the spinner's dots (a subsurface of the window's own). */
void rp_wl_window_draw_dots(rp_wl_window *window, const rp_wl_dot *dots, int count);
/** Takes the loading screen away. */
void rp_wl_window_clear_dots(rp_wl_window *window);
/** How many strips of on-screen controls the window shows at once (the title's band, a tap's glyph, the bar). */
enum { RP_WL_CONTROLS_LAYERS = 3 };
/** Shows strip `layer` of the on-screen controls above the video and the spinner: `pixels` premultiplied ARGB,
 *  `width`×`height` at `scale` (the content's width times the scale), from logical row `y` down; NULL takes it away.
 *  Each is a subsurface of the window's own that takes no input (the window's surface gets the pointer). */
void rp_wl_window_set_overlay(rp_wl_window *window, int layer, const uint32_t *pixels, int width, int height, int y, int scale);
/** Hides the pointer over the window's content (or shows it again: the cursor theme's arrow). */
void rp_wl_window_set_cursor_hidden(rp_wl_window *window, bool hidden);
/** Lets the compositor move the window with the pointer (or touch) whose press came last (xdg_toplevel.move). */
void rp_wl_window_begin_move(rp_wl_window *window);
/** The compositor went away or ended the connection: the window does nothing any more. */
bool rp_wl_window_is_lost(const rp_wl_window *window);

typedef enum {
    RP_WL_EVENT_KEY = 1,      /* keysym set (xkb keysyms are X keysyms) */
    RP_WL_EVENT_RESIZED = 2,  /* width, height set */
    RP_WL_EVENT_CLOSE = 4,    /* the compositor's or the frame's close */
    RP_WL_EVENT_POINTER = 8,  /* x, y: the pointer moved over the window's content */
    RP_WL_EVENT_PRESS = 16,   /* x, y, button: 1 left, 2 middle, 3 right; 4 and 5 a wheel step up, down */
    RP_WL_EVENT_RELEASE = 32, /* x, y, button */
    RP_WL_EVENT_LEAVE = 64,   /* the pointer left the content */
    /* A finger, each of them: touch (its id); x, y with a down on the window's content and a motion. Which finger is
     * the pointer is decided above (VideoInput's TouchAsPointer), once for both windows. */
    RP_WL_EVENT_TOUCH_DOWN = 128,
    RP_WL_EVENT_TOUCH_MOTION = 256,
    RP_WL_EVENT_TOUCH_UP = 512,
    RP_WL_EVENT_TOUCH_CANCEL = 1024, /* the compositor took the touches (a gesture), or the touchscreen went away */
} rp_wl_event_kind;

typedef struct {
    rp_wl_event_kind kind;
    unsigned long keysym;
    int width, height;
    int x, y, button; /* logical pixels of the content */
    int touch;
} rp_wl_event;

/** Reads the connection on the default GLib main context (the loop's), holding a prepared read while it polls so
 *  that waylandsink's thread reading the same connection never leaves the window's events unseen; `ready(data)`
 *  runs on the loop whenever events may be waiting, until it returns false. */
void rp_wl_window_watch(rp_wl_window *window, bool (*ready)(void *), void *data);
/** Dispatches what is queued (never reads or blocks), then takes the next event; false when none. */
bool rp_wl_window_next_event(rp_wl_window *window, rp_wl_event *event);

#endif
