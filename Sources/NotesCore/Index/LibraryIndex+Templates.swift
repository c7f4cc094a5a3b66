import Foundation

/// Templates and today's note (issue #48): the template notes, and the notes of a title that
/// are not templates.
extension LibraryIndex {
    /// Every template note's id (`NoteTemplate`: a note of a "Templates" notebook at any depth).
    public func templateIDs() -> [String] {
        reading { connection in
            try connection.prepare("SELECT path FROM notes WHERE path LIKE '%templates/%'").all([]) { $0.text(0) }
        }?.filter(NoteTemplate.isTemplate).sorted() ?? []
    }

    /// The ids of the notes titled as `key` says (`TitleKey`), templates left out, the most
    /// recently changed first.
    public func notesNotTemplates(titled key: String) -> [String] {
        notes(titled: key).map(\.noteID).filter { !NoteTemplate.isTemplate($0) }
    }
}
