import Foundation

/// Why a move of all notes cannot start or could not finish.
public enum MoveError: Error, Equatable, CustomStringConvertible {
    case nested(source: String, destination: String)
    case destinationUnavailable(path: String, code: Int32)
    case notEnoughSpace(path: String, needed: Int64, available: Int64)
    /// The destination has no symbolic links (FAT, exFAT), and these files of the library are links.
    case linksRefused(path: String, links: [String])
    /// The destination's driver cannot replace a file by renaming onto it (fusefat 0.3), so no
    /// note could be saved there a second time.
    case cannotReplaceFiles(path: String)
    /// A file could not be put in a folder of the destination (not a fault of the note).
    case couldNotPlace(name: String, folder: String, code: Int32)
    case cancelled
    case failed(StorageError)

    public var description: String {
        switch self {
        case .nested(let source, let destination):
            // TRANSLATORS: %1$s is the new notes folder, %2$s the current one (full paths).
            return tr("“%1$s” and “%2$s” are inside one another; choose a folder outside the notes folder.", destination, source)
        case .destinationUnavailable(let path, let code):
            // TRANSLATORS: %1$s is a folder's full path, %2$s the system's reason.
            return tr("“%1$s” cannot be written: %2$s.", path, String(cString: strerror(code)))
        case .notEnoughSpace(let path, let needed, let available):
            let format = ByteCountFormatter()
            // TRANSLATORS: %1$s is a folder's full path, %2$s and %3$s are sizes such as “1.2 GB”.
            return tr("“%1$s” has %2$s free; the notes need %3$s.", path, format.string(fromByteCount: available), format.string(fromByteCount: needed))
        case .linksRefused(let path, let links):
            // TRANSLATORS: %1$d is a count, %2$s a folder's full path, %3$s a list of file names.
            return trn("“%2$s” cannot hold symbolic links, and %1$d file of your notes is one: %3$s. Replace it with the file it points to, or choose another folder.",
                       "“%2$s” cannot hold symbolic links, and %1$d files of your notes are: %3$s. Replace them with the files they point to, or choose another folder.",
                       links.count, links.count, PathBytes.display(path), links.prefix(8).map(PathBytes.display).joined(separator: ", "))
        case .cannotReplaceFiles(let path):
            // TRANSLATORS: %s is a folder's full path.
            return tr("“%s” cannot replace a file with a newer version (its file system driver refuses), so notes could not be saved there. Choose another folder, or mount the drive with another driver.",
                      PathBytes.display(path))
        case .couldNotPlace(let name, let folder, let code):
            // TRANSLATORS: %1$s is a file name, %2$s the folder's full path, %3$s the system's reason.
            return tr("“%1$s” could not be put in “%2$s”: %3$s.", PathBytes.display(name), PathBytes.display(folder), String(cString: strerror(code)))
        case .cancelled:
            return tr("The move was cancelled; every note is back where it was.")
        case .failed(let error):
            return error.description
        }
    }
}
