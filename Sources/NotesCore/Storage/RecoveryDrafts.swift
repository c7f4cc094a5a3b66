import Foundation

/// Copies of unsaved text kept in `$XDG_STATE_HOME/notula/drafts/` whenever a note's text
/// exists only in memory (a failed save, a conflict, a deleted file, quitting anyway), so the
/// words survive a crash or a forced quit and can be offered back at the next start.
public final class RecoveryDrafts: Sendable {
    public struct Draft: Codable, Equatable, Sendable {
        /// The note's file path when the draft was written.
        public let notePath: String
        public let text: String
        public let date: Date
        /// Why the text was not in the note's file ("conflict", "save failed", …).
        public let reason: String
    }

    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// The shared drafts folder of this user.
    public static let standard = RecoveryDrafts(folder: XDGDirectories().appState.appendingPathComponent("drafts", isDirectory: true))

    public func save(_ text: String, for note: URL, reason: String) throws {
        try AtomicFileWriter.writeJSON(Draft(notePath: note.path, text: text, date: Date(), reason: reason), to: fileURL(for: note))
    }

    public func draft(for note: URL) -> Draft? {
        guard let data = RegularFile.contents(of: fileURL(for: note)) else { return nil }
        return decode(data)
    }

    /// A document opens on a note that still has a draft (left by an earlier one: a conflict,
    /// a failed save): the draft is kept under a name of its own, so the new document's drafts
    /// and saves never replace or remove it; the next start offers it back.
    public func setAside(for note: URL) {
        let own = fileURL(for: note)
        guard FileManager.default.fileExists(atPath: own.path) else { return }
        let kept = folder.appendingPathComponent(own.deletingPathExtension().lastPathComponent + "-" + UUID().uuidString.prefix(8) + ".json")
        rename(own.path, kept.path)
    }

    /// Removes the draft this note's document keeps (not drafts set aside for it).
    public func removeOwn(for note: URL) {
        unlink(fileURL(for: note).path)
    }

    /// Removes the note's draft (also one written under another file name, by an older
    /// version or by hand: any draft naming this note).
    public func remove(for note: URL) {
        let own = fileURL(for: note)
        if FileManager.default.fileExists(atPath: own.path) { try? FileManager.default.removeItem(at: own) }
        let path = note.standardizedFileURL.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".json") {
            let file = folder.appendingPathComponent(name)
            if let data = RegularFile.contents(of: file), let draft = decode(data),
               URL(fileURLWithPath: draft.notePath).standardizedFileURL.path == path {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Every draft, oldest first; damaged files are skipped.
    public func all() -> [Draft] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }
            .compactMap { RegularFile.contents(of: folder.appendingPathComponent($0)) }
            .compactMap(decode)
            .sorted { $0.date < $1.date }
    }

    private func decode(_ data: Data) -> Draft? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Draft.self, from: data)
    }

    private func fileURL(for note: URL) -> URL {
        let hash = String(ContentHash.of(Data(note.standardizedFileURL.path.utf8)), radix: 16)
        return folder.appendingPathComponent("\(hash).json")
    }
}
