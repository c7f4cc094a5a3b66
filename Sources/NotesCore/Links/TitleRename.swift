import Foundation

/// A note's title changed: the `[[Old title]]` links of other notes are written to the new
/// title, after the user agreed (the window asks "Update 3 links in 2 notes?"). Each note is
/// rewritten by `AtomicFileWriter.edit`, which never replaces a version it did not read: a
/// note another program rewrote meanwhile gets its links updated in that version. The whole
/// change can be undone, and Undo writes a note back only while it still holds what the
/// rename wrote (a later edit, by anyone, is never lost). Only notes of the library are read
/// or written.
public struct TitleRename: Sendable {
    public struct Change: Sendable {
        public let noteID: String
        let url: URL
        let before: Data
        let after: Data
        public let links: Int
    }

    public let oldTitle: String
    public let newTitle: String
    public let changes: [Change]
    public var linkCount: Int { changes.reduce(0) { $0 + $1.links } }

    /// What renaming `oldTitle` to `newTitle` would change in `candidates` (ids of notes the
    /// index says link the old title; each is read again here). Nil when there is nothing to
    /// do, or the new title cannot be a link's (`WikiLinkRename.canLink`), or the two name
    /// the same title.
    public static func plan(library: URL, candidates: [String], from oldTitle: String, to newTitle: String) -> TitleRename? {
        let oldKey = TitleKey.of(oldTitle)
        guard oldKey != TitleKey.of(newTitle), WikiLinkRename.canLink(newTitle) else { return nil }
        var changes: [Change] = []
        for id in candidates {
            let parts = id.split(separator: "/", omittingEmptySubsequences: false)
            guard !id.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == ".." || $0.hasPrefix(".") }) else { continue }  // never out of the library
            let url = library.appendingPathComponent(id)
            guard let data = try? RegularFile.read(url).data, let text = String(validating: data, as: UTF8.self),
                  let (written, count) = WikiLinkRename.rewrite(text, from: oldKey, to: newTitle) else { continue }
            changes.append(Change(noteID: id, url: url, before: data, after: Data(written.utf8), links: count))
        }
        return changes.isEmpty ? nil : TitleRename(oldTitle: oldTitle, newTitle: newTitle, changes: changes)
    }

    /// Writes every change (atomically, each note's mode kept). A note that changed since
    /// `plan` read it gets its links updated in what it holds now. Returns the changes as
    /// written (what each note held and holds); throws the first failure after writing back
    /// what was already written.
    public func apply() throws -> [Change] {
        var written: [Change] = []
        let oldKey = TitleKey.of(oldTitle)
        for change in changes {
            do {
                let edit = try AtomicFileWriter.edit(change.url) { data in
                    if data == change.before { return change.after }
                    guard let text = String(validating: data, as: UTF8.self),
                          let (rewritten, _) = WikiLinkRename.rewrite(text, from: oldKey, to: newTitle) else { return nil }
                    return Data(rewritten.utf8)
                }
                if case .written(let before, let after, _) = edit {
                    written.append(Change(noteID: change.noteID, url: change.url, before: before, after: after, links: change.links))
                }
            } catch {
                Self.undo(written)
                throw error
            }
        }
        return written
    }

    /// Gives the renamed note at `url` its old title again (Undo, when it is not open): its
    /// first non-blank line, if it still holds `newTitle`, gets `oldTitle` in its place.
    @discardableResult
    public func restoreTitle(ofNoteAt url: URL) -> Bool {
        let edit = try? AtomicFileWriter.edit(url) { data in
            guard let text = String(validating: data, as: UTF8.self), let range = Self.titleRange(in: text, title: newTitle) else { return nil }
            return Data(text.replacingCharacters(in: range, with: oldTitle).utf8)
        }
        if case .written = edit { return true }
        return false
    }

    /// Where `title` is written in the first non-blank line of `text`, if it is.
    public static func titleRange(in text: String, title: String) -> Range<String.Index>? {
        guard let line = text.split(whereSeparator: \.isNewline)
            .first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        return line.range(of: title)
    }

    /// Writes back what `changes` replaced, in each note that still holds what was written.
    /// Returns the ids written back.
    @discardableResult
    public static func undo(_ changes: [Change]) -> [String] {
        var restored: [String] = []
        for change in changes {
            guard case .written = try? AtomicFileWriter.edit(change.url, { $0 == change.after ? change.before : nil }) else { continue }
            restored.append(change.noteID)
        }
        return restored
    }
}
