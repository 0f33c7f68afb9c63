#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro over a cast Swift cannot import: SQLite copies the bound text. */
static inline int rp_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
