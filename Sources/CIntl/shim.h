/* CIntl: glibc's gettext (libintl.h) and setlocale for NotesCore's `Localization`; Swift's Glibc
 * module does not export libintl. Part of glibc itself: nothing to link. */
#ifndef NOTULA_CINTL_SHIM_H
#define NOTULA_CINTL_SHIM_H
#include <libintl.h>
#include <locale.h>
#endif
