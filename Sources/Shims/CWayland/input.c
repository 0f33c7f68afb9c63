/* The window's input: keys (xkbcommon), the pointer, touch and the cursor over the window's content. Pointer and
 * touch count only over the window's own surface: the frame's decorations are libdecor's, and the surfaces above the
 * content (waylandsink's, the spinner's, the controls') take no input, so coordinates are the content's. */
#define _GNU_SOURCE
#include "window_private.h"

#include <errno.h>
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- keys ------------------------------------------------------------------------------------------------------- */

static void keyboard_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd, uint32_t size) {
    (void)keyboard;
    rp_wl_window *window = data;
    if (format != WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 || size == 0 || size > (16u << 20)) {
        close(fd);
        return;
    }
    char *text = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (text == MAP_FAILED) return;
    struct xkb_keymap *keymap = xkb_keymap_new_from_buffer(window->xkb, text, strnlen(text, size), XKB_KEYMAP_FORMAT_TEXT_V1,
                                                           XKB_KEYMAP_COMPILE_NO_FLAGS);
    munmap(text, size);
    if (!keymap) return;
    struct xkb_state *state = xkb_state_new(keymap);
    if (!state) {
        xkb_keymap_unref(keymap);
        return;
    }
    if (window->xkb_state) xkb_state_unref(window->xkb_state);
    if (window->keymap) xkb_keymap_unref(window->keymap);
    window->keymap = keymap;
    window->xkb_state = state;
}

static void keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface,
                           struct wl_array *keys) {
    (void)data, (void)keyboard, (void)serial, (void)surface, (void)keys;
}

static void keyboard_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial, struct wl_surface *surface) {
    (void)data, (void)keyboard, (void)serial, (void)surface;
}

static void keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time, uint32_t key,
                         uint32_t state) {
    (void)keyboard, (void)serial, (void)time;
    rp_wl_window *window = data;
    if (state != WL_KEYBOARD_KEY_STATE_PRESSED || !window->xkb_state) return;
    xkb_keysym_t keysym = xkb_state_key_get_one_sym(window->xkb_state, key + 8); /* evdev codes are 8 below xkb's */
    if (keysym != XKB_KEY_NoSymbol) rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_KEY, .keysym = keysym});
}

static void keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t depressed,
                               uint32_t latched, uint32_t locked, uint32_t group) {
    (void)keyboard, (void)serial;
    rp_wl_window *window = data;
    if (window->xkb_state) xkb_state_update_mask(window->xkb_state, depressed, latched, locked, 0, 0, group);
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate, int32_t delay) {
    (void)data, (void)keyboard, (void)rate, (void)delay;
}

static const struct wl_keyboard_listener keyboard_listener = {
    .keymap = keyboard_keymap, .enter = keyboard_enter, .leave = keyboard_leave, .key = keyboard_key,
    .modifiers = keyboard_modifiers, .repeat_info = keyboard_repeat_info,
};

/* ---- the cursor ------------------------------------------------------------------------------------------------ */

/* The theme's arrow at the output's scale, or none while hidden; set again at each entry (its serial). */
static void apply_cursor(rp_wl_window *window) {
    if (!window->pointer || !window->pointer_inside) return;
    if (window->cursor_hidden) {
        wl_pointer_set_cursor(window->pointer, window->enter_serial, NULL, 0, 0);
        return;
    }
    int scale = rp_wl_scale_of(window);
    if (!window->cursor_theme || window->cursor_theme_scale != scale) {
        if (window->cursor_theme) wl_cursor_theme_destroy(window->cursor_theme);
        const char *size_text = getenv("XCURSOR_SIZE");
        long size = size_text ? strtol(size_text, NULL, 10) : 24;
        if (size <= 0 || size > 256) size = 24;
        window->cursor_theme = wl_cursor_theme_load(getenv("XCURSOR_THEME"), (int)size * scale, window->shm);
        window->cursor_theme_scale = scale;
    }
    struct wl_cursor *cursor = NULL;
    if (window->cursor_theme) {
        cursor = wl_cursor_theme_get_cursor(window->cursor_theme, "left_ptr");
        if (!cursor) cursor = wl_cursor_theme_get_cursor(window->cursor_theme, "default");
    }
    if (!cursor || cursor->image_count == 0) {
        /* No theme: the compositor's own arrow stays (a NULL surface would hide it). */
        return;
    }
    struct wl_cursor_image *image = cursor->images[0];
    struct wl_buffer *buffer = wl_cursor_image_get_buffer(image);
    if (!buffer) return;
    if (!window->cursor_surface) window->cursor_surface = wl_compositor_create_surface(window->compositor);
    wl_pointer_set_cursor(window->pointer, window->enter_serial, window->cursor_surface, (int32_t)image->hotspot_x / scale,
                          (int32_t)image->hotspot_y / scale);
    wl_surface_set_buffer_scale(window->cursor_surface, scale);
    wl_surface_attach(window->cursor_surface, buffer, 0, 0);
    wl_surface_damage_buffer(window->cursor_surface, 0, 0, INT32_MAX, INT32_MAX);
    wl_surface_commit(window->cursor_surface);
}

void rp_wl_window_set_cursor_hidden(rp_wl_window *window, bool hidden) {
    if (window->lost || hidden == window->cursor_hidden) return;
    window->cursor_hidden = hidden;
    apply_cursor(window);
    if (wl_display_flush(window->display) < 0 && errno != EAGAIN) window->lost = true;
}

/* ---- the pointer ----------------------------------------------------------------------------------------------- */

static void pointer_at(rp_wl_window *window, wl_fixed_t x, wl_fixed_t y) {
    window->pointer_x = wl_fixed_to_int(x);
    window->pointer_y = wl_fixed_to_int(y);
    rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_POINTER, .x = window->pointer_x, .y = window->pointer_y});
}

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface, wl_fixed_t x,
                          wl_fixed_t y) {
    (void)pointer;
    rp_wl_window *window = data;
    window->pointer_inside = surface != NULL && surface == window->surface;
    if (!window->pointer_inside) return;
    window->enter_serial = serial;
    apply_cursor(window);
    pointer_at(window, x, y);
}

static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial, struct wl_surface *surface) {
    (void)pointer, (void)serial, (void)surface;
    rp_wl_window *window = data;
    if (!window->pointer_inside) return;
    window->pointer_inside = false;
    rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_LEAVE});
}

static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)pointer, (void)time;
    rp_wl_window *window = data;
    if (window->pointer_inside) pointer_at(window, x, y);
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
    (void)pointer, (void)time;
    rp_wl_window *window = data;
    if (!window->pointer_inside) return;
    int number = button == BTN_LEFT ? 1 : button == BTN_MIDDLE ? 2 : button == BTN_RIGHT ? 3 : 0;
    if (number == 0) return;
    bool pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;
    if (pressed) window->press_serial = serial;
    rp_wl_push_event(window, (rp_wl_event){.kind = pressed ? RP_WL_EVENT_PRESS : RP_WL_EVENT_RELEASE, .x = window->pointer_x,
                                           .y = window->pointer_y, .button = number});
}

/* Scrolling comes as whole wheel steps (axis_discrete) or as a distance (a touchpad: 10 units a step, as GTK counts). */
static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)pointer, (void)time;
    rp_wl_window *window = data;
    if (window->pointer_inside && axis == WL_POINTER_AXIS_VERTICAL_SCROLL) window->scroll_pending += wl_fixed_to_double(value);
}

static void pointer_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis, int32_t discrete) {
    (void)pointer;
    rp_wl_window *window = data;
    if (!window->pointer_inside || axis != WL_POINTER_AXIS_VERTICAL_SCROLL) return;
    window->scroll_discrete = true;
    if (discrete > -100 && discrete < 100) window->scroll_steps += discrete;
}

static void pointer_frame(void *data, struct wl_pointer *pointer) {
    (void)pointer;
    rp_wl_window *window = data;
    int steps = window->scroll_steps;
    if (window->scroll_discrete) {
        window->scroll_pending = 0;
    } else if (window->scroll_pending >= 10 || window->scroll_pending <= -10) {
        steps = (int)(window->scroll_pending / 10);
        window->scroll_pending -= steps * 10.0;
    }
    window->scroll_steps = 0;
    window->scroll_discrete = false;
    for (int i = 0; i < abs(steps) && i < 10; i++)
        rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_PRESS, .x = window->pointer_x, .y = window->pointer_y,
                                               .button = steps < 0 ? 4 : 5});
}

static void pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source) { (void)data, (void)pointer, (void)source; }

static void pointer_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
    (void)pointer, (void)time, (void)axis;
    ((rp_wl_window *)data)->scroll_pending = 0;
}

static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion, .button = pointer_button,
    .axis = pointer_axis, .frame = pointer_frame, .axis_source = pointer_axis_source, .axis_stop = pointer_axis_stop,
    .axis_discrete = pointer_axis_discrete,
};

/* ---- touch: every finger, with its id (which one is the pointer is decided above, once for both windows) ------ */

static void touch_down(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, struct wl_surface *surface, int32_t id,
                       wl_fixed_t x, wl_fixed_t y) {
    (void)touch, (void)time;
    rp_wl_window *window = data;
    if (surface == NULL || surface != window->surface) return;
    window->press_serial = serial; /* a move of the window starts from it */
    rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_TOUCH_DOWN, .touch = id, .x = wl_fixed_to_int(x), .y = wl_fixed_to_int(y)});
}

static void touch_up(void *data, struct wl_touch *touch, uint32_t serial, uint32_t time, int32_t id) {
    (void)touch, (void)serial, (void)time;
    rp_wl_push_event(data, (rp_wl_event){.kind = RP_WL_EVENT_TOUCH_UP, .touch = id});
}

static void touch_motion(void *data, struct wl_touch *touch, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
    (void)touch, (void)time;
    rp_wl_push_event(data, (rp_wl_event){.kind = RP_WL_EVENT_TOUCH_MOTION, .touch = id, .x = wl_fixed_to_int(x), .y = wl_fixed_to_int(y)});
}

static void touch_frame(void *data, struct wl_touch *touch) { (void)data, (void)touch; }

/* The compositor took the touch for itself (a gesture): it ends without a release there. */
static void touch_cancel(void *data, struct wl_touch *touch) {
    (void)touch;
    rp_wl_push_event(data, (rp_wl_event){.kind = RP_WL_EVENT_TOUCH_CANCEL});
}

static void touch_shape(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t major, wl_fixed_t minor) {
    (void)data, (void)touch, (void)id, (void)major, (void)minor;
}

static void touch_orientation(void *data, struct wl_touch *touch, int32_t id, wl_fixed_t orientation) {
    (void)data, (void)touch, (void)id, (void)orientation;
}

static const struct wl_touch_listener touch_listener = {
    .down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel,
    .shape = touch_shape, .orientation = touch_orientation,
};

/* ---- the seat -------------------------------------------------------------------------------------------------- */

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t capabilities) {
    rp_wl_window *window = data;
    bool has_keyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD;
    if (has_keyboard && !window->keyboard) {
        window->keyboard = wl_seat_get_keyboard(seat);
        wl_keyboard_add_listener(window->keyboard, &keyboard_listener, window);
    } else if (!has_keyboard && window->keyboard) {
        wl_keyboard_destroy(window->keyboard);
        window->keyboard = NULL;
    }
    bool has_pointer = capabilities & WL_SEAT_CAPABILITY_POINTER;
    if (has_pointer && !window->pointer) {
        window->pointer = wl_seat_get_pointer(seat);
        wl_pointer_add_listener(window->pointer, &pointer_listener, window);
    } else if (!has_pointer && window->pointer) {
        wl_pointer_destroy(window->pointer);
        window->pointer = NULL;
        if (window->pointer_inside) rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_LEAVE});
        window->pointer_inside = false;
    }
    bool has_touch = capabilities & WL_SEAT_CAPABILITY_TOUCH;
    if (has_touch && !window->touch) {
        window->touch = wl_seat_get_touch(seat);
        wl_touch_add_listener(window->touch, &touch_listener, window);
    } else if (!has_touch && window->touch) {
        wl_touch_destroy(window->touch);
        window->touch = NULL;
        rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_TOUCH_CANCEL});
    }
}

static void seat_name(void *data, struct wl_seat *seat, const char *name) { (void)data, (void)seat, (void)name; }

static const struct wl_seat_listener seat_listener = {.capabilities = seat_capabilities, .name = seat_name};

void rp_wl_listen_to_seat(rp_wl_window *window) { wl_seat_add_listener(window->seat, &seat_listener, window); }

void rp_wl_release_input(rp_wl_window *window) {
    if (window->keyboard) wl_keyboard_destroy(window->keyboard);
    if (window->pointer) wl_pointer_destroy(window->pointer);
    if (window->touch) wl_touch_destroy(window->touch);
    if (window->cursor_surface) wl_surface_destroy(window->cursor_surface);
    if (window->cursor_theme) wl_cursor_theme_destroy(window->cursor_theme);
    if (window->xkb_state) xkb_state_unref(window->xkb_state);
    if (window->keymap) xkb_keymap_unref(window->keymap);
    if (window->xkb) xkb_context_unref(window->xkb);
    window->keyboard = NULL;
    window->pointer = NULL;
    window->touch = NULL;
    window->cursor_surface = NULL;
    window->cursor_theme = NULL;
    window->xkb_state = NULL;
    window->keymap = NULL;
    window->xkb = NULL;
}
