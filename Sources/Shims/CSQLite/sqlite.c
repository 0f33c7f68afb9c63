#include "CSQLite.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

struct rp_sqlite_functions rp_sqlite;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char failure[256];

/* Each entry: where its pointer goes in the table, and the library's name for it. */
#define ENTRY(field) { offsetof(struct rp_sqlite_functions, field), "sqlite3_" #field }
static const struct { size_t offset; const char *symbol; } entries[] = {
    ENTRY(open_v2), ENTRY(close_v2), ENTRY(errmsg), ENTRY(busy_timeout), ENTRY(extended_result_codes), ENTRY(exec),
    ENTRY(free), ENTRY(changes), ENTRY(last_insert_rowid), ENTRY(prepare_v2), ENTRY(finalize), ENTRY(reset),
    ENTRY(clear_bindings), ENTRY(bind_int64), ENTRY(bind_double), ENTRY(bind_text), ENTRY(bind_null), ENTRY(step),
    ENTRY(column_type), ENTRY(column_int64), ENTRY(column_double), ENTRY(column_text),
};

static void load(void) {
    void *library = dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *error = dlerror();
        snprintf(failure, sizeof failure, "%s", error ? error : "libsqlite3.so.0 could not be opened");
        return;
    }
    struct rp_sqlite_functions table;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        void *function = dlsym(library, entries[i].symbol);
        if (!function) { /* kept open: nothing is gained closing it */
            snprintf(failure, sizeof failure, "%s is missing from libsqlite3", entries[i].symbol);
            return;
        }
        *(void **)((char *)&table + entries[i].offset) = function;
    }
    rp_sqlite = table;
    loaded = true;
}

bool rp_sqlite_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *rp_sqlite_failure(void) {
    pthread_once(&once, load);
    return loaded ? NULL : failure;
}
