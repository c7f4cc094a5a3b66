/* CSQLite: Debian's SQLite 3 (libsqlite3-dev, 3.40: FTS5 with the trigram tokenizer) for
 * NotesCore's thin wrapper (Sources/NotesCore/Index/SQLiteDatabase.swift). SQLITE_TRANSIENT is
 * a macro casting -1 to a function pointer, which Swift cannot import: binding text goes
 * and blobs goes through these functions instead. And `notula_rows`, an aggregate in C. */
#ifndef NOTULA_CSQLITE_SHIM_H
#define NOTULA_CSQLITE_SHIM_H
#include <stddef.h>
#include <sqlite3.h>

static inline int notula_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int bytes) {
    return sqlite3_bind_text(statement, index, text, bytes, SQLITE_TRANSIENT);
}

static inline int notula_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int count) {
    return sqlite3_bind_blob(statement, index, bytes, count, SQLITE_TRANSIENT);
}

/* notula_rows(rowid): the row ids an aggregate query saw, as a bitmap blob (bit n % 8 of byte
 * n / 8): a search hands its 100,000 matches over as one value instead of one step each. */
typedef struct {
    unsigned char *bytes;
    sqlite3_int64 length;
} NotulaRows;

static inline void notula_rows_step(sqlite3_context *context, int count, sqlite3_value **values) {
    (void)count;
    sqlite3_int64 row = sqlite3_value_int64(values[0]);
    if (row < 0 || row >= ((sqlite3_int64)1 << 33)) {
        sqlite3_result_error(context, "notula_rows: row id out of range", -1);
        return;
    }
    NotulaRows *rows = sqlite3_aggregate_context(context, sizeof(NotulaRows));
    if (!rows) { sqlite3_result_error_nomem(context); return; }
    sqlite3_int64 byte = row / 8;
    if (byte >= rows->length) {
        sqlite3_int64 length = rows->length * 2 > byte + 1 ? rows->length * 2 : byte + 4096;
        unsigned char *grown = sqlite3_realloc64(rows->bytes, (sqlite3_uint64)length);
        if (!grown) { sqlite3_result_error_nomem(context); return; }
        for (sqlite3_int64 at = rows->length; at < length; at++) grown[at] = 0;
        rows->bytes = grown;
        rows->length = length;
    }
    rows->bytes[byte] |= (unsigned char)(1u << (row % 8));
}

static inline void notula_rows_final(sqlite3_context *context) {
    NotulaRows *rows = sqlite3_aggregate_context(context, 0);
    if (!rows || !rows->bytes) { sqlite3_result_zeroblob(context, 0); return; }
    sqlite3_result_blob64(context, rows->bytes, (sqlite3_uint64)rows->length, sqlite3_free);  /* the result owns them */
}

static inline int notula_sqlite_register_rows(sqlite3 *database) {
    return sqlite3_create_function_v2(database, "notula_rows", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, NULL,
                                      notula_rows_step, notula_rows_final, NULL);
}
#endif
