// NotesApp — Notula's GTK user interface, on the Gtk wrapper and NotesCore.
//
//   Application/  NotulaApplication: the GtkApplication, its actions and accelerators (wired
//                 in one place, from KeyboardShortcuts), start-up and shutdown; the light or
//                 dark style (StyleController); where the notes live (StorageController).
//   Window/       MainWindow (layout, remembered size) and NotesController (what happens
//                 when the user creates, selects, edits or deletes a note).
//   Widgets/      one view per file: the notes list and its rows, the editor, the toast.
//   Style/        the stylesheet.
//
// Views know nothing of files; the controller owns documents and talks to NotesCore.
// Handlers capture their owners weakly: widgets must not keep controllers alive.
import Gtk
import NotesCore
