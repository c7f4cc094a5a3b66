import Dispatch
import Foundation
import Gtk
import NotesCore

/// At start: text that never reached its note (a failed save, a conflict, Quit Anyway, a
/// crash while typing) is in the recovery drafts. A draft whose note's file is gone has no
/// note to go back to: it becomes a new note at once (named by its own first line), and the
/// window says so with a notice that opens it — the user never asked for that note, so no
/// dialog. Every other draft is offered back: Restore writes it into its note when the note
/// is unchanged since, or as a new note otherwise (never over another version); Discard
/// deletes the draft; Later keeps it for the next start. The text a restore replaces is kept
/// in the note's history first.
struct DraftRestorer {
    let drafts: RecoveryDrafts
    let library: NoteLibrary
    var history: NoteHistory = .standard

    /// `notice`: tells the window about a draft restored as a new note (the sentence, the note);
    /// `completion` gets the notes written.
    func offer(through responder: Responder, notice: @escaping @MainActor (String, URL) -> Void = { _, _ in },
               completion: @escaping @MainActor ([URL]) -> Void) {
        let drafts = self.drafts, library = self.library
        DispatchQueue.global(qos: .utility).async {
            let orphans = drafts.restoreOrphans(into: library)
            // Drafts whose note already holds the same text are stale: drop them quietly.
            var pending: [RecoveryDrafts.Draft] = []
            for draft in drafts.all() {
                let url = URL(fileURLWithPath: draft.notePath)
                if let data = RegularFile.contents(of: url, followLinks: false), NoteEncoding.decode(data).text == draft.text {
                    drafts.remove(for: url)
                } else {
                    pending.append(draft)
                }
            }
            let found = pending  // a constant crosses to the main queue, not the variable
            DispatchQueue.main.async {
                for orphan in orphans {
                    // TRANSLATORS: a notice at start; %s is the new note's title (the kept text's first line)
                    notice(tr("Unsaved text of “%s” was kept after its note’s file disappeared; it is now a new note.", orphan.title), orphan.note)
                }
                ask(found[...], through: responder, restored: orphans.map(\.note), completion: completion)
            }
        }
    }

    private func ask(_ pending: ArraySlice<RecoveryDrafts.Draft>, through responder: Responder, restored: [URL],
                     completion: @escaping @MainActor ([URL]) -> Void) {
        guard let draft = pending.first else { return completion(restored) }
        let title = NoteText.title(of: draft.text)
        let when = RelativeTimeFormatter().string(for: draft.date, inSentence: true)
        var restored = restored
        let next = { ask(pending.dropFirst(), through: responder, restored: restored, completion: completion) }
        let choice = RecoverableFailure(
            // TRANSLATORS: %s is the note's title
            failureReason: tr("Unsaved text of “%s” was kept", title),
            // TRANSLATORS: %1$s is when ("5 minutes ago", "yesterday"), %2$s why ("save failed", "conflict"…)
            recoverySuggestion: tr("Notula kept this text (%1$s) because it could not be saved then (%2$s). Restore puts it back in its note, or in a new note if the note has changed since.", when, Self.describe(reason: draft.reason)),
            actions: [
                // TRANSLATORS: button: put kept unsaved text back into its note
                RecoveryAction(tr("Restore"), role: .default) { done in
                    restore(draft) { note in restored += [note].compactMap { $0 }; done(false) }
                },
                // TRANSLATORS: button: delete kept unsaved text
                RecoveryAction(tr("Discard"), role: .destructive) { done in
                    drafts.remove(for: URL(fileURLWithPath: draft.notePath))
                    done(false)
                },
                // TRANSLATORS: button: ask again about kept unsaved text at the next start
                .cancel(tr("Later")),
            ])
        responder.presentError(choice) { _ in next() }
    }

    /// Why a draft was kept, as the dialog says it (`reason` is a key stored in the draft;
    /// one not known here, from another version, is shown as it is).
    static func describe(reason: String) -> String {
        switch reason {
        // TRANSLATORS: why unsaved text was kept, in parentheses after “it could not be saved then”
        case "conflict": return tr("conflict")
        // TRANSLATORS: why unsaved text was kept, in parentheses after “it could not be saved then”
        case "save failed": return tr("save failed")
        // TRANSLATORS: why unsaved text was kept, in parentheses after “it could not be saved then”
        case "save timed out": return tr("save timed out")
        // TRANSLATORS: why unsaved text was kept (the note's file was gone), in parentheses after “it could not be saved then”
        case "file missing": return tr("file missing")
        // TRANSLATORS: why unsaved text was kept (the note went back to its saved text), in parentheses after “it could not be saved then”
        case "reverted": return tr("reverted")
        // TRANSLATORS: why unsaved text was kept (copied aside while the user was typing, before a save), in parentheses after “it could not be saved then”
        case "typing": return tr("typing")
        default: return reason
        }
    }

    private func restore(_ draft: RecoveryDrafts.Draft, completion: @escaping @MainActor (URL?) -> Void) {
        let history = self.history, drafts = self.drafts, library = self.library
        DispatchQueue.global(qos: .userInitiated).async {
            let note = URL(fileURLWithPath: draft.notePath)
            let result = Result { () -> URL in
                // Back into its note when that is unchanged since the draft was kept and still
                // the file read here as it is replaced (another program may write it meanwhile);
                // a new note otherwise, never over another version.
                if draft.reason != "conflict", let (replaced, identity) = try? FileIdentity.read(note),
                   identity.modificationDate <= draft.date {
                    history.record(of: note, origin: .beforeRestore) { replaced }
                    if case .written = try AtomicFileWriter.replace(draft.bytes, at: note, expecting: identity) {
                        drafts.remove(for: note)
                        return note
                    }
                }
                let made = try library.createNote(contents: draft.bytes).url
                drafts.remove(for: note)
                return made
            }
            DispatchQueue.main.async {
                if case .failure(let error) = result {
                    print("notula: could not restore a draft: \(error)")
                }
                completion(try? result.get())
            }
        }
    }
}
