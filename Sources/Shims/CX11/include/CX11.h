/* C helpers for an X11 window of our own (Xlib's unions and macros are awkward from Swift). Xlib only. */
#ifndef REPRISE_CX11_H
#define REPRISE_CX11_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
/** Picture in Picture: no decorations (_MOTIF_WM_HINTS), kept above other windows and on every desktop
 *  (_NET_WM_STATE_ABOVE, _NET_WM_STATE_STICKY: asked of the window manager, or set by us without one), moved to x, y
 *  at width x height. Leaving gives the decorations, the states and the old place and size back. */
void rp_window_set_picture_in_picture(rp_window *window, bool on, int x, int y, int width, int height);
/** The size of the screen the window is on. */
void rp_window_get_screen_size(const rp_window *window, int *width, int *height);
/** Raises the window and asks for the input focus. */
void rp_window_raise(rp_window *window);
void rp_window_get_size(const rp_window *window, int *width, int *height);
/** Resizes the window (the window manager may adjust it); the new size arrives as a RESIZED event. */
void rp_window_resize(rp_window *window, int width, int height);
/** A grey dot: centre, diameter (window pixels), level (0 black, 255 white). */
typedef struct {
    int x, y, diameter;
    uint8_t level;
} rp_dot;
/** Paints the loading screen: black with the spinner's dots. */
void rp_window_draw_dots(rp_window *window, const rp_dot *dots, int count);
void rp_window_flush(rp_window *window);
/** How many strips of controls can be drawn over the frames at once (the title's band, a tap's glyph in the middle, the bar and
 *  what rises above it). */
enum { RP_WINDOW_OVERLAY_STRIPS = 3 };
/** Strip `strip` of the controls to draw over the frames from now on: premultiplied ARGB, `width` x `height`, at row
 *  `y` of the window (copied); NULL: none. A strip of another width than the drawn area's is not drawn. */
void rp_window_set_overlay(rp_window *window, int strip, const uint32_t *argb, int width, int height, int y);
/** The part of the window that is drawn: the window's size, at most the screen's (a window larger than the screen is
 *  drawn at the size that can be seen, from its top left corner). */
void rp_window_get_drawn_size(const rp_window *window, int *width, int *height);
/** Hides the pointer over the window (a blank cursor), or shows it again. */
void rp_window_set_cursor_hidden(rp_window *window, bool hidden);
/** Lets the window manager move the window with the pointer, from a press of `button` at root_x, root_y. */
void rp_window_begin_move(rp_window *window, int root_x, int root_y, int button);
/** Draws a frame of 32-bit BGRx pixels (`stride` bytes a row) in the middle of the drawn area, black around it, and
 *  the controls' strips over both: what is sent costs the frame's and the strips' pixels, never the window's. */
void rp_window_draw_frame(rp_window *window, const uint8_t *pixels, int width, int height, int stride);
/** The connection to the X server broke (the server went away): the window does nothing any more. Until then
 *  Xlib's fatal I/O error is survived (the process is not ended), and protocol errors are ignored. */
bool rp_window_is_lost(const rp_window *window);
/** The XSETTINGS manager's settings (the `_XSETTINGS_SETTINGS` property of the owner of `_XSETTINGS_S<screen>`), as
 *  their bytes, copied into `buffer` (at most `capacity`): their length; 0 when no manager runs or it has none; -1 when
 *  they are longer than `capacity`. */
long rp_window_xsettings(rp_window *window, uint8_t *buffer, size_t capacity);

typedef enum {
    RP_WINDOW_EVENT_KEY = 1,      /* keysym set */
    RP_WINDOW_EVENT_RESIZED = 2,  /* width, height set */
    RP_WINDOW_EVENT_EXPOSED = 3,
    RP_WINDOW_EVENT_CLOSE = 4,    /* the window manager's close button */
    RP_WINDOW_EVENT_POINTER = 5,  /* the pointer moved: x, y */
    RP_WINDOW_EVENT_PRESS = 6,    /* a button went down: x, y, root_x, root_y, button (4 and 5: the wheel) */
    RP_WINDOW_EVENT_RELEASE = 7,  /* a button came up: x, y, button */
    RP_WINDOW_EVENT_LEAVE = 8,    /* the pointer left the window */
    /* A finger on the window (XInput 2.2), each of them: touch (its id), x, y, root_x, root_y. Which finger is the
     * pointer is decided above (VideoInput's TouchAsPointer), once for both windows. */
    RP_WINDOW_EVENT_TOUCH_DOWN = 9,
    RP_WINDOW_EVENT_TOUCH_MOTION = 10,
    RP_WINDOW_EVENT_TOUCH_UP = 11,
} rp_window_event_kind;

typedef struct {
    rp_window_event_kind kind;
    unsigned long keysym;
    int width, height;
    int x, y, root_x, root_y, button, touch;
} rp_window_event;

/** Takes the next pending event that matters; false when none is pending (never blocks). */
bool rp_window_next_event(rp_window *window, rp_window_event *event);

#endif
