import Foundation

/// The plan of a move of all notes, written (atomically) before the first file moves and
/// removed after the last: if Notula stops half-way, the next start finds it and finishes the
/// move. Every item's progress can be read off the disk (is the source still there? is the
/// target complete?), so the journal needs no per-file writes. Renamed entries (a name the
/// destination refuses, or has) are planned here too, so a finished move has the same names.
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
    /// The source's folders (relative), parents first: made at the destination, removed at
    /// the source when the move emptied them.
    public let folders: [String]
    /// Each folder's path at the destination, where a notebook was renamed (nil: the same).
    public let folderTargets: [String]?
    public let started: Date
    /// The pinned notes by their paths at the destination (with any already pinned there),
    /// written to its `.notula/pinned.txt` at the end; nil when nothing changes.
    public var pins: [String]?

    public init(source: String, destination: String, items: [Item], folders: [String], folderTargets: [String]? = nil,
                started: Date, pins: [String]? = nil) {
        self.source = source
        self.destination = destination
        self.items = items
        self.folders = folders
        self.folderTargets = folderTargets
        self.started = started
        self.pins = pins
    }

    /// The folders to make at the destination, parents first.
    public var destinationFolders: [String] { folderTargets ?? folders }

    /// The notes, files and notebooks whose own name changes, as "old → new" pairs (their
    /// Trash records and the pins file follow their notes: not listed).
    public var renamedNames: [(from: String, to: String)] {
        let folderPairs = zip(folders, destinationFolders).map { ($0, $1) }
        let itemPairs = items.filter { !$0.source.hasPrefix(".notula/Trash/info/") && $0.source != LibraryMover.pinsPath }
            .map { ($0.source, $0.target) }
        return (folderPairs + itemPairs).compactMap { source, target in
            let from = (source as NSString).lastPathComponent, to = (target as NSString).lastPathComponent
            return from == to ? nil : (from, to)
        }
    }

    public static func url(in stateFolder: URL) -> URL { stateFolder.appendingPathComponent("move-journal.json") }

    public func write(to url: URL) throws {
        try AtomicFileWriter.writeJSON(self, to: url)
    }

    /// Most a journal may hold: a plan for millions of notes is a few hundred MB.
    static let maximumBytes = 512 << 20

    public enum Reading: Equatable, Sendable {
        case none
        case journal(MoveJournal)
        /// There, but not a journal Notula wrote (cut short, garbled, or naming paths outside
        /// its two folders): renamed to `aside`, nothing moved by it.
        case damaged(aside: String)
    }

    /// The journal at `url`, checked: its folders absolute, every path relative and inside
    /// them (no `..`, nothing absolute, no NUL), so a damaged or foreign file can never make
    /// the recovery move or remove a file elsewhere. A damaged one is set aside.
    public static func read(from url: URL) -> Reading {
        guard FileSystem.exists(url.path) else { return .none }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        if let data = try? RegularFile.read(url, followLinks: false, maximumBytes: maximumBytes).data,
           let journal = try? decoder.decode(MoveJournal.self, from: data), journal.isWellFormed {
            return .journal(journal)
        }
        let aside = url.path + ".damaged-\(Int(Date().timeIntervalSince1970))"
        guard rename(url.path, aside) == 0 else { return .damaged(aside: url.path) }
        return .damaged(aside: aside)
    }

    var isWellFormed: Bool {
        func relative(_ path: String) -> Bool {
            !path.isEmpty && !path.hasPrefix("/") && !path.contains("\0")
                && !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
        }
        func absolute(_ path: String) -> Bool {
            path.hasPrefix("/") && !path.contains("\0") && !path.split(separator: "/").contains("..")
        }
        return absolute(source) && absolute(destination) && source != destination
            && items.allSatisfy { relative($0.source) && relative($0.target) }
            && folders.allSatisfy(relative) && (folderTargets ?? []).allSatisfy(relative)
            && (folderTargets == nil || folderTargets!.count == folders.count)
            && (pins ?? []).allSatisfy(relative)
    }
}
