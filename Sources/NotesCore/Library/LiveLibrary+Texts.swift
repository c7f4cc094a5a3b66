import Dispatch

/// Indexing the notes' full texts after a start (or after the index started over): short steps,
/// each a block of its own on `indexing`, so whatever was queued meanwhile runs between them.
extension LiveLibrary {
    /// Queues the first step of indexing the full texts still waiting (after a reconcile, or
    /// after the index started over), unless a run for `generation` is under way (any thread).
    nonisolated func scheduleTexts(generation: Int) {
        guard slot.startTexts(generation: generation) else { return }
        indexing.async { [weak self] in self?.indexTextsStep(generation: generation) }
    }

    /// One step (a quarter of a second of texts, one transaction), then the next queued
    /// behind whatever came meanwhile: refreshes, a rescan, a switch or a close.
    nonisolated private func indexTextsStep(generation: Int) {
        guard slot.isRunningTexts(generation: generation) else { return }  // another folder's run took over
        guard slot.generation == generation, slot.indexGeneration == generation, let index = slot.index, !index.isStopped else {
            slot.endTexts(generation: generation)
            return
        }
        let step = index.indexWaitingTexts()
        if step.progress.isComplete || index.isStopped {
            slot.endTexts(generation: generation)
            index.releaseWritingCache()
            MemoryTrim.returnFreedMemory()
        } else {
            indexing.async { [weak self] in self?.indexTextsStep(generation: generation) }
        }
        let stopped = index.isStopped
        DispatchQueue.main.async { [weak self] in
            guard let self, self.generation == generation else { return }
            self.deliver(step.changes, generation: generation)
            guard !stopped else { return }
            self.onEvent?(step.progress.isComplete ? .indexed(step.progress) : .indexing(step.progress))
        }
    }
}
