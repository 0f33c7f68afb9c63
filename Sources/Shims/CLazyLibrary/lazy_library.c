#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first try: -1 with `failure` set, or 1 with the table filled. */
static int open_library(struct rp_lazy_library *library) {
    void *handle = dlopen(library->path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *error = dlerror();
        snprintf(library->failure, sizeof library->failure, "%s", error ? error : "the library could not be opened");
        return -1;
    }
    char *filled = calloc(1, library->table_size);
    if (!filled) {
        snprintf(library->failure, sizeof library->failure, "no memory for %s's functions", library->path);
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        void *function = dlsym(handle, library->symbols[i].name);
        if (!function || library->symbols[i].offset + sizeof function > library->table_size) {
            snprintf(library->failure, sizeof library->failure, "%s is missing from %s or the libraries it needs",
                     library->symbols[i].name, library->path);
            free(filled);
            return -1;
        }
        memcpy(filled + library->symbols[i].offset, &function, sizeof function);
    }
    memcpy(library->table, filled, library->table_size);
    free(filled);
    return 1;
}

bool rp_lazy_library_open(struct rp_lazy_library *library) {
    pthread_mutex_lock(&library->lock);
    if (library->state == 0) library->state = open_library(library);
    const bool opened = library->state == 1;
    pthread_mutex_unlock(&library->lock);
    return opened;
}

const char *rp_lazy_library_failure(struct rp_lazy_library *library) {
    return rp_lazy_library_open(library) ? NULL : library->failure;
}
