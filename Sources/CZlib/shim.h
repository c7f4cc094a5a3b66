/* CZlib: Debian's zlib (zlib1g-dev) for NotesCore's `Deflate`, which compresses the versions
 * kept in the note history. Only compress2/uncompress/crc32 are used. */
#ifndef NOTULA_CZLIB_SHIM_H
#define NOTULA_CZLIB_SHIM_H
#include <zlib.h>
#endif
