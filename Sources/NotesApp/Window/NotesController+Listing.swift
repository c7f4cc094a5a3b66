import Dispatch
import Foundation
import NotesCore

/// Listing the library: shown from its index at once, then reconciled with the folder on
/// `indexing` (reading only new and changed files), and again when notebooks change elsewhere.
extension NotesController {
    /// Shows the library at once from its index, then brings the index in line with the
    /// folder in the background (reading only new and changed files; a first run fills the
    /// list as it goes); `then` once the list is complete.
    func start(then: (@MainActor () -> Void)? = nil) {
        let leftoverAge = hasStarted ? AtomicFileWriter.abandonedAfter : 0  // at launch no save of ours is under way
        hasStarted = true
        indexing.async { [library, createsLibraryFolder, indexFolder] in
            do {
                try library.prepare(createIfMissing: createsLibraryFolder, leftoversOlderThan: leftoverAge)
            } catch {
                DispatchQueue.main.async { [weak self] in self?.startFailed(error, then: then) }
                return
            }
            let index: LibraryIndex
            do {
                index = try LibraryIndex(library: library, cacheFolder: indexFolder)
            } catch {
                DispatchQueue.main.async { [weak self] in self?.startFailed(error, then: then) }
                return
            }
            // The index is listed on a second core while this one lists the folder; the list
            // shows it before any change the folder brings (the main queue keeps their order,
            // and a change already in the listing is applied again harmlessly).
            let listed = DispatchSemaphore(value: 0)
            DispatchQueue.global(qos: .userInitiated).async {
                let rows = index.summaries()
                DispatchQueue.main.async { [weak self] in
                    guard let self else { return }
                    self.libraryIndex = index
                    self.onLibraryAvailable?()
                    self.list.show(rows)
                    StartupReport.listShown(count: rows.count)
                    self.loadPins()
                    self.openNewestIfNothingIsOpen()
                    // Watched from now: what changes while the index catches up is refreshed after it.
                    self.watchLibrary()
                }
                listed.signal()
            }
            var isListed = false
            let reconcile = {
                Result {
                    try index.reconcile { batch in
                        if !isListed { listed.wait() }
                        isListed = true
                        DispatchQueue.main.async { [weak self] in
                            self?.applyIndexChanges(batch)
                            self?.openNewestIfNothingIsOpen()
                        }
                    }
                }
            }
            var result = reconcile()
            if !isListed { listed.wait() }
            // The index could not be listed (the list is empty): every note again, from memory.
            if case .success = result, index.couldNotBeListed { result = reconcile() }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                switch result {
                case .success(let notebooks):
                    SearchReport.indexReady(notes: self.list.count)
                    self.search.prepare()
                    SearchReport.runBenchQuery { [weak self] query in self?.search.find(query) }
                    SwitchReport.runIfRequested(ids: self.list.orderedIDs) { [weak self] id, shown in
                        self?.list.select(id, notify: false)
                        self?.open(id, then: shown)
                    }
                    self.purgeOldTrash()
                    self.show(notebooks: notebooks)
                    self.indexing.async {
                        let changes = index.completeSearchTables()  // an index from an older Notula
                        MemoryTrim.returnFreedMemory()
                        DispatchQueue.main.async { [weak self] in self?.applyIndexChanges(changes) }
                    }
                    self.scheduleTimeRefresh()
                    self.search.findAgainIfNeeded()
                    then?()
                case .failure(let error):
                    self.startFailed(error, then: then)
                }
            }
        }
    }

    /// The newest note opens by itself, unless it may be too large to lay out at once or
    /// cannot be read: then the newest that can.
    func openNewestIfNothingIsOpen() {
        guard document == nil, !openNote.isOpening, list.selectedID == nil else { return }
        let arranged = list.orderedIDs.prefix(200).compactMap { list.summary($0) }
        if let first = arranged.first(where: { !$0.mightBeLarge && $0.unreadableReason == nil }) {
            list.select(first.id, notify: true)
        }
    }

    func startFailed(_ error: Error, then: (@MainActor () -> Void)?) {
        if !createsLibraryFolder, onLibraryUnavailable != nil {
            // A synced folder that is not there: say so in the banner, list nothing.
            list.showUnavailable()
            onLibraryUnavailable?(error)
            then?()
            return
        }
        list.presentError(OperationError(.listLibrary, note: nil, underlying: error)) { [weak self] recovered in
            if recovered { self?.start(then: then) } else { then?() }
        }
    }

    /// Lists the library again (a notebook changed under us), keeping the selection.
    func reload() { reloadThen {} }

    func reloadThen(_ then: @escaping @MainActor () -> Void) {
        guard let index = libraryIndex else { return then() }
        indexing.async {
            let result = Result {
                try index.reconcile { batch in
                    DispatchQueue.main.async { [weak self] in self?.applyIndexChanges(batch) }
                }
            }
            DispatchQueue.main.async { [weak self] in
                guard let self else { return }
                // The folder itself is gone or unreadable: start over, which says why (or makes
                // the local library again).
                guard case .success(let notebooks) = result else { return self.restart() }
                self.show(notebooks: notebooks)
                self.search.findAgainIfNeeded()
                then()
            }
        }
    }
}
