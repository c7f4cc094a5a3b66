import Foundation
import Gtk
import NotesCore

/// Clicks on pictures: a click opens the file with the desktop's viewer; right-click pops a
/// menu (Open, Copy Image, Show in Files, Remove from Note).
extension InlinePictures {
    /// The picture line under a point of the view.
    func entry(atViewPoint x: Double, _ y: Double) -> Entry? {
        let point = textView.bufferPoint(fromViewPoint: x, y)
        return entries.first { entry in
            guard entry.widget != nil, let frame = entry.frame else { return false }
            return point.x >= frame.x && point.x < frame.x + frame.width && point.y >= frame.y && point.y < frame.y + frame.height
        }
    }

    func installClicks() {
        // The text view takes presses over it to place the cursor: presses on a picture are
        // found here first.
        let primary = ClickGesture(button: 1)
        primary.runBeforeWidget()
        primary.onPressed { [weak self] gesture, count, x, y in
            guard let self, count == 1, self.click(atViewPoint: x, y) else { return }
            gesture.claim()
        }
        textView.addController(primary)
        let secondary = ClickGesture(button: 3)
        secondary.runBeforeWidget()
        secondary.onPressed { [weak self] gesture, _, x, y in
            guard let self, let entry = self.entry(atViewPoint: x, y), let widget = entry.widget, let frame = entry.frame else { return }
            gesture.claim()
            let point = self.textView.bufferPoint(fromViewPoint: x, y)
            self.showMenu(for: entry, on: widget, x: Double(point.x - frame.x), y: Double(point.y - frame.y))
        }
        textView.addController(secondary)
    }

    /// A click at a point of the view: opens the picture there, if it shows one. Whether it did.
    func click(atViewPoint x: Double, _ y: Double) -> Bool {
        guard let entry = entry(atViewPoint: x, y), entry.texture != nil else { return false }
        open(entry)
        return true
    }

    /// Opens the picture's file with the desktop's viewer (only a file the resolver accepted).
    func open(_ entry: Entry) {
        guard let file = entry.file, entry.texture != nil, entry.problem == nil else { return }
        opened.append(file.absoluteString)
        showOnDesktop.map { $0(file.absoluteString) } ?? textView.showURI(file.absoluteString)
    }

    /// Copy Image: the picture's pixels (as decoded) on the clipboard; other apps paste a PNG.
    func copyImage(_ entry: Entry) {
        guard let texture = entry.texture else { return }
        textView.copyToClipboard(texture)
    }

    /// Show in Files: the folder holding the picture's file, in the file manager.
    func showInFiles(_ entry: Entry) {
        guard let file = entry.file, entry.problem != .missing(entry.picture.fileName) else { return }
        let folder = file.deletingLastPathComponent()
        shownFolders.append(folder)
        showFolder.map { $0(folder) } ?? FileBrowser.showFolder(PathBytes.bytes(folder.path), parent: nil)
    }

    /// The context menu of a picture: Open, Copy Image, Show in Files, Remove from Note.
    private func showMenu(for entry: Entry, on widget: Widget, x: Double, y: Double) {
        let open = SimpleAction(name: "open")
        open.onActivate { [weak self, weak entry] _ in if let self, let entry { self.open(entry) } }
        open.isEnabled = entry.texture != nil
        let copy = SimpleAction(name: "copy")
        copy.onActivate { [weak self, weak entry] _ in if let self, let entry { self.copyImage(entry) } }
        copy.isEnabled = entry.texture != nil
        let show = SimpleAction(name: "show-in-files")
        show.onActivate { [weak self, weak entry] _ in if let self, let entry { self.showInFiles(entry) } }
        show.isEnabled = entry.file != nil && entry.problem != .missing(entry.picture.fileName)
        let remove = SimpleAction(name: "remove")
        remove.onActivate { [weak self, weak entry] _ in if let self, let entry { self.removeFromNote(entry) } }
        remove.isEnabled = textView.isEditable
        widget.addActions([open, copy, show, remove], prefix: "picture")
        let menu = Menu()
        menu.append(tr("Open"), action: "picture.open")
        menu.append(tr("Copy Image"), action: "picture.copy")
        menu.append(tr("Show in Files"), action: "picture.show-in-files")
        let section = Menu()
        section.append(tr("Remove from Note"), action: "picture.remove")
        menu.appendSection(section)
        PopoverMenu(menu, on: widget).popup(x: x, y: y)
    }

    /// Deletes the picture's line from the note as one edit Ctrl+Z takes back. The file stays.
    func removeFromNote(_ entry: Entry) {
        guard textView.isEditable, entries.contains(where: { $0 === entry }) else { return }
        let range = lineRange(entry.line)
        // The last line has no line break of its own: take the one before it instead.
        let start = range.upperBound == buffer.characterCount && range.lowerBound > 0 && buffer.text(in: range).last != "\n"
            ? range.lowerBound - 1 : range.lowerBound
        buffer.replace(start..<range.upperBound, with: "")
    }
}
