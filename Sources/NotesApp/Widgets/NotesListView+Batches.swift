import Dispatch
import Gtk
import NotesCore

/// A large batch of the index (every note moved into a notebook: 100,000 removed and 100,000
/// added) is merged into the list's contents on a queue of its own (`NoteListBatch`); the main
/// thread only takes the result. Meanwhile the list shows its contents as they were: a note
/// changed by then (a title typed, a note made) changes them at once and again once the batch
/// is shown; a later batch and a new sort order wait for it. What reads the whole list after a
/// batch waits for it with `whenSettled`.
extension NotesListView {
    /// A batch being merged, and the list's changes made since, to make again on its result.
    final class BatchInFlight {
        var replay: [() -> Void] = []
    }

    private static let merging = DispatchQueue(label: "notula.list-merge", qos: .userInitiated)

    func mergeOffMain(upserted: [NoteSummary], removed: [String]) {
        let flight = BatchInFlight()
        batchInFlight = flight
        let (notes, sorted, arrangement, selection) = (self.notes, self.sorted, self.arrangement, selectedNotes)
        Self.merging.async { [weak self] in
            let batch = NoteListBatch(upserted: upserted, removed: removed, to: notes, sorted: sorted, arrangement: arrangement)
            let gone = selection.ids.filter { !batch.notes.contains($0) }
            DispatchQueue.main.async { [weak self] in
                guard let self, self.batchInFlight === flight else { return }  // `show` replaced every note
                self.batchInFlight = nil
                let replaced = self.take(batch, selectionGone: (selection, gone))
                OffMainRelease.later((replaced, upserted, removed))
                for change in flight.replay { change() }
                self.settle()
            }
        }
    }

    /// `show` replaces every note: a batch being merged is forgotten.
    func cancelBatchInFlight() {
        guard batchInFlight != nil else { return }
        batchInFlight = nil
        Idle.once { [weak self] in self?.settle() }  // after `show` is done
    }

    /// Runs `body` once the list shows every batch it was given: at once if it does.
    func whenSettled(_ body: @escaping () -> Void) {
        guard batchInFlight != nil || !waitingForBatch.isEmpty else { return body() }
        waitingForBatch.append(body)
    }

    /// What waited runs, in order, until one of them starts another batch.
    private func settle() {
        while batchInFlight == nil, !waitingForBatch.isEmpty {
            waitingForBatch.removeFirst()()
        }
    }
}
