#define _GNU_SOURCE
#include "window_private.h"

#include <errno.h>
#include <glib.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* libdecor's error callback has no user data: the process has one video window. */
static rp_wl_window *the_window;

void rp_wl_push_event(rp_wl_window *window, rp_wl_event event) {
    if ((event.kind == RP_WL_EVENT_POINTER || event.kind == RP_WL_EVENT_TOUCH_MOTION) && window->event_count > 0) {
        rp_wl_event *last = &window->events[(window->event_head + window->event_count - 1) % MAX_EVENTS];
        if (last->kind == event.kind && last->touch == event.touch) {
            *last = event; /* only where the pointer (or that finger) is now matters */
            return;
        }
    }
    if (window->event_count == MAX_EVENTS) return; /* a flood of keys: the oldest are enough */
    window->events[(window->event_head + window->event_count) % MAX_EVENTS] = event;
    window->event_count += 1;
}

/* ---- painting: black behind the video's subsurface ------------------------------------------------------------ */

static void buffer_released(void *data, struct wl_buffer *buffer) {
    (void)data;
    wl_buffer_destroy(buffer);
}

static const struct wl_buffer_listener buffer_listener = {.release = buffer_released};

int rp_wl_scale_of(const rp_wl_window *window) {
    int scale = window->current_output ? window->current_output->scale : 1;
    return scale >= 1 && scale <= 8 ? scale : 1;
}

/* A buffer of `width`×`height` pixels in a fresh memfd (zero pages: black, or transparent in ARGB) that the
 * compositor frees when it releases it; `draw(pixels, context)` fills it first when given. NULL on failure. */
static struct wl_buffer *shm_buffer(rp_wl_window *window, long width, long height, uint32_t format,
                                    void (*draw)(uint32_t *, long, long, const void *), const void *context) {
    long stride = width * 4;
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384) return NULL;
    int fd = memfd_create("reprise-video-window", MFD_CLOEXEC);
    if (fd < 0) return NULL;
    if (ftruncate(fd, stride * height) != 0) {
        close(fd);
        return NULL;
    }
    if (draw) {
        uint32_t *pixels = mmap(NULL, (size_t)(stride * height), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (pixels == MAP_FAILED) {
            close(fd);
            return NULL;
        }
        draw(pixels, width, height, context);
        munmap(pixels, (size_t)(stride * height));
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(window->shm, fd, (int32_t)(stride * height));
    struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)width, (int32_t)height, (int32_t)stride, format);
    wl_shm_pool_destroy(pool);
    close(fd);
    wl_buffer_add_listener(buffer, &buffer_listener, NULL);
    return buffer;
}

typedef struct {
    const rp_wl_dot *dots;
    int count, scale;
} dots_drawing;

static void draw_dots(uint32_t *pixels, long width, long height, const void *context) {
    const dots_drawing *drawing = context;
    for (int i = 0; i < drawing->count; i++) {
        const rp_wl_dot *dot = &drawing->dots[i];
        long radius = (long)dot->diameter * drawing->scale / 2, cx = (long)dot->x * drawing->scale, cy = (long)dot->y * drawing->scale;
        uint32_t level = dot->level, colour = 0xFF000000u | level << 16 | level << 8 | level;
        for (long y = cy - radius; y <= cy + radius; y++)
            for (long x = cx - radius; x <= cx + radius; x++)
                if (x >= 0 && x < width && y >= 0 && y < height && (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius)
                    pixels[y * width + x] = colour;
    }
}

/* Shows `buffer` on `surface` at `scale`, all of it damaged. */
static void show_buffer(struct wl_surface *surface, struct wl_buffer *buffer, int scale) {
    wl_surface_set_buffer_scale(surface, scale);
    wl_surface_attach(surface, buffer, 0, 0);
    wl_surface_damage_buffer(surface, 0, 0, INT32_MAX, INT32_MAX);
    wl_surface_commit(surface);
}

/* A black buffer the size of the content at the output's scale, with `dots` drawn on it (only their pages touched). */
static void paint_with(rp_wl_window *window, struct wl_surface *surface, const rp_wl_dot *dots, int count) {
    int scale = rp_wl_scale_of(window);
    dots_drawing drawing = {.dots = dots, .count = count, .scale = scale};
    struct wl_buffer *buffer = shm_buffer(window, (long)window->width * scale, (long)window->height * scale,
                                          WL_SHM_FORMAT_XRGB8888, count > 0 ? draw_dots : NULL, &drawing);
    if (buffer) show_buffer(surface, buffer, scale);
}

/* A surface of ours above the video that the pointer goes through to the window's surface. */
static void take_no_input(rp_wl_window *window, struct wl_surface *surface) {
    struct wl_region *none = wl_compositor_create_region(window->compositor);
    wl_surface_set_input_region(surface, none);
    wl_region_destroy(none);
}

/* Black behind the video, painted again only when the size or scale changed. */
static void paint(rp_wl_window *window) {
    if (!window->frame || !window->frame_configured || window->width <= 0 || window->height <= 0) return;
    int scale = rp_wl_scale_of(window);
    if (window->painted_width == window->width && window->painted_height == window->height && window->painted_scale == scale)
        return;
    paint_with(window, window->surface, NULL, 0);
    window->painted_width = window->width;
    window->painted_height = window->height;
    window->painted_scale = scale;
}

/* ---- the toplevel (libdecor) ---------------------------------------------------------------------------------- */

static void frame_configure(struct libdecor_frame *frame, struct libdecor_configuration *configuration, void *data) {
    rp_wl_window *window = data;
    if (frame != window->frame) return; /* sent to a frame being retired, before the compositor saw it unmapped */
    int width = 0, height = 0;
    enum libdecor_window_state state = LIBDECOR_WINDOW_STATE_NONE;
    bool has_state = libdecor_configuration_get_window_state(configuration, &state);
    if (!libdecor_configuration_get_content_size(configuration, frame, &width, &height) || width <= 0 || height <= 0) {
        /* The frame's own size: a normal frame's while Picture in Picture is asked already is the one kept aside. */
        bool aside = !window->frame_picture_in_picture && window->picture_in_picture;
        width = aside ? window->saved_width : window->floating_width;
        height = aside ? window->saved_height : window->floating_height;
    }
    bool fills = has_state && (state & (LIBDECOR_WINDOW_STATE_FULLSCREEN | LIBDECOR_WINDOW_STATE_MAXIMIZED));
    bool tiled = has_state && (state & (LIBDECOR_WINDOW_STATE_TILED_LEFT | LIBDECOR_WINDOW_STATE_TILED_RIGHT
                                        | LIBDECOR_WINDOW_STATE_TILED_TOP | LIBDECOR_WINDOW_STATE_TILED_BOTTOM));
    /* Out of fullscreen, a floating window takes back the size it had (sway suggests the fullscreen size when the
     * toplevel was mapped fullscreen); a tiled one takes the compositor's. */
    if (window->configured_filling && !fills && !tiled && !window->frame_picture_in_picture) {
        bool aside = window->picture_in_picture;
        width = aside ? window->saved_width : window->floating_width;
        height = aside ? window->saved_height : window->floating_height;
    }
    window->configured_filling = fills;
    if (!fills && !window->frame_picture_in_picture) {
        /* A normal frame's own size: the size to give back after Picture in Picture when that is asked already. */
        if (window->picture_in_picture) {
            window->saved_width = width;
            window->saved_height = height;
        } else {
            window->floating_width = width;
            window->floating_height = height;
        }
    }
    struct libdecor_state *committed = libdecor_state_new(width, height);
    libdecor_frame_commit(frame, committed, configuration);
    libdecor_state_free(committed);
    window->frame_configured = true;
    if (libdecor_frame_is_visible(frame) == window->frame_picture_in_picture)
        libdecor_frame_set_visibility(frame, !window->frame_picture_in_picture);
    /* A toggle asked before this configure: made once this callback is over (the frame cannot go inside it). */
    if (window->frame_picture_in_picture != window->picture_in_picture) window->remap_due = true;
    bool changed = width != window->width || height != window->height;
    window->width = width;
    window->height = height;
    paint(window);
    if (changed) rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_RESIZED, .width = width, .height = height});
}

static void frame_close(struct libdecor_frame *frame, void *data) {
    (void)frame;
    rp_wl_push_event(data, (rp_wl_event){.kind = RP_WL_EVENT_CLOSE});
}

static void frame_commit(struct libdecor_frame *frame, void *data) {
    (void)frame;
    rp_wl_window *window = data;
    wl_surface_commit(window->surface);
}

static void frame_dismiss_popup(struct libdecor_frame *frame, const char *seat_name, void *data) {
    (void)frame, (void)seat_name, (void)data;
}

static struct libdecor_frame_interface frame_interface = {
    .configure = frame_configure, .close = frame_close, .commit = frame_commit, .dismiss_popup = frame_dismiss_popup,
};

static void decor_error(struct libdecor *context, enum libdecor_error error, const char *message) {
    (void)context, (void)error, (void)message;
    if (the_window) the_window->lost = true;
}

static struct libdecor_interface decor_interface = {.error = decor_error};

static void map_frame(rp_wl_window *window) {
    if (window->retiring_frame) return; /* mapped once the frame before is gone (finish_retiring) */
    window->frame = libdecor_decorate(window->decor, window->surface, &frame_interface, window);
    window->frame_configured = false;
    window->configured_filling = false;
    window->remap_due = false;
    window->frame_picture_in_picture = window->picture_in_picture;
    if (!window->frame) return;
    libdecor_frame_set_app_id(window->frame, window->app_id);
    libdecor_frame_set_title(window->frame, window->title ? window->title : "Reprise");
    if (window->picture_in_picture) {
        /* Fixed size: a tiling compositor (sway) floats such a window. (Its decorations go at the first configure:
         * libdecor sets an empty window geometry, a protocol error, when they go before the frame has a size.) */
        libdecor_frame_set_min_content_size(window->frame, window->floating_width, window->floating_height);
        libdecor_frame_set_max_content_size(window->frame, window->floating_width, window->floating_height);
    } else if (window->fullscreen) {
        libdecor_frame_set_fullscreen(window->frame, NULL);
    }
    libdecor_frame_map(window->frame);
    window->painted_width = window->painted_height = 0;
}

/* A frame goes in two steps. libdecor 0.1.1 (Debian 12) keeps a frame's xdg-decoration object when the frame is
 * unreferenced, and that object's configure handler writes into the freed frame: a decoration configure the
 * compositor sent before it saw the frame go corrupted the heap (a crash in wl_list_remove after Picture in Picture
 * was toggled fast; libdecor 0.2 destroys the object with the frame). So the surface is unmapped first (no configure
 * is sent for an unmapped toplevel), and the frame is let go only when a sync sent after that comes back: every
 * configure sent before it has been dispatched by then, to the frame still alive, which ignores it. */
static void retire_done(void *data, struct wl_callback *callback, uint32_t time) {
    (void)time;
    rp_wl_window *window = data;
    wl_callback_destroy(callback);
    window->retire_sync = NULL; /* the frame goes after this dispatch (finish_retiring), outside libwayland's callback */
}

static const struct wl_callback_listener retire_listener = {.done = retire_done};

static void unmap_frame(rp_wl_window *window) {
    if (!window->frame) return;
    window->retiring_frame = window->frame;
    window->frame = NULL;
    window->frame_configured = false;
    window->remap_due = false;
    wl_surface_attach(window->surface, NULL, 0, 0);
    wl_surface_commit(window->surface);
    window->retire_sync = wl_display_sync(window->display);
    wl_callback_add_listener(window->retire_sync, &retire_listener, window);
    window->painted_width = window->painted_height = 0;
}

/* After a dispatch: lets a retired frame go once its sync came back, and maps the window again when it is shown. */
static void finish_retiring(rp_wl_window *window) {
    if (!window->retiring_frame || window->retire_sync) return;
    libdecor_frame_unref(window->retiring_frame);
    window->retiring_frame = NULL;
    if (window->visible && !window->lost) map_frame(window);
}

/* ---- outputs ---------------------------------------------------------------------------------------------------- */

static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y, int32_t physical_width,
                            int32_t physical_height, int32_t subpixel, const char *make, const char *model,
                            int32_t transform) {
    (void)data, (void)output, (void)x, (void)y, (void)physical_width, (void)physical_height, (void)subpixel, (void)make,
        (void)model, (void)transform;
}

static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width, int32_t height, int32_t refresh) {
    (void)output, (void)refresh;
    rp_output *entry = data;
    if (flags & WL_OUTPUT_MODE_CURRENT) {
        entry->width = width;
        entry->height = height;
    }
}

static void output_done(void *data, struct wl_output *output) { (void)data, (void)output; }

static void output_scale(void *data, struct wl_output *output, int32_t factor) {
    (void)output;
    rp_output *entry = data;
    entry->scale = factor;
    if (the_window && the_window->current_output == entry) paint(the_window);
}

static const struct wl_output_listener output_listener = {
    .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale,
};

static void surface_enter(void *data, struct wl_surface *surface, struct wl_output *output) {
    (void)surface;
    rp_wl_window *window = data;
    for (int i = 0; i < window->output_count; i++)
        if (window->outputs[i].output == output) window->current_output = &window->outputs[i];
    paint(window);
}

static void surface_leave(void *data, struct wl_surface *surface, struct wl_output *output) {
    (void)data, (void)surface, (void)output;
}

static const struct wl_surface_listener surface_listener = {.enter = surface_enter, .leave = surface_leave};

/* ---- the registry ----------------------------------------------------------------------------------------------- */

static uint32_t lower(uint32_t a, uint32_t b) { return a < b ? a : b; }

static void registry_global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    rp_wl_window *window = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0 && !window->compositor) {
        window->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, lower(version, 4));
    } else if (strcmp(interface, wl_subcompositor_interface.name) == 0 && !window->subcompositor) {
        window->subcompositor = wl_registry_bind(registry, name, &wl_subcompositor_interface, 1);
    } else if (strcmp(interface, wl_shm_interface.name) == 0 && !window->shm) {
        window->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && !window->seat) {
        window->seat = wl_registry_bind(registry, name, &wl_seat_interface, lower(version, 5));
        rp_wl_listen_to_seat(window);
    } else if (strcmp(interface, wl_output_interface.name) == 0 && window->output_count < MAX_OUTPUTS && version >= 2) {
        rp_output *entry = &window->outputs[window->output_count++];
        *entry = (rp_output){.name = name, .scale = 1};
        entry->output = wl_registry_bind(registry, name, &wl_output_interface, 2);
        wl_output_add_listener(entry->output, &output_listener, entry);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name) {
    (void)registry;
    rp_wl_window *window = data;
    for (int i = 0; i < window->output_count; i++) {
        if (window->outputs[i].name != name) continue;
        if (window->current_output == &window->outputs[i]) window->current_output = NULL;
        wl_output_destroy(window->outputs[i].output);
        window->outputs[i].output = NULL;
        window->outputs[i].width = window->outputs[i].height = 0;
    }
}

static const struct wl_registry_listener registry_listener = {.global = registry_global, .global_remove = registry_global_remove};

/* ---- the interface ---------------------------------------------------------------------------------------------- */

rp_wl_window *rp_wl_window_open(int width, int height, const char *app_id) {
    if (the_window) return NULL;
    const char *name = getenv("WAYLAND_DISPLAY");
    if (!name || !*name) return NULL; /* no compositor named: the libraries are not even loaded */
    const char *why = NULL;
    if (!rp_wayland_load(&why)) {
        fprintf(stderr, "reprise: video: no Wayland window: %s\n", why);
        return NULL;
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) return NULL;
    rp_wl_window *window = calloc(1, sizeof *window);
    if (!window) {
        wl_display_disconnect(display);
        return NULL;
    }
    window->display = display;
    window->floating_width = window->saved_width = width > 0 ? width : 854;
    window->floating_height = window->saved_height = height > 0 ? height : 480;
    window->app_id = strdup(app_id ? app_id : "reprise");
    window->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
    window->registry = wl_display_get_registry(display);
    wl_registry_add_listener(window->registry, &registry_listener, window);
    /* Two round trips: the globals, then what binding them sent (seat capabilities, output modes and scales). */
    if (wl_display_roundtrip(display) < 0 || wl_display_roundtrip(display) < 0 || !window->compositor || !window->shm
        || !window->xkb || !window->app_id) {
        the_window = window;
        rp_wl_window_close(window);
        return NULL;
    }
    the_window = window;
    window->surface = wl_compositor_create_surface(window->compositor);
    wl_surface_add_listener(window->surface, &surface_listener, window);
    window->decor = libdecor_new(display, &decor_interface);
    if (!window->decor || window->lost) {
        wl_surface_destroy(window->surface);
        window->surface = NULL;
        rp_wl_window_close(window);
        return NULL;
    }
    if (window->output_count > 0) window->current_output = &window->outputs[0];
    wl_display_flush(display);
    return window;
}

void rp_wl_window_close(rp_wl_window *window) {
    if (!window) return;
    if (window->surface) {
        /* The surface was given to waylandsink, which keeps using the connection, the surface's subsurfaces and
         * its own objects for as long as it exists (the process's life): the connection and the surface stay. */
        the_window = NULL;
        return;
    }
    if (window->frame) libdecor_frame_unref(window->frame);
    if (window->decor) libdecor_unref(window->decor);
    rp_wl_release_input(window);
    if (window->seat) wl_seat_destroy(window->seat);
    for (int i = 0; i < window->output_count; i++)
        if (window->outputs[i].output) wl_output_destroy(window->outputs[i].output);
    if (window->shm) wl_shm_destroy(window->shm);
    if (window->subcompositor) wl_subcompositor_destroy(window->subcompositor);
    if (window->compositor) wl_compositor_destroy(window->compositor);
    if (window->registry) wl_registry_destroy(window->registry);
    wl_display_disconnect(window->display);
    free(window->title);
    free(window->app_id);
    if (the_window == window) the_window = NULL;
    free(window);
}

int rp_wl_window_fd(const rp_wl_window *window) { return wl_display_get_fd(window->display); }
void *rp_wl_window_display(const rp_wl_window *window) { return window->display; }
void *rp_wl_window_surface(const rp_wl_window *window) { return window->surface; }

static void flush(rp_wl_window *window) {
    if (window->lost) return;
    if (wl_display_flush(window->display) < 0 && errno != EAGAIN) window->lost = true;
}

void rp_wl_window_set_title(rp_wl_window *window, const char *utf8_title) {
    free(window->title);
    window->title = strdup(utf8_title ? utf8_title : "");
    if (window->frame && window->title) libdecor_frame_set_title(window->frame, window->title);
    flush(window);
}

void rp_wl_window_set_visible(rp_wl_window *window, bool visible) {
    if (window->lost || visible == window->visible) return;
    window->visible = visible;
    if (visible) map_frame(window);
    else unmap_frame(window);
    flush(window);
}

void rp_wl_window_set_fullscreen(rp_wl_window *window, bool fullscreen) {
    if (window->lost || fullscreen == window->fullscreen) return;
    window->fullscreen = fullscreen;
    /* A Picture in Picture frame (or one about to become one) keeps its size: fullscreen comes with the next frame. */
    if (window->frame && !window->picture_in_picture && !window->frame_picture_in_picture) {
        if (fullscreen) libdecor_frame_set_fullscreen(window->frame, NULL);
        else libdecor_frame_unset_fullscreen(window->frame);
    }
    flush(window);
}

/* The frame made again for the Picture in Picture state asked, once the one mapped has had its first configure:
 * toggles asked before that are folded into one. */
static void remap_if_due(rp_wl_window *window) {
    if (window->lost || !window->frame || !window->frame_configured) return;
    if (window->frame_picture_in_picture == window->picture_in_picture) {
        window->remap_due = false;
        return;
    }
    unmap_frame(window);
    map_frame(window);
    flush(window);
}

void rp_wl_window_set_picture_in_picture(rp_wl_window *window, bool on, int width, int height) {
    if (window->lost || on == window->picture_in_picture) return;
    if (on) {
        window->saved_width = window->floating_width;
        window->saved_height = window->floating_height;
        window->floating_width = width > 0 ? width : window->floating_width;
        window->floating_height = height > 0 ? height : window->floating_height;
    } else {
        window->floating_width = window->saved_width;
        window->floating_height = window->saved_height;
    }
    window->picture_in_picture = on;
    remap_if_due(window); /* or at the mapped frame's first configure */
    flush(window);
}

void rp_wl_window_get_screen_size(const rp_wl_window *window, int *width, int *height) {
    const rp_output *output = window->current_output;
    int scale = rp_wl_scale_of(window);
    *width = output && output->width > 0 ? output->width / scale : 1920;
    *height = output && output->height > 0 ? output->height / scale : 1080;
}

void rp_wl_window_get_size(const rp_wl_window *window, int *width, int *height) {
    *width = window->width > 0 ? window->width : window->floating_width;
    *height = window->height > 0 ? window->height : window->floating_height;
}

int rp_wl_window_scale(const rp_wl_window *window) { return rp_wl_scale_of(window); }

void rp_wl_window_resize(rp_wl_window *window, int width, int height) {
    if (window->lost || width <= 0 || height <= 0) return;
    window->floating_width = width;
    window->floating_height = height;
    if (!window->frame || !window->frame_configured || window->fullscreen || window->picture_in_picture
        || window->frame_picture_in_picture)
        return;
    /* A floating window takes the size at once; a compositor that tiles it answers with its own. */
    struct libdecor_state *state = libdecor_state_new(width, height);
    libdecor_frame_commit(window->frame, state, NULL);
    libdecor_state_free(state);
    bool changed = width != window->width || height != window->height;
    window->width = width;
    window->height = height;
    paint(window);
    if (changed) rp_wl_push_event(window, (rp_wl_event){.kind = RP_WL_EVENT_RESIZED, .width = width, .height = height});
    flush(window);
}

bool rp_wl_window_is_lost(const rp_wl_window *window) { return window->lost; }

/* A surface of ours over the whole content, on top of what is there: made when first needed, after waylandsink made
 * its subsurfaces (a new subsurface goes above its siblings). It takes no input and commits on its own. */
static void add_layer(rp_wl_window *window, struct wl_surface **surface, struct wl_subsurface **subsurface) {
    *surface = wl_compositor_create_surface(window->compositor);
    *subsurface = wl_subcompositor_get_subsurface(window->subcompositor, *surface, window->surface);
    wl_subsurface_set_desync(*subsurface);
    wl_subsurface_set_position(*subsurface, 0, 0);
    take_no_input(window, *surface);
    wl_surface_commit(window->surface);
}

void rp_wl_window_draw_dots(rp_wl_window *window, const rp_wl_dot *dots, int count) {
    if (window->lost || !window->frame || !window->frame_configured || !window->subcompositor || window->width <= 0
        || window->height <= 0)
        return;
    if (!window->spinner) {
        add_layer(window, &window->spinner, &window->spinner_subsurface);
        /* The controls stay usable over the spinner. */
        for (int layer = 0; layer < RP_WL_CONTROLS_LAYERS; layer++) {
            if (!window->controls_subsurface[layer]) continue;
            wl_subsurface_place_above(window->controls_subsurface[layer], window->spinner);
            wl_surface_commit(window->surface);
        }
    }
    paint_with(window, window->spinner, dots, count);
    flush(window);
}

void rp_wl_window_clear_dots(rp_wl_window *window) {
    if (window->lost || !window->spinner) return;
    wl_surface_attach(window->spinner, NULL, 0, 0);
    wl_surface_commit(window->spinner);
    flush(window);
}

typedef struct {
    const uint32_t *pixels;
} copy_drawing;

static void copy_pixels(uint32_t *pixels, long width, long height, const void *context) {
    memcpy(pixels, ((const copy_drawing *)context)->pixels, (size_t)(width * height * 4));
}

void rp_wl_window_set_overlay(rp_wl_window *window, int layer, const uint32_t *pixels, int width, int height, int y, int scale) {
    if (window->lost || !window->frame || !window->frame_configured || !window->subcompositor || layer < 0
        || layer >= RP_WL_CONTROLS_LAYERS)
        return;
    struct wl_surface **surface = &window->controls[layer];
    if (!pixels) {
        if (*surface && window->controls_attached[layer]) {
            wl_surface_attach(*surface, NULL, 0, 0);
            wl_surface_commit(*surface);
            window->controls_attached[layer] = false;
            flush(window);
        }
        return;
    }
    /* A buffer's size is a whole number of logical pixels at its scale. */
    if (scale < 1 || scale > 8 || width % scale != 0 || height % scale != 0 || y < 0 || y > 16384) return;
    if (!*surface) add_layer(window, surface, &window->controls_subsurface[layer]);
    copy_drawing drawing = {.pixels = pixels};
    struct wl_buffer *buffer = shm_buffer(window, width, height, WL_SHM_FORMAT_ARGB8888, copy_pixels, &drawing);
    if (!buffer) return;
    if (window->controls_y[layer] != y) {
        /* A desynchronised subsurface's position applies with its parent's next commit. */
        window->controls_y[layer] = y;
        wl_subsurface_set_position(window->controls_subsurface[layer], 0, y);
        wl_surface_commit(window->surface);
    }
    show_buffer(*surface, buffer, scale);
    window->controls_attached[layer] = true;
    flush(window);
}

void rp_wl_window_begin_move(rp_wl_window *window) {
    if (window->lost || !window->frame || !window->seat || window->press_serial == 0) return;
    libdecor_frame_move(window->frame, window->seat, window->press_serial);
    flush(window);
}

/* ---- the event source on the loop ------------------------------------------------------------------------------
 * waylandsink's thread reads the same connection, and a thread that reads queues every queue's events without waking
 * the others: a descriptor watch alone would leave the window's events (a configure, a key) queued until something
 * else woke the loop. So, as GTK does, the loop holds a prepared read while it polls (wl_display_prepare_read in
 * prepare, read or cancel in check): whichever thread reads, the other waits for it, and events already queued for
 * the window make prepare return at once. */

typedef struct {
    GSource source;
    rp_wl_window *window;
    gpointer tag;
    bool reading;
    bool (*ready)(void *);
    void *data;
} rp_wl_source;

static gboolean source_prepare(GSource *base, gint *timeout) {
    rp_wl_source *source = (rp_wl_source *)base;
    rp_wl_window *window = source->window;
    *timeout = -1;
    if (window->lost) return TRUE;
    if (window->event_count > 0) return TRUE;
    if (source->reading) return FALSE;
    if (wl_display_prepare_read(window->display) != 0) return TRUE; /* events queued for us: dispatch them */
    source->reading = true;
    if (wl_display_flush(window->display) < 0 && errno != EAGAIN) window->lost = true;
    return FALSE;
}

static gboolean source_check(GSource *base) {
    rp_wl_source *source = (rp_wl_source *)base;
    rp_wl_window *window = source->window;
    GIOCondition revents = g_source_query_unix_fd(base, source->tag);
    if (source->reading) {
        source->reading = false;
        if (revents & G_IO_IN) {
            if (wl_display_read_events(window->display) < 0) window->lost = true;
        } else {
            wl_display_cancel_read(window->display);
        }
    }
    if (revents & (G_IO_HUP | G_IO_ERR)) window->lost = true;
    return window->lost || window->event_count > 0 || (revents & G_IO_IN);
}

static gboolean source_dispatch(GSource *base, GSourceFunc callback, gpointer data) {
    (void)callback, (void)data;
    rp_wl_source *source = (rp_wl_source *)base;
    rp_wl_window *window = source->window;
    if (!window->lost && (wl_display_dispatch_pending(window->display) < 0 || wl_display_get_error(window->display) != 0))
        window->lost = true;
    finish_retiring(window);
    if (window->remap_due) remap_if_due(window);
    flush(window);
    return source->ready(source->data) ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void source_finalize(GSource *base) {
    rp_wl_source *source = (rp_wl_source *)base;
    if (source->reading) wl_display_cancel_read(source->window->display);
    source->reading = false;
}

static GSourceFuncs source_funcs = {
    .prepare = source_prepare, .check = source_check, .dispatch = source_dispatch, .finalize = source_finalize,
};

void rp_wl_window_watch(rp_wl_window *window, bool (*ready)(void *), void *data) {
    rp_wl_source *source = (rp_wl_source *)g_source_new(&source_funcs, sizeof(rp_wl_source));
    source->window = window;
    source->ready = ready;
    source->data = data;
    source->tag = g_source_add_unix_fd(&source->source, wl_display_get_fd(window->display), G_IO_IN | G_IO_ERR | G_IO_HUP);
    g_source_set_priority(&source->source, G_PRIORITY_DEFAULT);
    g_source_attach(&source->source, NULL);
    g_source_unref(&source->source);
}

bool rp_wl_window_next_event(rp_wl_window *window, rp_wl_event *event) {
    if (!window->lost && window->event_count == 0) {
        /* Only what is queued already: the event source reads the connection. */
        if (wl_display_dispatch_pending(window->display) < 0 || wl_display_get_error(window->display) != 0) window->lost = true;
        finish_retiring(window);
        if (window->remap_due) remap_if_due(window);
        flush(window);
    }
    if (window->event_count == 0) return false;
    *event = window->events[window->event_head];
    window->event_head = (window->event_head + 1) % MAX_EVENTS;
    window->event_count -= 1;
    return true;
}
