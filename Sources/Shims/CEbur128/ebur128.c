#include "CEbur128.h"

#include <CLazyLibrary.h>
#include <pthread.h>
#include <stddef.h>

struct rp_ebur128_functions rp_ebur128;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char failure[256];

#define ENTRY(field) { offsetof(struct rp_ebur128_functions, field), "ebur128_" #field }
static const struct rp_lazy_symbol entries[] = {
    ENTRY(init), ENTRY(destroy), ENTRY(add_frames_float), ENTRY(loudness_global), ENTRY(true_peak),
};

static void load(void) {
    loaded = rp_lazy_library_load("libebur128.so.1", entries, sizeof entries / sizeof entries[0], &rp_ebur128,
                                  sizeof rp_ebur128, failure, sizeof failure);
}

bool rp_ebur128_load(void) {
    pthread_once(&once, load);
    return loaded;
}
