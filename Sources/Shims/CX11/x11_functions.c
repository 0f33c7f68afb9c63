#define RP_X11_TABLE_ONLY
#include "x11_functions.h"

#include <CLazyLibrary.h>
#include <stddef.h>

struct rp_x11_functions rp_x11;

#define ENTRY(name) { offsetof(struct rp_x11_functions, name), #name },
static const struct rp_lazy_symbol entries[] = { RP_X11_FUNCTIONS(ENTRY) };

static struct rp_lazy_library library = RP_LAZY_LIBRARY("libXi.so.6", entries, rp_x11);

bool rp_x11_load(const char **why) {
    const bool opened = rp_lazy_library_open(&library);
    if (!opened && why) *why = rp_lazy_library_failure(&library);
    return opened;
}
