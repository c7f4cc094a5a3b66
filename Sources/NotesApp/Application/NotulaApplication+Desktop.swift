import Foundation
import Gtk
import NotesCore

/// The application on the desktop (issue #33): the desktop's search results and "Search in
/// Notula", files from the command line, notes in windows of their own, the editors' shared
/// settings (style, spelling, readable width, zoom) and the note windows kept in the session.
extension NotulaApplication {
    /// A result chosen in the desktop's search: the window shows that note, the cursor at the
    /// first place a term occurs.
    /// Only an id the index lists, as `GetResultMetas` answers only for them: the id comes
    /// from any program on the session bus.
    func showSearchResult(_ id: String, terms: [String]) {
        let window = windows.main ?? makeMainWindow()
        window.present()
        guard LibraryNoteID.isWellFormed(id), window.controller.isListed(id) else { return }
        window.showNote(at: window.controller.library.folder.appendingPathComponent(id), cursorAtFirstOf: terms)
    }

    /// "Search in Notula" from the desktop's search: the window with the terms in its search field.
    func search(_ terms: [String]) {
        let window = windows.main ?? makeMainWindow()
        window.present()
        window.controller.search.entry.text = terms.joined(separator: " ")
        window.controller.search.focus()
    }

    /// An editor as Preferences say: style, readable width, spelling, text size.
    func configure(_ editor: EditorView) {
        editor.setDark(style.isDark)
        editor.usesReadableWidth = storage.preferences.readableWidth ?? true
        editor.usesVimKeys = storage.preferences.vimKeys ?? false
        editor.configureSpelling(storage.preferences)
        editor.zoomPercent = zoom
        style.observe { [weak editor] dark in editor?.setDark(dark) }
    }

    func setZoom(_ percent: Int) {
        zoom = EditorZoom.clamped(percent)
        EditorZoom.apply(zoom)
        for editor in windows.editors { editor.zoomPercent = zoom }
        storage.updatePreferences { $0.editorZoom = self.zoom == EditorZoom.normal ? nil : self.zoom }
        windows.preferences?.showZoom(zoom)
    }

    /// The note at `url` in a window of its own (the one it has already, if any).
    func openNoteWindow(_ url: URL, size: (width: Int, height: Int)? = nil) {
        if let open = windows.noteWindow(showing: url) { return open.present() }
        let folder = storage.libraryFolder.standardizedFileURL
        let inLibrary = url.standardizedFileURL.path.hasPrefix(folder.path + "/")
        let noteWindow = NoteWindow(application: app, appResponder: self, url: url, library: inLibrary ? folder : nil, drafts: drafts, size: size)
        configure(noteWindow.editor)
        noteWindow.onShowInMainWindow = { [weak self] url in self?.showInMainWindow(url) }
        noteWindow.onOpenTitle = { [weak self] title, heading in
            guard let self else { return }
            let window = self.windows.main ?? self.makeMainWindow()
            window.present()
            window.controller.links.openTitle(title, heading: heading, x: 0, y: 0)
        }
        noteWindow.links.index = { [weak self] in self?.library?.index }
        // Its file gone before it could be read (deleted meanwhile): said, and the empty window goes.
        noteWindow.onNoteGone = { [weak self, weak noteWindow] url in
            self?.sayCannotOpen(url)
            noteWindow?.window.destroy()
        }
        noteWindow.window.onDestroy { [weak self, weak noteWindow] _ in
            guard let self else { return }
            self.windows.remove(noteWindow)
            self.quitIfLastWindowClosed()
        }
        windows.add(noteWindow)
        noteWindow.present()
    }

    func showInMainWindow(_ url: URL) {
        let window = windows.main ?? makeMainWindow()
        window.present()
        window.showNote(at: url)
    }

    /// `notula FILE…`: a note of the library opens in the main window, any other file in a
    /// window of its own, saved in place (a file not there yet is made, empty, as an editor would).
    func open(_ paths: [String]) {
        for path in paths {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            if let id = LibraryNoteID.id(of: url, in: storage.libraryFolder), LibraryNoteID.file(id, in: storage.libraryFolder) != nil {
                showInMainWindow(url)
                continue
            }
            // Notula's own files in the library (`.notula/`, the Trash) are no notes to edit.
            let library = storage.libraryFolder.standardizedFileURL.path + "/"
            if url.path.hasPrefix(library), url.path.dropFirst(library.count).split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
                // TRANSLATORS: why a file inside the notes folder given on the command line is not opened.
                sayCannotOpen(url, because: tr("It is one of Notula's own files in the notes folder, not a note."))
                continue
            }
            if !RegularFile.createEmptyIfMissing(url.path) {
                sayCannotOpen(url)
                continue
            }
            openNoteWindow(url)
        }
    }

    /// A file given on the command line is not there and cannot be made there: said in a
    /// dialog, the application held meanwhile (it may have no window at all).
    private func sayCannotOpen(_ url: URL, because reason: String? = nil) {
        let failure = RecoverableFailure(
            failureReason: tr("“%s” could not be opened", url.lastPathComponent),
            // TRANSLATORS: %s is the folder of a file given on the command line
            recoverySuggestion: reason ?? tr("There is no such file, and none can be made in “%s”.", url.deletingLastPathComponent().path),
            actions: [.cancel(tr("OK"))])
        app.hold()
        presentError(failure) { [app] _ in app.release() }
    }

    /// The note windows the last session had, for notes still there (with the first main window only).
    func restoreNoteWindows() {
        for window in windows.takeLastSession() {
            openNoteWindow(URL(fileURLWithPath: window.path), size: (max(window.width, 300), max(window.height, 200)))
        }
    }
}
