/* A library opened when first needed, its functions resolved into a table of pointers: what CSQLite, CEbur128,
   CPangoCairo and CX11 share. Each keeps its table and one rp_lazy_library describing it. */
#ifndef RP_LAZY_LIBRARY_H
#define RP_LAZY_LIBRARY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

/* One function: where its pointer goes in the table, and the library's name for it. */
struct rp_lazy_symbol {
    size_t offset;
    const char *name;
};

/* A library, its functions and their table, and how opening it went. Made with RP_LAZY_LIBRARY. */
struct rp_lazy_library {
    const char *path;
    const struct rp_lazy_symbol *symbols;
    size_t count;
    void *table;
    size_t table_size;
    pthread_mutex_t lock;
    int state; /* 0: not tried yet; 1: opened; -1: failed, `failure` says why */
    char failure[256];
};

/* `symbols` an array of rp_lazy_symbol, `table` the struct of pointers they fill. */
#define RP_LAZY_LIBRARY(path, symbols, table) \
    { (path), (symbols), sizeof(symbols) / sizeof((symbols)[0]), &(table), sizeof(table), PTHREAD_MUTEX_INITIALIZER, 0, "" }

/* Opens the library (dlopen, local) and fills the table with each symbol's address, the first time (thread-safe);
   whether that succeeded. All or nothing: on failure the table stays empty. The library stays open either way. */
bool rp_lazy_library_open(struct rp_lazy_library *library);

/* Opens as rp_lazy_library_open does; why that failed (dlopen's message, or the function missing), NULL when it did not. */
const char *rp_lazy_library_failure(struct rp_lazy_library *library);

#endif
