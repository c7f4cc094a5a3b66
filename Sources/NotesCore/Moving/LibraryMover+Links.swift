import Foundation

extension LibraryMover {
    /// The moved notes' relative links to entries that arrived under another name (a picture
    /// "a:b.png" that is "a_b.png" on FAT, a case-only twin "photo (2).png", a renamed
    /// notebook) are written again to those names (`LinkRetarget`). Only when something was
    /// renamed, and only notes whose text mentions a renamed name are parsed. Each note is
    /// rewritten by `AtomicFileWriter.edit` (never over another program's version), and a rewritten link names a
    /// path no entry of the move had before, so doing it again (recovery after a stop
    /// half-way) leaves rewritten notes as they are and finishes the rest. A note that cannot
    /// be rewritten keeps its text.
    func followRenames(_ journal: MoveJournal, placed: [MoveJournal.Item]) {
        var items: [String: String] = [:]
        for item in placed where item.source != item.target && !item.source.hasPrefix(".notula/") { items[item.source] = item.target }
        var folders: [String: String] = [:]
        for (folder, target) in zip(journal.folders, journal.destinationFolders) where folder != target { folders[folder] = target }
        guard !items.isEmpty || !folders.isEmpty else { return }
        let names = Set(items.keys.map { ($0 as NSString).lastPathComponent } + folders.keys.map { ($0 as NSString).lastPathComponent })
        let mentions = names.map(NameMention.init)
        let moved = LinkRetarget.moves(items: items, folders: folders)
        for item in placed where MovedNote.isNote(item) {
            _ = try? LinkRetarget.retargetFile(at: destination.appendingPathComponent(item.target), from: item.source, to: item.target,
                                               mentioning: mentions, moved: moved)
        }
    }

    /// Note languages are keyed by file name (`NoteLanguages`): a note renamed on the way keeps
    /// its language, and a languages file that landed beside the destination's own ("languages
    /// (2).txt") is merged into it, then removed. Done again after a stop half-way: an entry
    /// already carried is left alone.
    func carryLanguages(placed: [MoveJournal.Item]) {
        var renamed: [String: String] = [:]
        for item in placed where MovedNote.isNote(item) {
            let old = NoteLanguages.key(item.source), new = NoteLanguages.key(item.target)
            if old != new { renamed[old] = new }
        }
        let beside = placed.first { $0.source == NoteLanguages.path && $0.target != NoteLanguages.path }
        guard !renamed.isEmpty || beside != nil else { return }
        let languages = NoteLanguages(library: destination)
        let before = languages.load()
        var entries = before
        if let beside {
            entries.merge(NoteLanguages.entries(in: destination.appendingPathComponent(beside.target))) { _, moved in moved }
        }
        for (old, new) in renamed where entries[new] == nil {
            if let language = entries.removeValue(forKey: old) { entries[new] = language }
        }
        guard entries != before || beside != nil, (try? languages.save(entries)) != nil else { return }
        if let beside { unlink(destination.appendingPathComponent(beside.target).path) }
    }
}
