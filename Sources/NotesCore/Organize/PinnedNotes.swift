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
        let text = String(decoding: data, as: UTF8.self)
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    /// Writes the pins (sorted, so the file changes only when the pins do).
    public func save(_ pinned: Set<String>) throws {
        try FileSystem.makeFolders(fileURL.deletingLastPathComponent().path)
        let text = "# Notes pinned to the top of Notula's list, one path per line (relative to this library).\n"
            + pinned.sorted().map { $0 + "\n" }.joined()
        try AtomicFileWriter.write(Data(text.utf8), to: fileURL)
    }
}
