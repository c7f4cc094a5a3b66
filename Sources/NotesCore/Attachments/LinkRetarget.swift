import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Relative links that follow notes, files and notebooks to where they went: each link of a
/// note that leads inside the library (read from the folder the note was in) is written
/// again, from the folder the note is in now, to where its target went. Only addresses
/// change, and of an address only the names that changed (the rest keeps its own spelling:
/// "%C3%9C" stays so); code blocks, CRLF, the #fragment or ?query stay as they were. A note is
/// rewritten by `AtomicFileWriter.edit` (atomic, its mode kept, another program's version
/// never overwritten), so a stop at any instant leaves it old-linked or new-linked, and doing
/// it again changes nothing more. Its modification time is the rewrite's: set back, a change
/// of the same length would be skipped by backups and `rsync`'s quick check.
enum LinkRetarget {
    /// Where a library-relative path went: nil when it stayed.
    typealias Moves = (String) -> String?

    /// `text` of the note that was `oldID` and is `newID` (the same when it stayed), its links
    /// written again for `moved`; nil when nothing changes.
    static func retarget(_ text: String, from oldID: String, to newID: String, moved: Moves) -> String? {
        let oldFolder = (oldID as NSString).deletingLastPathComponent
        let newFolder = (newID as NSString).deletingLastPathComponent
        return NoteLinks.rewrite(text) { found in
            guard !found.inCode else { return nil }
            let address = found.link.address
            guard case .success(let path) = LibraryLinkResolver.relativePath(of: address, fromFolder: oldFolder), !path.isEmpty else { return nil }
            let target = moved(path)
            guard target != nil || oldFolder != newFolder,
                  let written = AttachmentLinkRebase.rebasedAddress(address, from: oldFolder, to: newFolder, target: target),
                  written != address else { return nil }
            return Array(written.unicodeScalars)
        }
    }

    /// Rewrites the note file at `url` as `retarget` does, when its text mentions one of
    /// `names` (a cheap look first: most notes link none of them) — or, for nil (many names:
    /// looking for each in every note would cost names × notes), when it holds a link at all.
    /// Returns whether it changed.
    @discardableResult
    static func retargetFile(at url: URL, from oldID: String, to newID: String, mentioning names: [NameMention]?, moved: Moves) throws -> Bool {
        // The cheap look reads the file once; only a note that mentions a name is edited.
        let mentionable = MentionText(try RegularFile.read(url).data)
        if let names {
            guard names.contains(where: { $0.isMentioned(in: mentionable) }) else { return false }
        } else {
            guard Self.linkMarks.contains(where: { mentionable.containsFolded($0) }) else { return false }
        }
        let edit = try AtomicFileWriter.edit(url) { data in
            guard let text = String(validating: data, as: UTF8.self),
                  let written = retarget(text, from: oldID, to: newID, moved: moved) else { return nil }
            return Data(written.utf8)
        }
        if case .written = edit { return true }
        return false
    }

    /// Past this many names moved at once (a selection of notes), a note is read closer when
    /// it holds any link, not when it mentions one of the names.
    static let mostNamesLookedFor = 32
    /// What every relative link holds: `](` inline, `]:` a definition, `<` an autolink.
    private static let linkMarks: [[UInt8]] = [Array("](".utf8), Array("]:".utf8), Array("<".utf8)]

    /// Where `path` went when the notes and files `items` (old → new path) and the folders
    /// `folders` (old → new) moved: its own entry, else its deepest moved folder's.
    static func moves(items: [String: String], folders: [String: String]) -> Moves {
        { path in
            if let target = items[path] { return target }
            guard !folders.isEmpty else { return nil }
            var parts = path.split(separator: "/").map(String.init)
            var rest: [String] = []
            while parts.count > 0 {
                if let target = folders[parts.joined(separator: "/")] { return ([target] + rest).joined(separator: "/") }
                rest.insert(parts.removeLast(), at: 0)
            }
            return nil
        }
    }

    /// After a note or notebook moved inside `library` (`moved` says where), the notes that
    /// link it are written again: every note of the library and of the Trash (read against
    /// where it was deleted from) whose text mentions `names`. `newID(of:)` gives a note's
    /// id from before the move for its id now (notes of a renamed notebook). A note that
    /// cannot be rewritten (read-only, a full disk) keeps its text; returns the ids rewritten.
    @discardableResult
    static func followMove(in library: URL, names: [String], moved: @escaping Moves, oldID: (String) -> String = { $0 }) -> [String] {
        let mentions = names.count <= mostNamesLookedFor ? names.map(NameMention.init) : nil
        var rewritten: [String] = []
        try? AttachmentUsage(library: library).forEachNote { url, noteID in
            if (try? retargetFile(at: url, from: oldID(noteID), to: noteID, mentioning: mentions, moved: moved)) == true {
                rewritten.append(noteID)
            }
        }
        return rewritten
    }
}
