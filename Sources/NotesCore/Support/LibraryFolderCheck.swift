import Foundation

/// Which folders may hold the library. A preferences file edited by hand (or damaged) can
/// name anything: an empty or relative path would make the working directory the library
/// (its README and src/ listed as notes, deletable), "/" would walk the whole file system,
/// and the home folder or a system folder is full of files that are not notes. Only an
/// absolute folder that is none of these is used; anything else gets the unavailable-folder
/// banner with the reason, and nothing in it is read or written.
public enum LibraryFolderCheck: Sendable {
    /// Folders that belong to the system (and everything in them). Not /run (removable disks
    /// mount in /run/media) nor /var (Fedora Silverblue's homes are in /var/home).
    static let systemFolders = ["/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc",
                                "/sbin", "/sys", "/usr"]

    /// Why `path` cannot be the library, in words that finish "… is not available (REASON)",
    /// or nil when it can.
    public static func problem(with path: String, home: String = NSHomeDirectory()) -> String? {
        let trimmed = path.trimmingCharacters(in: .whitespaces)
        // TRANSLATORS: why a notes folder cannot be used; shown in parentheses after “… is not available”, so it starts in lowercase.
        if trimmed.isEmpty { return tr("no folder is set") }
        // TRANSLATORS: why a notes folder cannot be used (in parentheses, lowercase); %s is the path as written.
        guard path.hasPrefix("/") else { return tr("“%s” is not a full path starting with /", path) }
        let normalized = normalize(path)
        // TRANSLATORS: why a notes folder cannot be used (in parentheses, lowercase).
        if normalized == "/" { return tr("the top of the file system cannot hold notes") }
        if normalized == normalize(home) || normalized == normalize(realPath(home)) {
            // TRANSLATORS: why a notes folder cannot be used (in parentheses, lowercase).
            return tr("your home folder itself cannot hold notes; choose a folder inside it")
        }
        for system in systemFolders where normalized == system || normalized.hasPrefix(system + "/") {
            // TRANSLATORS: why a notes folder cannot be used (in parentheses, lowercase); %s is a path such as /usr.
            return tr("%s is a system folder", system)
        }
        return nil
    }

    /// Why notes cannot be moved into `path`, or nil when they can: `problem(with:)`, and a folder
    /// in a sync client's own bookkeeping (Syncthing's `.stfolder` and `.stversions`, Dropbox's
    /// `.dropbox.cache` …), which the client never syncs: notes moved there would look synced
    /// and stay on this device. A folder chooser that went into the synced folder offers its
    /// first subfolder, often `.stfolder`, to a hasty Select.
    public static func destinationProblem(with path: String, home: String = NSHomeDirectory()) -> String? {
        if let problem = problem(with: path, home: home) { return problem }
        for part in normalize(path).split(separator: "/") where LibraryMover.isSyncMetadata(String(part)) {
            // TRANSLATORS: why notes cannot be moved into a folder (in parentheses, lowercase); %s is a folder name such as .stfolder.
            return tr("“%s” is the sync client’s own folder, which it never syncs", String(part))
        }
        return nil
    }

    /// The path without "//", "/./", "/../" and a trailing "/" (lexically: the folder may not exist).
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func realPath(_ path: String) -> String {
        NotesCore.realPath(path) ?? path
    }
}
