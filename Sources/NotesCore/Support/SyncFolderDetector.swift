import Foundation

/// Finds the folders that sync clients keep in sync in this user's home, for the first
/// launch's question: Syncthing's `~/Sync` (with its `.stfolder` marker), `~/Nextcloud`,
/// `~/ownCloud`, `~/Dropbox`.
public enum SyncFolderDetector: Sendable {
    public struct Found: Equatable, Sendable {
        public let client: String
        public let folder: URL
        /// Where the notes would go: a `Notes` folder inside.
        public var notesFolder: URL { folder.appendingPathComponent("Notes", isDirectory: true) }
    }

    public static func find(home: URL) -> [Found] {
        let candidates: [(String, String, String?)] = [
            ("Syncthing", "Sync", ".stfolder"),
            ("Nextcloud", "Nextcloud", nil),
            ("ownCloud", "ownCloud", nil),
            ("Dropbox", "Dropbox", nil),
        ]
        return candidates.compactMap { client, name, marker in
            let folder = home.appendingPathComponent(name, isDirectory: true)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
            if let marker, !FileManager.default.fileExists(atPath: folder.appendingPathComponent(marker).path) { return nil }
            return Found(client: client, folder: folder)
        }
    }
}
