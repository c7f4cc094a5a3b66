/* CCmark: Debian's cmark-gfm (libcmark-gfm-dev, libcmark-gfm-extensions-dev 0.29.gfm.6), GitHub's
 * CommonMark with its tables, task lists, strikethrough and autolinks, for NotesCore's thin
 * wrapper (Sources/NotesCore/Export/MarkdownTree.swift): HTML export and the printed page. */
#ifndef NOTULA_CCMARK_SHIM_H
#define NOTULA_CCMARK_SHIM_H
#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#endif
