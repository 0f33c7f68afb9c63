#include "CEbur128.h"

#include <CLazyLibrary.h>
#include <stddef.h>

struct rp_ebur128_functions rp_ebur128;

#define ENTRY(field) { offsetof(struct rp_ebur128_functions, field), "ebur128_" #field }
static const struct rp_lazy_symbol entries[] = {
    ENTRY(init), ENTRY(destroy), ENTRY(add_frames_float), ENTRY(loudness_global), ENTRY(true_peak),
};

static struct rp_lazy_library library = RP_LAZY_LIBRARY("libebur128.so.1", entries, rp_ebur128);

bool rp_ebur128_load(void) { return rp_lazy_library_open(&library); }
