#include "CSQLite.h"

#include <CLazyLibrary.h>
#include <stddef.h>

struct rp_sqlite_functions rp_sqlite;

#define ENTRY(field) { offsetof(struct rp_sqlite_functions, field), "sqlite3_" #field }
static const struct rp_lazy_symbol entries[] = {
    ENTRY(open_v2), ENTRY(close_v2), ENTRY(errmsg), ENTRY(busy_timeout), ENTRY(extended_result_codes), ENTRY(exec),
    ENTRY(free), ENTRY(changes), ENTRY(last_insert_rowid), ENTRY(prepare_v2), ENTRY(finalize), ENTRY(reset),
    ENTRY(clear_bindings), ENTRY(bind_int64), ENTRY(bind_double), ENTRY(bind_text), ENTRY(bind_null), ENTRY(step),
    ENTRY(column_type), ENTRY(column_int64), ENTRY(column_double), ENTRY(column_text),
};

static struct rp_lazy_library library = RP_LAZY_LIBRARY("libsqlite3.so.0", entries, rp_sqlite);

bool rp_sqlite_load(void) { return rp_lazy_library_open(&library); }

const char *rp_sqlite_failure(void) { return rp_lazy_library_failure(&library); }
