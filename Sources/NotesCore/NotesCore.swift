// NotesCore — Notula's model, with Foundation only (no GTK), tested without a display.
//
//   Storage/   the library folder on disk: listing notes, creating them, atomic writes, the Trash.
//   Document/  one open note: its text, change count, saving, autosave timing, conflicts.
//   Index/     the persistent library index (SQLite, FTS5): the list at start, search.
//   Organize/  the list's order and contents: sort orders, pins, notebooks, folding for search.
//   History/   every note's past versions.   Merge/, Sync/, Moving/: merges, conflict copies,
//              moving the whole library.     Markdown/: what the editor draws, without GTK.
//   Errors/    recoverable failures and the responder chain.
//   Support/   XDG folders, relative times, window state, preferences, SQLite, gettext.
//
// File I/O never runs on the main thread except at shutdown, where the app must wait for it.
// Every call on a library path is made here, by its bytes (Storage/FileSystemCalls): NotesApp
// asks NotesCore, never FileManager.
import Foundation

/// The application id, shared by the desktop entry, D-Bus name and data folders.
public let notulaApplicationID = "io.github.notula.Notula"

/// The version About shows; the newest release in data/io.github.notula.Notula.metainfo.xml
/// must say the same (a test checks).
public let notulaVersion = "0.2.0"
