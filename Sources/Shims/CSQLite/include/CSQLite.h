/* SQLite for the library's index, loaded when a database is first opened: the calls Reprise makes, under their own
   names, forwarded to libsqlite3 (Debian libsqlite3-0) once rp_sqlite_load() has opened it. A service with no
   library configured maps none of it. The types are opaque; the values are those of SQLite 3's stable ABI. */
#ifndef RP_SQLITE_H
#define RP_SQLITE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef int64_t sqlite3_int64;

#define SQLITE_OK 0
#define SQLITE_CORRUPT 11
#define SQLITE_CANTOPEN 14
#define SQLITE_NOTADB 26
#define SQLITE_ROW 100
#define SQLITE_DONE 101
#define SQLITE_NULL 5
#define SQLITE_OPEN_READWRITE 0x00000002
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_NOMUTEX 0x00008000
#define SQLITE_OPEN_NOFOLLOW 0x01000000

/* The library's functions, resolved by rp_sqlite_load(). */
struct rp_sqlite_functions {
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close_v2)(sqlite3 *);
    const char *(*errmsg)(sqlite3 *);
    int (*busy_timeout)(sqlite3 *, int);
    int (*extended_result_codes)(sqlite3 *, int);
    int (*exec)(sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **);
    void (*free)(void *);
    int (*changes)(sqlite3 *);
    sqlite3_int64 (*last_insert_rowid)(sqlite3 *);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*finalize)(sqlite3_stmt *);
    int (*reset)(sqlite3_stmt *);
    int (*clear_bindings)(sqlite3_stmt *);
    int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
    int (*bind_double)(sqlite3_stmt *, int, double);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*bind_null)(sqlite3_stmt *, int);
    int (*step)(sqlite3_stmt *);
    int (*column_type)(sqlite3_stmt *, int);
    sqlite3_int64 (*column_int64)(sqlite3_stmt *, int);
    double (*column_double)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
};

extern struct rp_sqlite_functions rp_sqlite;

/* Opens the library and resolves every function, once (thread-safe); false when that failed: nothing below may
   then be called. */
bool rp_sqlite_load(void);

/* Loads as rp_sqlite_load() does, and says why that failed (dlopen's message, or the function missing); NULL when it did not. */
const char *rp_sqlite_failure(void);

static inline int sqlite3_open_v2(const char *f, sqlite3 **d, int flags, const char *vfs) { return rp_sqlite.open_v2(f, d, flags, vfs); }
static inline int sqlite3_close_v2(sqlite3 *d) { return rp_sqlite.close_v2(d); }
static inline const char *sqlite3_errmsg(sqlite3 *d) { return rp_sqlite.errmsg(d); }
static inline int sqlite3_busy_timeout(sqlite3 *d, int ms) { return rp_sqlite.busy_timeout(d, ms); }
static inline int sqlite3_extended_result_codes(sqlite3 *d, int on) { return rp_sqlite.extended_result_codes(d, on); }
static inline int sqlite3_exec(sqlite3 *d, const char *sql, int (*callback)(void *, int, char **, char **), void *context, char **error) {
    return rp_sqlite.exec(d, sql, callback, context, error);
}
static inline void sqlite3_free(void *p) { rp_sqlite.free(p); }
static inline int sqlite3_changes(sqlite3 *d) { return rp_sqlite.changes(d); }
static inline sqlite3_int64 sqlite3_last_insert_rowid(sqlite3 *d) { return rp_sqlite.last_insert_rowid(d); }
static inline int sqlite3_prepare_v2(sqlite3 *d, const char *sql, int n, sqlite3_stmt **s, const char **tail) {
    return rp_sqlite.prepare_v2(d, sql, n, s, tail);
}
static inline int sqlite3_finalize(sqlite3_stmt *s) { return rp_sqlite.finalize(s); }
static inline int sqlite3_reset(sqlite3_stmt *s) { return rp_sqlite.reset(s); }
static inline int sqlite3_clear_bindings(sqlite3_stmt *s) { return rp_sqlite.clear_bindings(s); }
static inline int sqlite3_bind_int64(sqlite3_stmt *s, int i, sqlite3_int64 v) { return rp_sqlite.bind_int64(s, i, v); }
static inline int sqlite3_bind_double(sqlite3_stmt *s, int i, double v) { return rp_sqlite.bind_double(s, i, v); }
static inline int sqlite3_bind_null(sqlite3_stmt *s, int i) { return rp_sqlite.bind_null(s, i); }
/* SQLITE_TRANSIENT (-1 cast to a destructor, a cast Swift cannot import): SQLite copies the bound text. */
static inline int rp_sqlite_bind_text(sqlite3_stmt *s, int i, const char *text, int length) {
    return rp_sqlite.bind_text(s, i, text, length, (void (*)(void *))-1);
}
static inline int sqlite3_step(sqlite3_stmt *s) { return rp_sqlite.step(s); }
static inline int sqlite3_column_type(sqlite3_stmt *s, int c) { return rp_sqlite.column_type(s, c); }
static inline sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *s, int c) { return rp_sqlite.column_int64(s, c); }
static inline double sqlite3_column_double(sqlite3_stmt *s, int c) { return rp_sqlite.column_double(s, c); }
static inline const unsigned char *sqlite3_column_text(sqlite3_stmt *s, int c) { return rp_sqlite.column_text(s, c); }

#endif
