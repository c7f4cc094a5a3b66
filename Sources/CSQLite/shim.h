/* CSQLite: Debian's SQLite 3 (libsqlite3-dev, 3.40: FTS5 with the trigram tokenizer) for
 * NotesCore's thin wrapper (Sources/NotesCore/Index/SQLiteDatabase.swift). SQLITE_TRANSIENT is
 * a macro casting -1 to a function pointer, which Swift cannot import: binding text goes
 * and blobs goes through these functions instead. */
#ifndef NOTULA_CSQLITE_SHIM_H
#define NOTULA_CSQLITE_SHIM_H
#include <sqlite3.h>

static inline int notula_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int notula_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}
#endif
