/* A test tool: a virtual pointer on a wlroots compositor (zwlr_virtual_pointer_v1), so that a compositor without
 * input devices (headless sway) has a pointer whose motion, buttons and wheel reach its clients.
 *
 *   WAYLAND_DISPLAY=… wl-virtual-pointer WIDTH HEIGHT
 *
 * WIDTH×HEIGHT is the output layout's logical size. It prints "ready" once the pointer exists, then reads one
 * command a line from stdin and answers "ok" once the compositor has handled it:
 *   move X Y        the pointer to (X, Y), logical pixels of the layout
 *   press B         button B down (1 left, 2 middle, 3 right)
 *   release B       button B up
 *   wheel N         N wheel steps (negative: up)
 * The pointer goes when stdin closes. The protocol's interfaces are declared here from its specification (the
 * requests' opcodes and signatures) rather than generated, so the tool needs no protocol files at build time. */
#include <linux/input-event-codes.h>
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

static struct wl_seat *seat;
static struct wl_proxy *manager;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)data, (void)version;
    if (strcmp(interface, wl_seat_interface.name) == 0 && !seat)
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    else if (strcmp(interface, manager_interface.name) == 0 && !manager)
        manager = wl_registry_bind(registry, name, &manager_interface, 1);
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) { (void)data, (void)registry, (void)name; }

static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

static uint32_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

static uint32_t button_code(long number) { return number == 3 ? BTN_RIGHT : number == 2 ? BTN_MIDDLE : BTN_LEFT; }

int main(int argc, char **argv) {
    long width = argc > 2 ? strtol(argv[1], NULL, 10) : 0, height = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
    if (width <= 0 || height <= 0) {
        fprintf(stderr, "usage: wl-virtual-pointer WIDTH HEIGHT\n");
        return 2;
    }
    struct wl_display *display = wl_display_connect(NULL);
    if (!display) {
        fprintf(stderr, "wl-virtual-pointer: no Wayland compositor\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (!manager) {
        fprintf(stderr, "wl-virtual-pointer: the compositor offers no zwlr_virtual_pointer_manager_v1\n");
        return 1;
    }
    struct wl_proxy *pointer = wl_proxy_marshal_flags(manager, 0, &virtual_pointer_interface, 1, 0, seat, NULL);
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        char verb[16] = "";
        long a = 0, b = 0;
        int fields = sscanf(line, "%15s %ld %ld", verb, &a, &b);
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
            printf("error: %s", line);
            fflush(stdout);
            continue;
        }
        wl_proxy_marshal_flags(pointer, FRAME, NULL, 1, 0);
        if (wl_display_roundtrip(display) < 0) return 1;
        printf("ok\n");
        fflush(stdout);
    }
    wl_proxy_marshal_flags(pointer, DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
