import NotesCore

/// An open note that could not be saved as a move of every note began, and why: the move does
/// not start, and the failure is said through that note's editor (its options apply there).
struct MoveHoldFailure: Error {
    let document: NoteDocument
    let error: Error
}
