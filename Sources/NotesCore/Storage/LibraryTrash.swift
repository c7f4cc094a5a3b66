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
        guard FileSystem.exists(source.path) else { throw StorageError(.trash, path: source.path, code: ENOENT) }
        for folder in [files, info] { try FileSystem.makeFolders(folder.path, for: .trash) }
        if let history, history.isEnabled {  // read now: the file is renamed next
            let contents = RegularFile.contents(of: source, followLinks: false)
            history.record(of: source, origin: .trashed) { contents }
        }
        // Names taken by another program (a second device's Trash arriving by sync) between
        // the look and the rename are skipped: nothing in the Trash is ever replaced.
        var name = uniqueName(for: (relativePath as NSString).lastPathComponent)
        var destination = files.appendingPathComponent(name)
        for attempt in 0... {
            let infoURL = info.appendingPathComponent(name + ".trashinfo")
            let text = "[Trash Info]\nPath=\(LibraryTrash.encode(relativePath))\nDeletionDate=\(LibraryTrash.dateFormatter.string(from: now))\n"
            do {
                try AtomicFileWriter.create(Data(text.utf8), at: infoURL)
            } catch let error as StorageError where error.code == EEXIST && attempt < 100 {
                name = uniqueName(for: (relativePath as NSString).lastPathComponent)
                destination = files.appendingPathComponent(name)
                continue
            }
            if renameWithoutReplacing(source.path, destination.path) == 0 { break }
            let error = StorageError(.trash, path: source.path)
            unlink(infoURL.path)
            guard error.code == EEXIST || error.code == ENOTEMPTY, attempt < 100 else { throw error }
            name = uniqueName(for: (relativePath as NSString).lastPathComponent)
            destination = files.appendingPathComponent(name)
        }
        AtomicFileWriter.syncFolder(files.path)
        AtomicFileWriter.syncFolder(source.deletingLastPathComponent().path)
        history?.moved(from: source, to: destination)
        return Item(name: name, originalPath: relativePath, deletedAt: now, url: destination)
    }

    /// What is in the Trash, most recently deleted first. A file without its info (copied in
    /// by hand, or its info lost) is listed too, as deleted at its modification time.
    public func items() -> [Item] {
        let names = (try? FolderEntries.read(files.path).map(\.name)) ?? []
        return names.filter { !$0.hasPrefix(".") }.map { name in
            let url = files.appendingPathComponent(name)
            if let parsed = parseInfo(of: name) {
                return Item(name: name, originalPath: parsed.path, deletedAt: parsed.date, url: url)
            }
            let modified = FileSystem.modificationDate(url.path) ?? Date()
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
        try FileSystem.makeFolders(folder.path, for: .restore)
        // Back in another folder than it left (its path was outside the library): its relative
        // links are written again for that folder first.
        let parent = (relative as NSString).deletingLastPathComponent
        let oldFolder = (item.originalPath as NSString).deletingLastPathComponent
        var rebased = false
        if parent != oldFolder, !FileSystem.isFolder(item.url.path) {
            rebased = (try? AttachmentLinkRebase.rebaseFile(at: item.url, from: item.originalPath, to: relative)) ?? false
        }
        // A note of that name there now (or one arriving at the same instant) keeps it; this
        // one becomes "NAME (restored).EXT".
        let original = (relative as NSString).lastPathComponent
        let base = (original as NSString).deletingPathExtension, ext = (original as NSString).pathExtension
        let name: String
        do {
            name = try FileSystem.renameToFreeName(item.url.path, in: folder.path, for: .restore) { attempt in
                guard attempt > 1 else { return original }
                let suffix = attempt == 2 ? " (restored)" : " (restored \(attempt - 1))"
                return FileNameLength.fit(base, suffix + (ext.isEmpty ? "" : ".\(ext)"))
            }
        } catch {
            if rebased { _ = try? AttachmentLinkRebase.rebaseFile(at: item.url, from: relative, to: item.originalPath) }
            throw error
        }
        relative = parent.isEmpty ? name : "\(parent)/\(name)"
        target = library.appendingPathComponent(relative)
        AtomicFileWriter.syncFolder(folder.path)
        if let history {
            let restored = target  // the history's queue reads it later: a constant, not the loop's variable
            history.moved(from: item.url, to: restored)
            history.record(of: restored, origin: .restoredFromTrash) { RegularFile.contents(of: restored, followLinks: false) }
        }
        unlink(info.appendingPathComponent(item.name + ".trashinfo").path)
        return relative
    }

    /// Deletes the item for good; its history goes too unless `keepHistory` (the history
    /// then stays without a note). Attachments it linked that no other note (in the library
    /// or the Trash, or the `openTexts` of notes open in an editor, by id) links go too.
    public func delete(_ item: Item, keepHistory: Bool = true, openTexts: [String: String] = [:]) throws {
        var linked = Set<String>()
        defer { removeUnused(linked, openTexts: openTexts) }
        try delete(item, keepHistory: keepHistory, collecting: &linked)
    }

    /// Deletes the items for good (several selected in the Trash), as `delete` does for one,
    /// the attachments looked at once for all. One that cannot be deleted stays, and is
    /// returned with why; the others go.
    public func delete(_ items: [Item], keepHistory: Bool = true, openTexts: [String: String] = [:]) -> [(Item, Error)] {
        var linked = Set<String>()
        defer { removeUnused(linked, openTexts: openTexts) }
        var failed: [(Item, Error)] = []
        for item in items {
            do {
                try delete(item, keepHistory: keepHistory, collecting: &linked)
            } catch {
                failed.append((item, error))
            }
        }
        return failed
    }

    /// Deletes every item for good; returns how many went. Then removes the attachments that
    /// only they linked (as `delete` does).
    @discardableResult
    public func empty(keepHistory: Bool = true, openTexts: [String: String] = [:]) throws -> Int {
        let all = items()
        var linked = Set<String>()
        defer { removeUnused(linked, openTexts: openTexts) }
        for item in all { try delete(item, keepHistory: keepHistory, collecting: &linked) }
        return all.count
    }

    /// Deletes for good what was deleted more than `days` days before `now`; returns how many.
    /// The attachments only they linked go too when `removingAttachments` — never on a synced
    /// library, where a device that is offline may have notes linking them that this one
    /// cannot see: there, Remove Unused Attachments… (asked) removes them.
    @discardableResult
    public func purge(olderThan days: Int, now: Date = Date(), removingAttachments: Bool = true) -> Int {
        let limit = now.addingTimeInterval(-Double(days) * 86_400)
        var count = 0
        var linked = Set<String>()
        for item in items() where item.deletedAt < limit {
            if (try? delete(item, keepHistory: true, collecting: &linked)) != nil { count += 1 }
        }
        if removingAttachments { removeUnused(linked, openTexts: [:]) }
        return count
    }

    /// Deletes one item, adding the attachments its notes link to `linked` (read from the text
    /// only, before it goes: a cheap look, and most notes link none).
    private func delete(_ item: Item, keepHistory: Bool, collecting linked: inout Set<String>) throws {
        try? AttachmentUsage.forEachNote(inTrashItem: item) { url, noteID in
            guard let text = NoteLinks.text(ofNoteAt: url) else { return }
            linked.formUnion(AttachmentLinkRebase.attachmentPaths(in: text, noteID: noteID))
        }
        try FileSystem.removeTree(item.url.path, for: .emptyTrash)
        history?.noteDeleted(item.url, keepHistory: keepHistory)
        unlink(info.appendingPathComponent(item.name + ".trashinfo").path)
    }

    /// Removes those of `paths` no note links any more. Only when there are any: emptying a
    /// Trash of notes without attachments reads no other note. A note that cannot be read, or
    /// any other failure, leaves the files (Remove Unused Attachments… finds them later and
    /// says why it cannot remove them).
    private func removeUnused(_ paths: Set<String>, openTexts: [String: String]) {
        guard !paths.isEmpty else { return }
        let usage = AttachmentUsage(library: library, openTexts: openTexts)
        let keys = Set(paths.map(AttachmentNames.key))
        let candidates = usage.files().filter { keys.contains(AttachmentNames.key($0)) }
        guard !candidates.isEmpty else { return }
        _ = try? usage.remove(candidates)
    }

    // MARK: The info files

    /// A name free in both folders, short enough that NAME.trashinfo fits too.
    private func uniqueName(for name: String) -> String {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        let dotExt = ext.isEmpty ? "" : ".\(ext)"
        let infoSuffix = ".trashinfo"
        var candidate = FileNameLength.fit(base, dotExt + infoSuffix).dropLast(infoSuffix.count).description
        var attempt = 2
        while FileSystem.exists(files.appendingPathComponent(candidate).path)
            || FileSystem.exists(info.appendingPathComponent(candidate + infoSuffix).path) {
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
            if line.hasPrefix("Path=") { path = Self.decode(String(line.dropFirst(5))) }
            if line.hasPrefix("DeletionDate=") { date = LibraryTrash.dateFormatter.date(from: String(line.dropFirst(13))) }
        }
        guard let path, let date, !path.isEmpty else { return nil }
        return (path, date)
    }

    /// The path's bytes, percent-encoded as the Trash format says (bytes that are not UTF-8
    /// too: the name comes back as it was).
    static func encode(_ path: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,;=:@".utf8)
        var encoded = ""
        for byte in PathBytes.bytes(path) {
            if unreserved.contains(byte) { encoded.unicodeScalars.append(Unicode.Scalar(byte)) } else { encoded += String(format: "%%%02X", byte) }
        }
        return encoded
    }

    /// A percent-encoded path back as a path string (nil when it is not well formed).
    static func decode(_ encoded: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = encoded.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        return PathBytes.string(bytes)
    }

    private static let dateFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter
    }()
}
