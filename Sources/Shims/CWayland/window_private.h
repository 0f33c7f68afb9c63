/* The Wayland window's state, shared by the shim's files (window.c: the toplevel, painting, the loop's source;
   input.c: keyboard, pointer, touch and cursor). Not part of the shim's interface. */
#ifndef REPRISE_CWAYLAND_PRIVATE_H
#define REPRISE_CWAYLAND_PRIVATE_H

#include "CWayland.h"
#include "wayland_functions.h"

enum { MAX_OUTPUTS = 8, MAX_EVENTS = 64 };

typedef struct {
    struct wl_output *output;
    uint32_t name;
    int width, height, scale; /* the current mode, in pixels */
} rp_output;

struct rp_wl_window {
    struct wl_display *display;
    struct wl_registry *registry;
    struct wl_compositor *compositor;
    struct wl_subcompositor *subcompositor;
    struct wl_shm *shm;
    struct wl_seat *seat;
    struct wl_keyboard *keyboard;
    struct wl_pointer *pointer;
    struct wl_touch *touch;
    /* The pointer over the window's own surface (not its frame's): the serial of its entry (to set the cursor), of
     * the last press or touch (to move the window), where it is, and the scroll of a frame not yet whole steps. */
    bool pointer_inside, cursor_hidden;
    uint32_t enter_serial, press_serial;
    int pointer_x, pointer_y;
    double scroll_pending;
    int scroll_steps;
    bool scroll_discrete;
    struct wl_cursor_theme *cursor_theme;
    int cursor_theme_scale;
    struct wl_surface *cursor_surface;
    rp_output outputs[MAX_OUTPUTS];
    int output_count;
    rp_output *current_output;
    struct libdecor *decor;
    struct libdecor_frame *frame;
    /* A frame unmapped and waiting for its sync to come back before it is let go (see unmap_frame). */
    struct libdecor_frame *retiring_frame;
    struct wl_callback *retire_sync;
    struct wl_surface *surface;
    /* Above the video's subsurfaces while loading: black with the spinner. */
    struct wl_surface *spinner;
    struct wl_subsurface *spinner_subsurface;
    /* Above the video (and the spinner) while they show: the on-screen controls' strips (the title's band, the bar
     * and what rises above it), ARGB at the output's scale. */
    struct wl_surface *controls[RP_WL_CONTROLS_LAYERS];
    struct wl_subsurface *controls_subsurface[RP_WL_CONTROLS_LAYERS];
    bool controls_attached[RP_WL_CONTROLS_LAYERS];
    int controls_y[RP_WL_CONTROLS_LAYERS];
    struct xkb_context *xkb;
    struct xkb_keymap *keymap;
    struct xkb_state *xkb_state;
    char *title, *app_id;
    bool visible, fullscreen, picture_in_picture, lost;
    /* The frame now mapped: whether the compositor has configured it yet (nothing is drawn on the surface before:
     * a buffer committed to an unconfigured xdg_surface is a protocol error that ends the connection), and the
     * Picture in Picture state it was made for (a toggle asked meanwhile waits for its configure). */
    bool frame_configured, frame_picture_in_picture, remap_due;
    bool configured_filling; /* the last configure was fullscreen (or maximized) */
    int width, height;                   /* content, logical pixels, as configured */
    int floating_width, floating_height; /* the size outside fullscreen */
    int saved_width, saved_height;       /* the size before Picture in Picture */
    int painted_width, painted_height, painted_scale;
    rp_wl_event events[MAX_EVENTS];
    int event_head, event_count;
};

/** Queues an event for the loop (a motion right after a motion replaces it). */
void rp_wl_push_event(rp_wl_window *window, rp_wl_event event);
/** The output's integer scale the window's buffers are drawn at. */
int rp_wl_scale_of(const rp_wl_window *window);
/** Listens to the seat: keys, pointer and touch reach the window's event queue. */
void rp_wl_listen_to_seat(rp_wl_window *window);
/** Lets go of the seat's devices and the cursor. */
void rp_wl_release_input(rp_wl_window *window);

#endif
