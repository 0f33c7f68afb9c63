#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool rp_lazy_library_load(const char *library, const struct rp_lazy_symbol *symbols, size_t count, void *table,
                          size_t table_size, char *failure, size_t failure_size) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(failure, failure_size, "%s", error ? error : "the library could not be opened");
        return false;
    }
    char *filled = calloc(1, table_size);
    if (!filled) {
        snprintf(failure, failure_size, "no memory for %s's functions", library);
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        void *function = dlsym(handle, symbols[i].name);
        if (!function || symbols[i].offset + sizeof function > table_size) {
            snprintf(failure, failure_size, "%s is missing from %s or the libraries it needs", symbols[i].name, library);
            free(filled);
            return false;
        }
        memcpy(filled + symbols[i].offset, &function, sizeof function);
    }
    memcpy(table, filled, table_size);
    free(filled);
    return true;
}
