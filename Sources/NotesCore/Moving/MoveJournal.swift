import Foundation

/// The plan of a move of all notes, written (atomically) before the first file moves and
/// removed after the last: if Notula stops half-way, the next start finds it and finishes the
/// move. Every item's progress can be read off the disk (is the source still there? is the
/// target complete?), so the journal needs no per-file writes.
public struct MoveJournal: Codable, Equatable, Sendable {
    public struct Item: Codable, Equatable, Sendable {
        /// Path relative to the source folder.
        public let source: String
        /// Path relative to the destination folder (differs when a name collided).
        public let target: String
        public let isSymlink: Bool
    }

    public let source: String
    public let destination: String
    public let items: [Item]
    /// Folders (relative) to create at the destination, parents first.
    public let folders: [String]
    public let started: Date

    public static func url(in stateFolder: URL) -> URL { stateFolder.appendingPathComponent("move-journal.json") }

    public func write(to url: URL) throws {
        try AtomicFileWriter.writeJSON(self, to: url)
    }

    public static func read(from url: URL) -> MoveJournal? {
        guard let data = RegularFile.contents(of: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(MoveJournal.self, from: data)
    }
}
