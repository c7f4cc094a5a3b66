import Foundation

/// Versions of notes that a conflict resolution set aside, kept as plain files in
/// `$XDG_STATE_HOME/notula/versions/NOTE-NAME/` so the discarded side is never lost: one file
/// per version, named by date and where it came from, readable with any editor. Local to this
/// computer on purpose: putting it in the library would sync it back as a new note.
public final class VersionStore {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    public static let standard = VersionStore(folder: XDGDirectories().appState.appendingPathComponent("versions", isDirectory: true))

    /// Writes `data` (atomically, flushed) as a version of `note`; returns where. `origin` says
    /// which side it was ("this computer", "conflict copy", …) and goes into the name.
    @discardableResult
    public func keep(_ data: Data, of note: URL, origin: String) throws -> URL {
        let stem = note.deletingPathExtension().lastPathComponent
        let folder = self.folder.appendingPathComponent(stem, isDirectory: true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HHmmss"
        let safeOrigin = origin.replacingOccurrences(of: "/", with: "-")
        let ext = note.pathExtension.isEmpty ? "" : ".\(note.pathExtension)"
        var url = folder.appendingPathComponent("\(formatter.string(from: Date())) \(safeOrigin)\(ext)")
        var attempt = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = folder.appendingPathComponent("\(formatter.string(from: Date())) \(safeOrigin) \(attempt)\(ext)")
            attempt += 1
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try AtomicFileWriter.write(data, to: url)
        return url
    }

    /// The versions kept for `note`, oldest first.
    public func versions(of note: URL) -> [URL] {
        let folder = self.folder.appendingPathComponent(note.deletingPathExtension().lastPathComponent, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }
}
