/* A test tool: virtual input on a compositor without input devices, so that motion, buttons, the wheel and touch
 * reach its clients. It uses what the compositor offers:
 *   - wlroots (headless sway): a virtual pointer, zwlr_virtual_pointer_v1;
 *   - KWin (`kwin_wayland --virtual`, with KWIN_WAYLAND_NO_PERMISSION_CHECKS=1): org_kde_kwin_fake_input, which also
 *     has touch.
 *
 *   WAYLAND_DISPLAY=… wl-virtual-input WIDTH HEIGHT
 *
 * WIDTH×HEIGHT is the output layout's logical size. It prints "ready" once the device exists, then reads one
 * command a line from stdin and answers "ok" once the compositor has handled it ("error: …" when it cannot):
 *   move X Y        the pointer to (X, Y), logical pixels of the layout
 *   press B         button B down (1 left, 2 middle, 3 right)
 *   release B       button B up
 *   wheel N         N wheel steps (negative: up)
 *   down ID X Y     finger ID touches (X, Y) (KWin only)
 *   motion ID X Y   finger ID moves to (X, Y) (KWin only)
 *   up ID           finger ID lifts (KWin only)
 * The device goes when stdin closes. The protocols' interfaces are declared here from their specifications (the
 * requests' opcodes and signatures) rather than generated, so the tool needs no protocol files at build time. */
#include <linux/input-event-codes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

static const struct wl_interface virtual_pointer_interface;

static const struct wl_interface *create_types[] = {&wl_seat_interface, &virtual_pointer_interface};
static const struct wl_interface *plain_types[] = {NULL, NULL, NULL, NULL, NULL};

static const struct wl_message manager_requests[] = {
    {"create_virtual_pointer", "?on", create_types},
    {"destroy", "", plain_types},
};

static const struct wl_interface manager_interface = {"zwlr_virtual_pointer_manager_v1", 1, 2, manager_requests, 0, NULL};

enum { MOTION, MOTION_ABSOLUTE, BUTTON, AXIS, FRAME, AXIS_SOURCE, AXIS_STOP, AXIS_DISCRETE, DESTROY };

static const struct wl_message pointer_requests[] = {
    {"motion", "uff", plain_types},       {"motion_absolute", "uuuuu", plain_types}, {"button", "uuu", plain_types},
    {"axis", "uuf", plain_types},         {"frame", "", plain_types},                {"axis_source", "u", plain_types},
    {"axis_stop", "uu", plain_types},     {"axis_discrete", "uufi", plain_types},    {"destroy", "", plain_types},
};

static const struct wl_interface virtual_pointer_interface = {"zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL};

enum { FAKE_AUTHENTICATE, FAKE_MOTION, FAKE_BUTTON, FAKE_AXIS, FAKE_TOUCH_DOWN, FAKE_TOUCH_MOTION, FAKE_TOUCH_UP,
       FAKE_TOUCH_CANCEL, FAKE_TOUCH_FRAME, FAKE_MOTION_ABSOLUTE };

static const struct wl_message fake_input_requests[] = {
    {"authenticate", "ss", plain_types},      {"pointer_motion", "ff", plain_types},   {"button", "uu", plain_types},
    {"axis", "uf", plain_types},              {"touch_down", "2uff", plain_types},     {"touch_motion", "2uff", plain_types},
    {"touch_up", "2u", plain_types},          {"touch_cancel", "2", plain_types},      {"touch_frame", "2", plain_types},
    {"pointer_motion_absolute", "3ff", plain_types},
};

static const struct wl_interface fake_input_interface = {"org_kde_kwin_fake_input", 3, 10, fake_input_requests, 0, NULL};

static struct wl_seat *seat;
static struct wl_proxy *manager;
static struct wl_proxy *fake_input;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    else if (strcmp(interface, manager_interface.name) == 0 && !manager)
        manager = wl_registry_bind(registry, name, &manager_interface, 1);
    else if (strcmp(interface, fake_input_interface.name) == 0 && !fake_input && version >= 3)
        fake_input = wl_registry_bind(registry, name, &fake_input_interface, 3);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data, (void)registry, (void)name; }

static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

static uint32_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

static uint32_t button_code(long number) { return number == 3 ? BTN_RIGHT : number == 2 ? BTN_MIDDLE : BTN_LEFT; }

/* One command on the wlroots virtual pointer; false when it is not one. */
static bool wlroots_command(struct wl_proxy *pointer, const char *verb, int fields, long a, long b, long width, long height) {
    uint32_t time = now_ms();
    if (fields == 3 && strcmp(verb, "move") == 0 && a >= 0 && b >= 0 && a <= width && b <= height) {
        wl_proxy_marshal_flags(pointer, MOTION_ABSOLUTE, NULL, 1, 0, time, (uint32_t)a, (uint32_t)b, (uint32_t)width,
                               (uint32_t)height);
    } else if (fields == 2 && (strcmp(verb, "press") == 0 || strcmp(verb, "release") == 0)) {
        wl_proxy_marshal_flags(pointer, BUTTON, NULL, 1, 0, time, button_code(a),
                               (uint32_t)(strcmp(verb, "press") == 0 ? WL_POINTER_BUTTON_STATE_PRESSED
                                                                     : WL_POINTER_BUTTON_STATE_RELEASED));
    } else if (fields == 2 && strcmp(verb, "wheel") == 0 && a > -100 && a < 100) {
        wl_proxy_marshal_flags(pointer, AXIS_SOURCE, NULL, 1, 0, (uint32_t)WL_POINTER_AXIS_SOURCE_WHEEL);
        wl_proxy_marshal_flags(pointer, AXIS_DISCRETE, NULL, 1, 0, time, (uint32_t)WL_POINTER_AXIS_VERTICAL_SCROLL,
                               wl_fixed_from_int((int)a * 15), (int32_t)a);
    } else {
        return false;
    }
    wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
    return true;
}

/* One command on KWin's fake input; false when it is not one. */
static bool kwin_command(const char *verb, int fields, long a, long b, long c, long width, long height) {
    bool inside = b >= 0 && c >= 0 && b <= width && c <= height;
    if (fields == 3 && strcmp(verb, "move") == 0 && a >= 0 && b >= 0 && a <= width && b <= height) {
        wl_proxy_marshal_flags(fake_input, FAKE_MOTION_ABSOLUTE, NULL, 3, 0, wl_fixed_from_int((int)a), wl_fixed_from_int((int)b));
    } else if (fields == 2 && (strcmp(verb, "press") == 0 || strcmp(verb, "release") == 0)) {
        wl_proxy_marshal_flags(fake_input, FAKE_BUTTON, NULL, 3, 0, button_code(a),
                               (uint32_t)(strcmp(verb, "press") == 0 ? WL_POINTER_BUTTON_STATE_PRESSED
                                                                     : WL_POINTER_BUTTON_STATE_RELEASED));
    } else if (fields == 2 && strcmp(verb, "wheel") == 0 && a > -100 && a < 100) {
        wl_proxy_marshal_flags(fake_input, FAKE_AXIS, NULL, 3, 0, (uint32_t)WL_POINTER_AXIS_VERTICAL_SCROLL,
                               wl_fixed_from_int((int)a * 15));
    } else if (fields == 4 && (strcmp(verb, "down") == 0 || strcmp(verb, "motion") == 0) && a >= 0 && inside) {
        wl_proxy_marshal_flags(fake_input, strcmp(verb, "down") == 0 ? FAKE_TOUCH_DOWN : FAKE_TOUCH_MOTION, NULL, 3, 0,
                               (uint32_t)a, wl_fixed_from_int((int)b), wl_fixed_from_int((int)c));
        wl_proxy_marshal_flags(fake_input, FAKE_TOUCH_FRAME, NULL, 3, 0);
    } else if (fields == 2 && strcmp(verb, "up") == 0 && a >= 0) {
        wl_proxy_marshal_flags(fake_input, FAKE_TOUCH_UP, NULL, 3, 0, (uint32_t)a);
        wl_proxy_marshal_flags(fake_input, FAKE_TOUCH_FRAME, NULL, 3, 0);
    } else {
        return false;
    }
    return true;
}

int main(int argc, char **argv) {
    long width = argc > 2 ? strtol(argv[1], NULL, 10) : 0, height = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
    if (width <= 0 || height <= 0) {
        fprintf(stderr, "usage: wl-virtual-input WIDTH HEIGHT\n");
        return 2;
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "wl-virtual-input: no Wayland compositor\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    struct wl_proxy *pointer = NULL;
    if (manager) {
        pointer = wl_proxy_marshal_flags(manager, 0, &virtual_pointer_interface, 1, 0, seat, NULL);
    } else if (fake_input) {
        wl_proxy_marshal_flags(fake_input, FAKE_AUTHENTICATE, NULL, 3, 0, "reprise tests", "drive the video window");
    } else {
        fprintf(stderr, "wl-virtual-input: the compositor offers neither zwlr_virtual_pointer_manager_v1 nor "
                        "org_kde_kwin_fake_input\n");
        return 1;
    }
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        char verb[16] = "";
        long a = 0, b = 0, c = 0;
        int fields = sscanf(line, "%15s %ld %ld %ld", verb, &a, &b, &c);
        bool done = pointer ? wlroots_command(pointer, verb, fields, a, b, width, height)
                            : kwin_command(verb, fields, a, b, c, width, height);
        if (!done) {
            printf("error: %s", line);
            fflush(stdout);
            continue;
        }
        if (wl_display_roundtrip(display) < 0) return 1;
        printf("ok\n");
        fflush(stdout);
    }
    if (pointer) wl_proxy_marshal_flags(pointer, DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
