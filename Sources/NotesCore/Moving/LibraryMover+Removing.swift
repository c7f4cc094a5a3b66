import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Taking the sources away once their copies are safe, assuming another program (a sync
/// client, an editor) may write them at any instant: a source is first renamed to a private
/// name — a writer that replaces or re-creates the note's name afterwards makes a new file,
/// which the sweep carries — then compared with what was placed; a version written since the
/// copy is carried to the destination, never deleted.
extension LibraryMover {
    /// What was placed at the destination for a source, to compare the source with.
    enum Placed {
        /// A hard link to the source (same file system): the same inode.
        case sameFile(device: UInt64, inode: UInt64)
        /// A copy (another file system): the source as read, the copy's bytes' hash, and the
        /// copy as it was placed (to tell whether another program wrote it since).
        case copy(LibraryIndex.Identity?, hash: UInt64, placed: FileIdentity)
        /// A symbolic link, copied as such.
        case link
    }

    /// Removes `item`'s source if it is still what was placed; otherwise carries its newer
    /// version over the placed one first. Returns false when it could do neither (the source
    /// then stays, under its own name).
    @discardableResult
    func removeSource(_ item: MoveJournal.Item, placed: Placed) -> Bool {
        beforeRemovingSource?(item)
        let from = source.appendingPathComponent(item.source).path
        let to = destination.appendingPathComponent(item.target)
        let aside = asidePath(of: item)
        guard rename(from, aside) == 0 else { return errno == ENOENT }  // gone: another program removed it
        var info = stat()
        guard lstat(aside, &info) == 0 else { return false }
        switch placed {
        case .link:
            break
        case .sameFile(let device, let inode):
            if UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode { break }
            // Replaced between the link and now: the newer file takes the placed one's name, in
            // one step with a look at what it replaces (another program may have written the
            // placed one too: that version then stays beside).
            guard renameExchanging(aside, to.path) == 0 else {
                guard errno == ENOENT, Self.renameWithoutReplacing(aside, to.path) == 0 else { rename(aside, from); return false }
                return true
            }
            var out = stat()
            if lstat(aside, &out) == 0, UInt64(out.st_dev) == device, UInt64(out.st_ino) == inode {
                unlink(aside)
                return true
            }
            return (try? FileSystem.keepBeside(aside, of: to, for: .rename)) != nil
        case .copy(let identity, let hash, let placedCopy):
            let seen = LibraryIndex.Identity(info)
            if let identity, seen.device == identity.device, seen.inode == identity.inode, seen.size == identity.size,
               seen.mtime == identity.mtime { break }
            guard let now = try? FileIdentity.read(URL(fileURLWithPath: aside)) else { rename(aside, from); return false }
            if now.identity.contentHash == hash { break }
            // Written since the copy: that version is the note now — over the placed copy only
            // while that is still as placed (`replace`); one another program wrote since stays
            // and the newer source goes beside it.
            switch try? AtomicFileWriter.replace(now.data, at: to, expecting: placedCopy) {
            case .written:
                break
            case .missing:
                guard Self.renameWithoutReplacing(aside, to.path) == 0 || (try? FileSystem.keepBeside(aside, of: to, for: .rename)) != nil else { rename(aside, from); return false }
                return true
            case .foundOther:
                guard (try? FileSystem.keepBeside(aside, of: to, for: .rename)) != nil else { rename(aside, from); return false }
                return true
            case nil:
                rename(aside, from)
                return false
            }
        }
        unlink(aside)
        return true
    }

    /// Where a source waits while it is compared: a name of its own, found again from the
    /// item (not the destination's temporary marker, which a recovery removes), so a stop
    /// right then leaves it for `settleAsides`, never deleted.
    func asidePath(of item: MoveJournal.Item) -> String {
        let from = source.appendingPathComponent(item.source).path
        return (from as NSString).deletingLastPathComponent + "/.notula-leaving-" + String(ContentHash.of(Data(item.source.utf8)), radix: 16)
    }

    /// After a stop: a source left aside mid-comparison is removed when its placed copy holds
    /// the same bytes, or carried over it when it is a newer version.
    func settleAsides(_ journal: MoveJournal) {
        for item in journal.items where !item.isSymlink {
            let aside = asidePath(of: item)
            guard Self.exists(aside) else { continue }
            let to = destination.appendingPathComponent(item.target)
            if sameContent(URL(fileURLWithPath: aside), to) {
                unlink(aside)
                continue
            }
            // A newer version than the placed copy, or another program's at either name: the
            // aside goes over the placed copy as it is now (`replace`), or beside it when that
            // changes under the look.
            guard let read = try? FileIdentity.read(URL(fileURLWithPath: aside)) else { continue }
            switch FileIdentity.metadata(to).map({ try? AtomicFileWriter.replace(read.data, at: to, expecting: $0) }) {
            case .some(.some(.written)): unlink(aside)
            case .some(.some(.foundOther)), nil: _ = try? FileSystem.keepBeside(aside, of: to, for: .rename)
            default: continue
            }
        }
    }

    /// Notes another program wrote into the old folder while the move ran (a note re-created by
    /// an append after its source went, a new note): carried to the destination — under their
    /// own name when it is free, beside the moved note otherwise — until the old folder holds
    /// none (a few passes: a writer may still be at work). Returns the paths carried (relative
    /// to the destination).
    @discardableResult
    func sweepLeftovers(_ journal: MoveJournal) -> [String] {
        let targets = Dictionary(journal.items.map { ($0.source, $0.target) }, uniquingKeysWith: { first, _ in first })
        let folderTargets = Dictionary(zip(journal.folders, journal.destinationFolders).map { ($0, $1) }, uniquingKeysWith: { first, _ in first })
        var carried: [String] = []
        for _ in 0..<3 {
            let found = leftoverFiles(in: "", folderTargets: folderTargets)
            if found.isEmpty { break }
            for (relative, folder) in found {
                let name = (relative as NSString).lastPathComponent
                var target = targets[relative] ?? (folder.isEmpty ? name : folder + "/" + name)
                let to = destination.appendingPathComponent(target)
                if Self.exists(to.path) {
                    if removeIfCopied(source.appendingPathComponent(relative), placedAt: to) { continue }
                    let folderPath = to.deletingLastPathComponent().path
                    target = (target as NSString).deletingLastPathComponent
                    let free = FileSystem.freeName(name, in: folderPath)
                    target = target.isEmpty ? free : target + "/" + free
                }
                if carry(relative, to: target) { carried.append(target) }
            }
        }
        return carried
    }

    /// Regular files (no temporaries, nothing hidden, no sync metadata) under `relative` in the
    /// old folder, with the destination folder each goes to.
    private func leftoverFiles(in relative: String, folderTargets: [String: String]) -> [(String, String)] {
        let folder = relative.isEmpty ? source : source.appendingPathComponent(relative)
        guard let entries = try? FolderEntries.read(folder.path) else { return [] }
        var found: [(String, String)] = []
        for entry in entries where !entry.name.hasPrefix(".") && !Self.isSyncMetadata(entry.name) {
            let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
            var info = stat()
            guard lstat(source.appendingPathComponent(path).path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFREG: found.append((path, folderTargets[relative] ?? relative))
            case S_IFDIR: found += leftoverFiles(in: path, folderTargets: folderTargets)
            default: continue
            }
        }
        return found
    }

    /// Puts one leftover at `target` (never replacing), then removes it from the old folder as
    /// a source is removed.
    private func carry(_ relative: String, to target: String) -> Bool {
        let from = source.appendingPathComponent(relative)
        let to = destination.appendingPathComponent(target)
        try? FileSystem.makeFolders(to.deletingLastPathComponent().path)
        // The identity compared later is the one of the very file read (one open): a look
        // after the read could see a newer version and take it for the one carried.
        guard let (data, info) = try? RegularFile.read(from) else { return false }
        guard let placed = try? AtomicFileWriter.create(data, at: to, newFileMode: info.st_mode & 0o7777) else { return false }
        let item = MoveJournal.Item(source: relative, target: target, isSymlink: false)
        return removeSource(item, placed: .copy(LibraryIndex.Identity(info), hash: ContentHash.of(data), placed: placed))
    }
}
