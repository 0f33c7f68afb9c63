#define RP_X11_TABLE_ONLY
#include "x11_functions.h"

#include <CLazyLibrary.h>
#include <pthread.h>
#include <stddef.h>

struct rp_x11_functions rp_x11;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char failure[256];

#define ENTRY(name) { offsetof(struct rp_x11_functions, name), #name },
static const struct rp_lazy_symbol entries[] = { RP_X11_FUNCTIONS(ENTRY) };

static void load(void) {
    loaded = rp_lazy_library_load("libXi.so.6", entries, sizeof entries / sizeof entries[0], &rp_x11, sizeof rp_x11,
                                  failure, sizeof failure);
}

bool rp_x11_load(const char **why) {
    pthread_once(&once, load);
    if (!loaded && why) *why = failure;
    return loaded;
}
