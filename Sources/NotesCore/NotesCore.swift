// NotesCore — Notula's model, with Foundation only (no GTK), tested without a display.
//
//   Storage/   the library folder on disk: listing notes, creating them, atomic writes.
//   Document/  one open note: its text, change count, saving, autosave timing.
//   Support/   XDG folders, relative times, the remembered window state.
//
// File I/O never runs on the main thread except at shutdown, where the app must wait for it.
// Platform services that need GIO (the freedesktop Trash) are done by NotesApp.
import Foundation

/// The application id, shared by the desktop entry, D-Bus name and data folders.
public let notulaApplicationID = "io.github.notula.Notula"

/// The version About shows; the newest release in data/io.github.notula.Notula.metainfo.xml
/// must say the same (a test checks).
public let notulaVersion = "0.2.0"
