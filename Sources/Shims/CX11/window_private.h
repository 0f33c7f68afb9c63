/* What the window's source files share: the window's state. Not part of the shim's interface. */
#ifndef RP_WINDOW_PRIVATE_H
#define RP_WINDOW_PRIVATE_H

#include "CX11.h"
#include "x11_functions.h"

/* One strip of the controls: premultiplied ARGB, `width` x `height`, put at row `y` of the window (NULL: none). */
struct rp_overlay_strip {
    uint32_t *pixels;
    int width, height, y;
};

struct rp_window {
    Display *display;
    Window window;
    Atom wm_delete, net_wm_name, utf8_string, net_wm_state, net_wm_state_fullscreen;
    Atom net_wm_state_above, net_wm_state_sticky, motif_wm_hints;
    bool fullscreen, visible, picture_in_picture;
    /* Geometry to return to when Picture in Picture ends. */
    int pip_saved_x, pip_saved_y, pip_saved_width, pip_saved_height;
    /* Picture in Picture ended into fullscreen: the size before it is given back when fullscreen ends. */
    bool pip_restore_after_fullscreen;
    /* The connection to the X server broke (it went away): nothing is sent any more. */
    bool lost;
    int width, height;
    /* Geometry to return to when fullscreen was done without a window manager. */
    int saved_x, saved_y, saved_width, saved_height;
    GC gc;
    /* The controls drawn over the picture: strips of premultiplied ARGB as wide as the drawn area, at rows y. */
    struct rp_overlay_strip overlay[RP_WINDOW_OVERLAY_STRIPS];
    Cursor blank_cursor;
    bool cursor_hidden;
    /* XInput 2.2's touch events, when the server has them (its major opcode; 0 without): every finger reported (the
     * first acts as the primary button: TouchAsPointer, as on Wayland). Without them the server turns touches into
     * pointer events itself. */
    int xinput_opcode;
};

#endif
