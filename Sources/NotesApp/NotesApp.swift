// NotesApp — Notula's GTK user interface, on the Gtk wrapper and NotesCore.
//
//   Application/     NotulaApplication (the GtkApplication, start-up and shutdown), ActionCatalog
//                    (every action, its keys and menu place, declared once), the light or dark
//                    style (StyleController), where the notes live (StorageController).
//   Window/          MainWindow, NoteWindow and their dialogs; WindowActions, WindowHeader,
//                    WindowCloser (what both kinds of window share).
//   Library/         NotesController joins the window's library pieces; each concern is a type
//                    of its own: LibraryPresenter, TrashController, NotebooksController,
//                    LinksController, SessionRestorer, SearchController, ImportController.
//   Document/        the note in an editor (OpenNoteController) and every open document
//                    (SharedDocuments).
//   Editor/          the editor and its parts.   Widgets/: one view per file.
//   Export/, Desktop/, Errors/, Style/: print and export, the Shell's search, the error
//                    dialog, the stylesheet.
//   Instrumentation/ NOTULA_REPORT_* lines, the stall monitor: on only when asked for.
//
// Views know nothing of files; the controller owns documents and talks to NotesCore.
// Handlers capture their owners weakly: widgets must not keep controllers alive.
import Gtk
import NotesCore
