import Foundation

/// Today's note (issue #48): one note per day, titled with the date — as ISO 8601 by default
/// (2026-11-30), or the user's language's long or full date ("30. November 2026", "Monday,
/// November 30, 2026") — made in the notebook the Preferences name (the top of the library by
/// default), which is made when it is not there yet.
public enum TodaysNote {
    public enum TitleStyle: String, Codable, CaseIterable, Sendable {
        case iso, long, full
    }

    /// The title of the note of `date`'s day.
    public static func title(for date: Date, style: TitleStyle, timeZone: TimeZone = .current, locale: Locale = .current) -> String {
        switch style {
        case .iso: return NoteTemplate.isoDate(date, timeZone: timeZone)
        case .long, .full:
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.timeZone = timeZone
            formatter.dateStyle = style == .long ? .long : .full
            formatter.timeStyle = .none
            return formatter.string(from: date)
        }
    }

    /// A notebook path as typed ("Journal", " /Work/Journal/ "), cleaned ("Work/Journal");
    /// "" for the top of the library; nil when it cannot be a notebook (a hidden name, "..",
    /// the pictures' folder at the top).
    public static func notebookPath(_ typed: String) -> String? {
        let parts = typed.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "/", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count <= 8 else { return nil }  // deeper notebooks are not listed
        var parent = ""
        for part in parts {
            guard NoteLibrary.isNotebook(part, in: parent), part != "..", part.utf8.count <= FileNameLength.maximumBytes else { return nil }
            parent = parent.isEmpty ? part : "\(parent)/\(part)"
        }
        return parent
    }

    /// Makes the folders of `notebook` that are missing in `library` (another program may make
    /// them at the same moment: one that is there already is fine). Blocks on disk.
    public static func prepare(notebook: String, in library: URL) throws {
        guard !notebook.isEmpty else { return }
        var folder = library
        for part in notebook.split(separator: "/") {
            folder = folder.appendingPathComponent(String(part), isDirectory: true)
            if mkdir(folder.path, 0o700) == 0 {
                AtomicFileWriter.syncFolder(folder.deletingLastPathComponent().path)
                continue
            }
            let code = errno
            var info = stat()
            // There already (made by another program meanwhile, say) and a real folder: fine.
            guard code == EEXIST, lstat(folder.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
                throw StorageError(.createFolder, path: folder.path, code: code == EEXIST ? ENOTDIR : code)
            }
        }
    }
}
