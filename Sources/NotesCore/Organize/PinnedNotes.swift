import Foundation

/// Which notes are pinned, kept IN the library so pins move and sync with the notes:
/// `.notula/pinned.txt`, plain UTF-8 text, one note path per line, relative to the library
/// folder ("note-20261121-101010-ab12c.md"); blank lines and lines starting with "#" are
/// ignored. Hidden, so neither Notula nor other notes apps list it as a note. Written
/// atomically; a pin whose note is gone is harmless and dropped at the next write.
public struct PinnedNotes: Sendable {
    public let library: URL

    public init(library: URL) {
        self.library = library
    }

    public var fileURL: URL { library.appendingPathComponent(".notula/pinned.txt") }

    /// The pinned note paths (empty when there is no file or it cannot be read).
    public func load() -> Set<String> {
        guard let data = RegularFile.contents(of: fileURL, followLinks: false) else { return [] }
        return Self.parse(data)
    }

    /// Writes the pins (sorted, so the file changes only when the pins do), over whatever is
    /// there: for a library being made (a move of all notes). Pinning in a library in use goes
    /// through `change`, which keeps what another device wrote.
    public func save(_ pinned: Set<String>) throws {
        try FileSystem.makeFolders(fileURL.deletingLastPathComponent().path)
        try AtomicFileWriter.write(Self.render(pinned), to: fileURL)
    }

    /// Pins and unpins notes in the file as it is now, so pins another device wrote since it
    /// was read (a sync client) stay: the file is read, changed and replaced only if it is still
    /// that version (`AtomicFileWriter.edit`), or made when there is none (never over one that
    /// appeared meanwhile). Returns every pin the file holds then.
    @discardableResult
    public func change(pinning: Set<String> = [], unpinning: Set<String> = []) throws -> Set<String> {
        try FileSystem.makeFolders(fileURL.deletingLastPathComponent().path)
        var pins = Set<String>()
        for _ in 0..<4 {
            switch try? AtomicFileWriter.edit(fileURL, { data in
                pins = Self.parse(data).union(pinning).subtracting(unpinning)
                let changed = Self.render(pins)
                return changed == data ? nil : changed
            }) {
            case .written, .unchanged:
                return pins
            case .missing, nil:
                pins = pinning.subtracting(unpinning)
                do {
                    try AtomicFileWriter.create(Self.render(pins), at: fileURL)
                    return pins
                } catch let error as StorageError where error.code == EEXIST {
                    continue  // another device's file came: change that one
                }
            }
        }
        throw StorageError(.write, path: fileURL.path, code: EAGAIN)
    }

    static func parse(_ data: Data) -> Set<String> {
        let text = String(decoding: data, as: UTF8.self)
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    static func render(_ pinned: Set<String>) -> Data {
        Data(("# Notes pinned to the top of Notula's list, one path per line (relative to this library).\n"
            + pinned.sorted().map { $0 + "\n" }.joined()).utf8)
    }
}
