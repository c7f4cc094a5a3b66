import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A note moved to another folder keeps its relative links working: each one that leads to a
/// place inside the library is written again from the new folder ("attachments/x.png" from
/// the top becomes "../attachments/x.png" in "Work"). Every other byte stays as it was:
/// links that lead out, web addresses, code blocks, line breaks (CRLF stays CRLF), a
/// #fragment or ?query after a rewritten path.
public enum AttachmentLinkRebase {
    /// `text` with its links rewritten for the move of note `oldID` to `newID`, or nil when
    /// nothing changes.
    public static func rebase(_ text: String, from oldID: String, to newID: String) -> String? {
        let oldFolder = (oldID as NSString).deletingLastPathComponent
        let newFolder = (newID as NSString).deletingLastPathComponent
        guard oldFolder != newFolder else { return nil }
        return NoteLinks.rewrite(text) { found in
            guard !found.inCode else { return nil }
            let address = found.link.address
            guard case .success(let path) = LibraryLinkResolver.relativePath(of: address, fromFolder: oldFolder), !path.isEmpty,
                  let rebased = rebasedAddress(address, from: oldFolder, to: newFolder), rebased != address else { return nil }
            return Array(rebased.unicodeScalars)
        }
    }

    /// `address` (checked to lead inside the library from `oldFolder`) from `newFolder`: as
    /// many ".." as needed, then the address's own spelling of each name it had ("%C3%9C"
    /// stays so), the #fragment or ?query as it was. With `target`, to that library-relative
    /// path instead (a file that moved): names that changed are encoded as Notula writes them.
    static func rebasedAddress(_ address: String, from oldFolder: String, to newFolder: String, target: String? = nil) -> String? {
        let trimmed = address.trimmingCharacters(in: .whitespaces)
        let tailStart = trimmed.firstIndex { $0 == "#" || $0 == "?" } ?? trimmed.endIndex
        // Each name of the path with how it is spelled: the folder's own encoded, the address's as written.
        var parts: [(name: String, spelling: String)] = oldFolder.split(separator: "/").map { (String($0), AttachmentLink.encode(String($0))) }
        for raw in trimmed[..<tailStart].split(separator: "/") {
            guard let name = LibraryLinkResolver.percentDecoded(raw) else { return nil }
            switch name {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append((name, String(raw)))
            }
        }
        guard !parts.isEmpty else { return nil }
        if let target {
            let names = target.split(separator: "/").map(String.init)
            guard !names.isEmpty else { return nil }
            let last = parts.last!
            parts = names.enumerated().map { index, name in
                if index < parts.count - 1, parts[index].name == name { return parts[index] }
                if index == names.count - 1, last.name == name { return last }
                return (name, AttachmentLink.encode(name))
            }
        }
        let from = newFolder.split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < parts.count - 1, from[common] == parts[common].name { common += 1 }
        let path = Array(repeating: "..", count: from.count - common) + parts[common...].map(\.spelling)
        // A path that ended with "/" (a folder) keeps it.
        let slash = trimmed[..<tailStart].hasSuffix("/") ? "/" : ""
        return path.joined(separator: "/") + slash + trimmed[tailStart...]
    }

    /// Whether any link of `text` leads into `attachments/` when read from `noteID`'s folder.
    static func linksAttachments(_ text: String, noteID: String) -> Bool {
        !attachmentPaths(in: text, noteID: noteID).isEmpty
    }

    /// The library-relative paths under `attachments/` that `text` links from `noteID`'s folder
    /// (by text only: the disk is not asked).
    static func attachmentPaths(in text: String, noteID: String) -> Set<String> {
        let folder = (noteID as NSString).deletingLastPathComponent
        var paths = Set<String>()
        for address in NoteLinks.addresses(in: text) {
            if case .success(let path) = LibraryLinkResolver.relativePath(of: address, fromFolder: folder),
               path.hasPrefix(AttachmentStore.folderName + "/") {
                paths.insert(path)
            }
        }
        return paths
    }

    /// Rewrites the note file at `url` (known in the library as `oldID`) for its move to
    /// `newID` by `AtomicFileWriter.edit` (atomic, its mode kept, another program's version
    /// rebased rather than overwritten). Returns whether it changed. A file that is not UTF-8
    /// is left as it is.
    @discardableResult
    public static func rebaseFile(at url: URL, from oldID: String, to newID: String) throws -> Bool {
        let edit = try AtomicFileWriter.edit(url) { data in
            guard let text = String(validating: data, as: UTF8.self), let rebased = rebase(text, from: oldID, to: newID) else { return nil }
            return Data(rebased.utf8)
        }
        if case .written = edit { return true }
        return false
    }
}
