import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Chooses the name each entry of the library gets at a move's destination: its own where the
/// destination can hold it and nothing there or in the move has it; else a name the
/// destination allows ("a:b.md" → "a_b.md" on FAT), cut to its length limit, numbered as
/// "name (2).md" when taken — by a file already there, or by another entry of the move that
/// differs only in case where the destination does not tell case apart. A notebook whose
/// name is a folder already there joins it (as before). Nothing is ever overwritten.
struct DestinationNames {
    let traits: DestinationTraits
    let destination: URL
    /// Per folder of the destination (relative): the lookup keys planned there, and the exact names.
    private var keys: [String: Set<[UInt8]>] = [:]
    private var exact: [String: Set<[UInt8]>] = [:]
    /// Per existing folder of the destination, its entries by lookup key (read when first needed).
    private var existing: [String: [[UInt8]: String]] = [:]

    init(traits: DestinationTraits, destination: URL) {
        self.traits = traits
        self.destination = destination
    }

    /// Whether `name` can keep its name as far as the destination's rules go (taken names aside).
    func isAllowedAsIs(_ name: String) -> Bool {
        traits.allows(name) && PathBytes.bytes(name).count <= traits.nameMax
    }

    /// The name `name` gets in the destination folder `folder` (relative; "" is the top), and
    /// why it differs, if it does. `preferred` is tried first (a Trash entry's info file
    /// follows its note's new name).
    mutating func name(for name: String, in folder: String, isFolder: Bool, preferred: String? = nil) -> (String, MoveRename.Reason?) {
        var reason: MoveRename.Reason?
        var wanted = preferred ?? name
        if preferred == nil {
            let allowed = traits.allowedName(for: name)
            if allowed != name { reason = .notAllowed }
            let fitted = fit(allowed, isFolder: isFolder)
            if fitted != allowed { reason = reason ?? .tooLong }
            wanted = fitted
        } else if wanted != name {
            reason = .notAllowed
        }
        var candidate = wanted
        var number = 2
        while true {
            let key = traits.lookupKey(candidate)
            if keys[folder]?.contains(key) == true {
                reason = reason ?? (exact[folder]?.contains(PathBytes.bytes(candidate)) == true ? .nameTaken : .caseOnly)
            } else if let there = existingName(for: key, candidate: candidate, in: folder) {
                var info = stat()
                let thereIsFolder = lstat(path(folder, there), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
                if isFolder && thereIsFolder {  // a notebook of that name is there: the notes join it
                    claim(there, key: key, in: folder)
                    return (there, there == name ? nil : reason ?? .caseOnly)
                }
                reason = reason ?? .nameTaken
            } else {
                claim(candidate, key: key, in: folder)
                return (candidate, candidate == name ? nil : reason)
            }
            candidate = numbered(wanted, number, isFolder: isFolder)
            number += 1
        }
    }

    private mutating func claim(_ name: String, key: [UInt8], in folder: String) {
        keys[folder, default: []].insert(key)
        exact[folder, default: []].insert(PathBytes.bytes(name))
    }

    private func path(_ folder: String, _ name: String) -> String {
        (folder.isEmpty ? destination : destination.appendingPathComponent(folder)).appendingPathComponent(name).path
    }

    /// The name of what the destination already has under `candidate` (its own spelling where
    /// case is not told apart), or nil.
    private mutating func existingName(for key: [UInt8], candidate: String, in folder: String) -> String? {
        var info = stat()
        guard lstat(path(folder, candidate), &info) == 0 else { return nil }
        if traits.isCaseSensitive { return candidate }
        if existing[folder] == nil {
            let url = folder.isEmpty ? destination : destination.appendingPathComponent(folder)
            let names = (try? FolderEntries.read(url.path).map(\.name)) ?? []
            existing[folder] = Dictionary(names.map { (traits.lookupKey($0), $0) }, uniquingKeysWith: { first, _ in first })
        }
        return existing[folder]?[key] ?? candidate
    }

    /// `name` cut to the destination's length limit, keeping a file's extension.
    private func fit(_ name: String, isFolder: Bool) -> String {
        guard PathBytes.bytes(name).count > traits.nameMax else { return name }
        let (stem, tail) = split(name, isFolder: isFolder)
        return trimmed(FileNameLength.fit(stem, tail, maximumBytes: traits.nameMax))
    }

    /// "name (n).ext" (a folder: "name (n)"), within the length limit.
    private func numbered(_ name: String, _ number: Int, isFolder: Bool) -> String {
        let (stem, tail) = split(name, isFolder: isFolder)
        return FileNameLength.fit(stem, " (\(number))" + tail, maximumBytes: traits.nameMax)
    }

    private func split(_ name: String, isFolder: Bool) -> (stem: String, tail: String) {
        let ext = (name as NSString).pathExtension
        guard !isFolder, !ext.isEmpty, ext.utf8.count < traits.nameMax / 2 else { return (name, "") }
        return ((name as NSString).deletingPathExtension, "." + ext)
    }

    /// A cut can leave a trailing dot or space the destination refuses.
    private func trimmed(_ name: String) -> String {
        traits.refusesTrailingDotOrSpace ? traits.allowedName(for: name) : name
    }
}
