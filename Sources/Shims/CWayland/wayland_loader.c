/* The pointers wayland_functions.h renames the libraries' names to, and what fills them. Part of wayland.c. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The interfaces' pointers (the functions' are defined by the renamed declarations themselves). */
#define RP_DEFINE_INTERFACE(name) const struct wl_interface *rp_##name;
RP_WAYLAND_INTERFACES(RP_DEFINE_INTERFACE)

static const struct { void *pointer; const char *name; } rp_wayland_names[] = {
#define RP_FUNCTION_ENTRY(name) { (void *)&rp_##name, #name },
    RP_WAYLAND_FUNCTIONS(RP_FUNCTION_ENTRY)
    RP_WAYLAND_INTERFACES(RP_FUNCTION_ENTRY)
};

static pthread_once_t rp_wayland_once = PTHREAD_ONCE_INIT;
static bool rp_wayland_loaded;
static char rp_wayland_failure[256];

static void rp_wayland_open(void) {
    static const char *const libraries[] = {"libwayland-client.so.0", "libwayland-cursor.so.0", "libdecor-0.so.0",
                                            "libxkbcommon.so.0"};
    void *handles[sizeof libraries / sizeof libraries[0]];
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        handles[i] = dlopen(libraries[i], RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            const char *error = dlerror();
            snprintf(rp_wayland_failure, sizeof rp_wayland_failure, "%s", error ? error : libraries[i]);
            return;
        }
    }
    /* All or nothing: the addresses are found first, then set. */
    void *found[sizeof rp_wayland_names / sizeof rp_wayland_names[0]];
    for (size_t n = 0; n < sizeof rp_wayland_names / sizeof rp_wayland_names[0]; n++) {
        found[n] = NULL;
        for (size_t i = 0; i < sizeof handles / sizeof handles[0] && !found[n]; i++)
            found[n] = dlsym(handles[i], rp_wayland_names[n].name);
        if (!found[n]) {
            snprintf(rp_wayland_failure, sizeof rp_wayland_failure, "%s is missing from the Wayland libraries",
                     rp_wayland_names[n].name);
            return;
        }
    }
    for (size_t n = 0; n < sizeof rp_wayland_names / sizeof rp_wayland_names[0]; n++)
        memcpy(rp_wayland_names[n].pointer, &found[n], sizeof found[n]);
    rp_wayland_loaded = true;
}

bool rp_wayland_load(const char **failure) {
    pthread_once(&rp_wayland_once, rp_wayland_open);
    if (!rp_wayland_loaded && failure) *failure = rp_wayland_failure;
    return rp_wayland_loaded;
}
