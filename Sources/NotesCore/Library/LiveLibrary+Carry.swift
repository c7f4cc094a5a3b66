import Foundation

extension LiveLibrary {
    /// Runs `work` where the next `switchTo` opens its index, before it does (queued on the
    /// indexing queue now; `switchTo`, asked for next, stops the old folder's reconcile so this
    /// runs soon): the index a move of all notes carries over is in place when the
    /// destination's index opens.
    public func beforeNextSwitch(_ work: @escaping @Sendable () -> Void) {
        indexing.async(work)
    }

    /// After every note moved out of `folder` and this library shows the destination: the
    /// folder's index goes too if the folder holds no note any more. Queued behind the indexing
    /// work, so it runs once that index is closed (the switch closes it on this queue).
    public func removeIndex(ofFolderLeft folder: URL) {
        guard let indexFolder, folder.standardizedFileURL.path != library.folder.standardizedFileURL.path else { return }
        indexing.async { IndexCarryOver.removeIndex(of: folder, cacheFolder: indexFolder) }
    }
}
