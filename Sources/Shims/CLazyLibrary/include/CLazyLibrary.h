/* A library opened when first needed, its functions resolved into a table of pointers: what CSQLite and CPangoCairo
   share. Each keeps its own table and calls rp_lazy_library_load once (under pthread_once). */
#ifndef RP_LAZY_LIBRARY_H
#define RP_LAZY_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>

/* One function: where its pointer goes in the table, and the library's name for it. */
struct rp_lazy_symbol {
    size_t offset;
    const char *name;
};

/* Opens `library` (dlopen, local) and fills `table` (`table_size` bytes) with each symbol's address. All or nothing:
   on failure the table is left as it was, `failure` says why (dlopen's message, or the function missing) and false
   is returned. The library stays open either way (another thread may be using it; nothing is gained closing it). */
bool rp_lazy_library_load(const char *library, const struct rp_lazy_symbol *symbols, size_t count, void *table,
                          size_t table_size, char *failure, size_t failure_size);

#endif
