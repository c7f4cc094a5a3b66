import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The library's one folder of attachments (`attachments/` at its top: pictures and other
/// files of every note). Files come in as copies, never moved from their source, written like
/// notes are (a temporary in the folder, fsync, a rename that never replaces, the folder
/// fsynced), mode 0600 in a 0700 folder, streamed in chunks (a 500 MB file is never in memory
/// at once), under a readable, safe and unique name (`AttachmentNames`). Nothing is left
/// behind on failure. Every method may block on disk; call them off the main thread.
public struct AttachmentStore: Sendable {
    public static let folderName = "attachments"
    /// How much is copied per read and write.
    static let chunkSize = 1 << 20

    public let library: URL

    public init(library: URL) {
        self.library = library.standardizedFileURL
    }

    /// library/attachments
    public var folder: URL { library.appendingPathComponent(Self.folderName, isDirectory: true) }

    /// Copies the regular file at `source` (a symbolic link given by the user is followed; the
    /// file must be regular: FIFOs and devices are refused without blocking) under a safe
    /// unique name; returns its library-relative path "attachments/NAME".
    public func add(copyOf source: URL) throws -> String {
        let (input, info) = try RegularFile.openForReading(source.path, followLinks: true)
        defer { close(input) }
        return try store(named: source.lastPathComponent, size: Int64(info.st_size)) { output, destination in
            var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress!, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw StorageError(.read, path: source.path)
                }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try Self.writeAll(output, $0.baseAddress!, count, path: destination) }
            }
        }
    }

    /// Writes `data` as a new attachment named like `suggestedName` (made safe and unique).
    public func add(_ data: Data, suggestedName: String) throws -> String {
        try store(named: suggestedName, size: Int64(data.count)) { output, destination in
            try data.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                try Self.writeAll(output, base, buffer.count, path: destination)
            }
        }
    }

    /// "pasted-YYYY-MM-DD-HHMMSS.png" in local time.
    public static func pastedImageName(at date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        return "pasted-\(formatter.string(from: date)).png"
    }

    // MARK: Writing

    /// Makes the folder, writes a temporary with `fill`, and gives it its name.
    private func store(named suggested: String, size: Int64, fill: (Int32, String) throws -> Void) throws -> String {
        let folderPath = folder.path
        let safeName = AttachmentNames.safe(suggested)
        try FileSystem.makeFolders(folderPath, mode: 0o700, for: .createFolder)
        var template = PathBytes.bytes("\(folderPath)/\(AtomicFileWriter.temporaryMarker)XXXXXX") + [0]
        let fd = template.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { mkstemp($0.baseAddress!) } }
        let destinationForErrors = folderPath + "/" + safeName
        guard fd >= 0 else { throw StorageError(.write, path: destinationForErrors) }
        let temporary = PathBytes.string(template.dropLast())
        var committed = false
        defer { if !committed { unlink(temporary) } }
        do {
            defer { close(fd) }
            // FAT and exFAT keep no modes (EPERM / ENOSYS): nothing to set there.
            guard fchmod(fd, 0o600) == 0 || errno == EPERM || errno == ENOSYS || errno == EOPNOTSUPP else {
                throw StorageError(.write, path: destinationForErrors)
            }
            var space = statvfs()
            if fstatvfs(fd, &space) == 0, Int64(space.f_bavail) * Int64(space.f_frsize) < size {
                throw StorageError(.write, path: destinationForErrors, code: ENOSPC)  // said before a byte is written
            }
            try fill(fd, destinationForErrors)
            guard fsync(fd) == 0 else { throw StorageError(.sync, path: destinationForErrors) }
        }
        // A name free now may be taken by the time of the rename (another window, a sync
        // client): the rename never replaces, and the next name is tried.
        for _ in 0..<1000 {
            let name = AttachmentNames.unique(safeName, among: AttachmentNames.existingKeys(in: folderPath))
            if renameWithoutReplacing(temporary, folderPath + "/" + name) == 0 {
                committed = true
                AtomicFileWriter.syncFolder(folderPath)
                return Self.folderName + "/" + name
            }
            guard errno == EEXIST else { throw StorageError(.write, path: folderPath + "/" + name) }
        }
        throw StorageError(.write, path: destinationForErrors, code: EEXIST)
    }

    private static func writeAll(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int, path: String) throws {
        var offset = 0
        while offset < count {
            let written = Glibc.write(fd, base + offset, count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw StorageError(.write, path: path)
            }
            offset += written
        }
    }
}
