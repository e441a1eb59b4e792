// SQLite's C API (Debian's libsqlite3-dev). SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which
// Swift cannot import: this returns it.
#include <sqlite3.h>

static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
