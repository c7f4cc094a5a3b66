import Foundation

extension LiveLibrary {
    /// After every note moved out of `folder` and this library shows the destination: the
    /// folder's index goes too if the folder holds no note any more. Queued behind the indexing
    /// work, so it runs once that index is closed (the switch closes it on this queue).
    public func removeIndex(ofFolderLeft folder: URL) {
        guard let indexFolder, folder.standardizedFileURL.path != library.folder.standardizedFileURL.path else { return }
        indexing.async { IndexCarryOver.removeIndex(of: folder, cacheFolder: indexFolder) }
    }
}
