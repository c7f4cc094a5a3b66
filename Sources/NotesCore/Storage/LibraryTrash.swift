import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The Trash inside the library, so deleted notes move and sync with the notes and can be
/// restored on any device: `.notula/Trash/files/NAME` holds the note, untouched, and
/// `.notula/Trash/info/NAME.trashinfo` says where it was and when it was deleted, in the
/// freedesktop.org Trash format (`[Trash Info]`, `Path=` relative to the library,
/// percent-encoded, `DeletionDate=YYYY-MM-DDThh:mm:ss` local time). Moving in and out is a
/// rename within the library's file system: the bytes are never rewritten.
/// Every method may block on disk; call them off the main thread.
public struct LibraryTrash: Sendable {
    public struct Item: Equatable, Sendable {
        /// The name in `files/` (unique within the Trash).
        public let name: String
        /// Where the note was, relative to the library ("note.md", "Work/note.md").
        public let originalPath: String
        public let deletedAt: Date
        public let url: URL
    }

    public let library: URL
    /// Told where notes go and come back from, so their histories follow them.
    let history: NoteHistory?

    public init(library: URL, history: NoteHistory? = nil) {
        self.library = library
        self.history = history
    }

    public var folder: URL { library.appendingPathComponent(".notula/Trash", isDirectory: true) }
    var files: URL { folder.appendingPathComponent("files", isDirectory: true) }
    var info: URL { folder.appendingPathComponent("info", isDirectory: true) }

    /// Moves the note at `relativePath` into the Trash. The info file is written first, so a
    /// crash in between leaves the note where it was (and a stray info file, ignored).
    @discardableResult
    public func trash(relativePath: String, now: Date = Date()) throws -> Item {
        let source = library.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: source.path) else { throw StorageError(.trash, path: source.path, code: ENOENT) }
        for folder in [files, info] {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StorageError(.trash, path: folder.path, code: StorageError.posixCode(of: error, fallback: EACCES))
            }
        }
        let name = uniqueName(for: (relativePath as NSString).lastPathComponent)
        let infoURL = info.appendingPathComponent(name + ".trashinfo")
        let text = "[Trash Info]\nPath=\(LibraryTrash.encode(relativePath))\nDeletionDate=\(LibraryTrash.dateFormatter.string(from: now))\n"
        try AtomicFileWriter.write(Data(text.utf8), to: infoURL)
        if let history, history.isEnabled {  // read now: the file is renamed next
            let contents = RegularFile.contents(of: source, followLinks: false)
            history.record(of: source, origin: .trashed) { contents }
        }
        let destination = files.appendingPathComponent(name)
        guard rename(source.path, destination.path) == 0 else {
            let error = StorageError(.trash, path: source.path)
            try? FileManager.default.removeItem(at: infoURL)
            throw error
        }
        AtomicFileWriter.syncFolder(files.path)
        AtomicFileWriter.syncFolder(source.deletingLastPathComponent().path)
        history?.moved(from: source, to: destination)
        return Item(name: name, originalPath: relativePath, deletedAt: now, url: destination)
    }

    /// What is in the Trash, most recently deleted first. A file without its info (copied in
    /// by hand, or its info lost) is listed too, as deleted at its modification time.
    public func items() -> [Item] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: files.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.map { name in
            let url = files.appendingPathComponent(name)
            if let parsed = parseInfo(of: name) {
                return Item(name: name, originalPath: parsed.path, deletedAt: parsed.date, url: url)
            }
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date()
            return Item(name: name, originalPath: name, deletedAt: modified, url: url)
        }.sorted { $0.deletedAt != $1.deletedAt ? $0.deletedAt > $1.deletedAt : $0.name < $1.name }
    }

    /// Puts the item back where it was (its folder made again if needed); if a note of that
    /// name is there now, under "NAME (restored).EXT". Returns the path, relative to the library.
    @discardableResult
    public func restore(_ item: Item) throws -> String {
        var relative = item.originalPath
        var target = library.appendingPathComponent(relative)
        // Never outside the library, whatever the info file says.
        if !target.standardizedFileURL.path.hasPrefix(library.standardizedFileURL.path + "/") {
            relative = item.name
            target = library.appendingPathComponent(relative)
        }
        let folder = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(.restore, path: folder.path, code: StorageError.posixCode(of: error, fallback: EACCES))
        }
        var attempt = 1
        while FileManager.default.fileExists(atPath: target.path) {
            let base = ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
            let ext = (relative as NSString).pathExtension
            let suffix = attempt == 1 ? " (restored)" : " (restored \(attempt))"
            let name = FileNameLength.fit(base, suffix + (ext.isEmpty ? "" : ".\(ext)"))
            let parent = (relative as NSString).deletingLastPathComponent
            relative = parent.isEmpty ? name : "\(parent)/\(name)"
            target = library.appendingPathComponent(relative)
            attempt += 1
        }
        guard rename(item.url.path, target.path) == 0 else { throw StorageError(.restore, path: item.url.path) }
        AtomicFileWriter.syncFolder(folder.path)
        if let history {
            let restored = target  // the history's queue reads it later: a constant, not the loop's variable
            history.moved(from: item.url, to: restored)
            history.record(of: restored, origin: .restoredFromTrash) { RegularFile.contents(of: restored, followLinks: false) }
        }
        try? FileManager.default.removeItem(at: info.appendingPathComponent(item.name + ".trashinfo"))
        return relative
    }

    /// Deletes the item for good; its history goes too unless `keepHistory` (the history
    /// then stays without a note).
    public func delete(_ item: Item, keepHistory: Bool = true) throws {
        do {
            try FileManager.default.removeItem(at: item.url)
        } catch {
            throw StorageError(.emptyTrash, path: item.url.path, code: StorageError.posixCode(of: error, fallback: EACCES))
        }
        history?.noteDeleted(item.url, keepHistory: keepHistory)
        try? FileManager.default.removeItem(at: info.appendingPathComponent(item.name + ".trashinfo"))
    }

    /// Deletes every item for good; returns how many went.
    @discardableResult
    public func empty(keepHistory: Bool = true) throws -> Int {
        let all = items()
        for item in all { try delete(item, keepHistory: keepHistory) }
        return all.count
    }

    /// Deletes for good what was deleted more than `days` days before `now`; returns how many.
    @discardableResult
    public func purge(olderThan days: Int, now: Date = Date()) -> Int {
        let limit = now.addingTimeInterval(-Double(days) * 86_400)
        var count = 0
        for item in items() where item.deletedAt < limit {
            if (try? delete(item)) != nil { count += 1 }
        }
        return count
    }

    // MARK: The info files

    /// A name free in both folders, short enough that NAME.trashinfo fits too.
    private func uniqueName(for name: String) -> String {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        let dotExt = ext.isEmpty ? "" : ".\(ext)"
        let infoSuffix = ".trashinfo"
        var candidate = FileNameLength.fit(base, dotExt + infoSuffix).dropLast(infoSuffix.count).description
        var attempt = 2
        while FileManager.default.fileExists(atPath: files.appendingPathComponent(candidate).path)
            || FileManager.default.fileExists(atPath: info.appendingPathComponent(candidate + infoSuffix).path) {
            candidate = FileNameLength.fit(base, ".\(attempt)\(dotExt)\(infoSuffix)").dropLast(infoSuffix.count).description
            attempt += 1
        }
        return candidate
    }

    private func parseInfo(of name: String) -> (path: String, date: Date)? {
        guard let data = RegularFile.contents(of: info.appendingPathComponent(name + ".trashinfo"), followLinks: false),
              let text = String(data: data, encoding: .utf8) else { return nil }
        var path: String?, date: Date?
        for line in text.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("Path=") { path = String(line.dropFirst(5)).removingPercentEncoding }
            if line.hasPrefix("DeletionDate=") { date = LibraryTrash.dateFormatter.date(from: String(line.dropFirst(13))) }
        }
        guard let path, let date, !path.isEmpty else { return nil }
        return (path, date)
    }

    private static func encode(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "%")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter
    }()
}
