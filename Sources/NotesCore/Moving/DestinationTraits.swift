import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the file system of a move's destination can hold, found out by trying it there (the
/// type of a file system says little: FAT and exFAT come as kernel drivers or FUSE programs,
/// each with its own rules). FAT and exFAT refuse hard links, symbolic links, the characters
/// `: ? * < > | " \` and control characters, and do not tell `Todo.md` from `todo.md`; some
/// FAT drivers take no character outside ASCII (fusefat), or none past Latin-1 (vfat with an
/// 8-bit iocharset), while exFAT takes names longer than 255 bytes of UTF-8.
public struct DestinationTraits: Equatable, Sendable {
    /// link(): the move links a file into place; otherwise it renames it there.
    public var canLink: Bool
    /// rename() onto an existing file replaces it, as every save of a note needs.
    public var canReplace = true
    public var canSymlink: Bool
    /// `Todo.md` and `todo.md` are two files (false: the second finds the first).
    public var isCaseSensitive: Bool
    /// Characters refused in a name (control characters included).
    public var refusedCharacters: Set<Unicode.Scalar>
    /// Ranges of characters past ASCII refused in a name: Latin-1, the rest of the Basic
    /// Multilingual Plane, the planes above it (each tried with one of its letters).
    public var refusedRanges: [ClosedRange<UInt32>]
    /// Names ending in "." or " " are refused, altered, or unreadable on Windows: the FAT
    /// family's own rule, applied wherever the destination refuses Windows' characters (the
    /// Linux vfat driver silently drops a trailing dot; Windows cannot open such a file).
    public var refusesTrailingDotOrSpace: Bool
    /// The longest name, in bytes.
    public var nameMax: Int
    /// Names whose bytes are not UTF-8 ("caf\xe9.md") are refused (FAT and exFAT drivers store
    /// UTF-16): such a name arrives as what its bytes most likely meant (`PathBytes.repaired`).
    public var refusesNamesNotUTF8 = false

    /// A POSIX file system with nothing refused (ext4, btrfs, tmpfs).
    public static let posix = DestinationTraits(canLink: true, canSymlink: true, isCaseSensitive: true, refusedCharacters: [],
                                                refusedRanges: [], refusesTrailingDotOrSpace: false, nameMax: FileNameLength.maximumBytes)

    /// The characters Windows (and so FAT, exFAT and NTFS drivers) refuse in names; each is tried.
    static let windowsCharacters: [Unicode.Scalar] = [":", "?", "*", "<", ">", "|", "\"", "\\"]

    /// Tries every rule in `folder` (which exists) with probe files, and removes them again.
    /// Throws the errno when nothing can be created there (read-only, no permission, full).
    public static func probe(_ folder: URL) throws(ProbeFailure) -> DestinationTraits {
        let base = ".notula-probe-" + String((0..<8).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        var created: [String] = []
        defer { for name in created.reversed() { unlink(path(name)) } }
        /// Whether a file of this name can be made (and is kept for removal at the end).
        func make(_ name: String) -> Bool {
            let fd = open(path(name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return false }
            close(fd)
            created.append(name)
            return true
        }
        guard make(base) else { throw ProbeFailure(code: errno) }
        // A probe stopped half-way (a crash) left its files: they are ours, and useless.
        for name in (try? FolderEntries.read(folder.path).map(\.name)) ?? []
        where name.hasPrefix(".notula-probe-") && !name.hasPrefix(base) {
            unlink(path(name))
        }
        var traits = DestinationTraits.posix
        traits.canLink = link(path(base), path(base + "-link")) == 0
        if traits.canLink { created.append(base + "-link") }
        traits.canSymlink = symlink(base, path(base + "-symlink")) == 0
        if traits.canSymlink { created.append(base + "-symlink") }
        var info = stat()
        traits.isCaseSensitive = lstat(path(base.uppercased()), &info) != 0
        // A rename onto an existing file replaces it (POSIX); fusefat 0.3 (Debian 13) answers
        // EEXIST, so no note could be saved there twice.
        traits.canReplace = make(base + "-r1") && make(base + "-r2") && rename(path(base + "-r1"), path(base + "-r2")) == 0
        // Each awkward name is made, then looked for in the folder as it was written: a driver
        // may take a name and keep another (fusefat 0.3 cuts it at a control character, vfat
        // drops a trailing dot), which is a name it refuses.
        let characterNames = windowsCharacters.map { ($0, "\(base)-\($0)x") }
        let controlName = "\(base)-\u{1}x"
        let rangeNames = [("é", 0x80...0xFF), ("日", 0x100...0xFFFF), ("😀", 0x10000...0x10FFFF)].map { ($1, "\(base)-\($0)x") }
            as [(ClosedRange<UInt32>, String)]
        let notUTF8Name = PathBytes.string(Array("\(base)-".utf8) + [0xE9] + Array("x".utf8))
        let trailingNames = ["\(base)-t.", "\(base)-s "]
        let made = Set((characterNames.map(\.1) + [controlName] + rangeNames.map(\.1) + [notUTF8Name] + trailingNames).filter(make))
        let listed = Set((try? FolderEntries.read(folder.path, keeping: { $0.starts(with: base.utf8) }).map(\.name)) ?? [])
        let kept = { (name: String) in made.contains(name) && listed.contains(name) }
        traits.refusedCharacters = Set(characterNames.filter { !kept($0.1) }.map(\.0))
        if !kept(controlName) {
            traits.refusedCharacters.formUnion((0x01...0x1F).compactMap(Unicode.Scalar.init))
        }
        traits.refusedRanges = rangeNames.filter { !kept($0.1) }.map(\.0)
        traits.refusesNamesNotUTF8 = !kept(notUTF8Name)
        traits.refusesTrailingDotOrSpace = !trailingNames.allSatisfy(kept) || !traits.refusedCharacters.isEmpty
        let said = pathconf(folder.path, Int32(_PC_NAME_MAX))
        traits.nameMax = longestName(said: said > 0 ? min(Int(said), 1024) : FileNameLength.maximumBytes, base: base, make: make)
        return traits
    }

    /// The longest name that can be made: what pathconf `said`, tried, else found by halving
    /// (a FUSE file system may say 255 and refuse less).
    private static func longestName(said: Int, base: String, make: (String) -> Bool) -> Int {
        let name = { (length: Int) in base + "-" + String(repeating: "n", count: max(0, length - base.utf8.count - 1)) }
        if make(name(said)) { return said }
        var fits = base.utf8.count + 2, tooLong = said
        while tooLong - fits > 1 {
            let middle = (fits + tooLong) / 2
            if make(name(middle)) { fits = middle } else { tooLong = middle }
        }
        return fits
    }

    /// The errno of a probe that could not create a file.
    public struct ProbeFailure: Error {
        public let code: Int32
    }

    /// Whether `name` can be used as it is (its length aside).
    public func allows(_ name: String) -> Bool {
        if refusesNamesNotUTF8, PathBytes.hasEscapes(name) { return false }
        if !refusedCharacters.isEmpty || !refusedRanges.isEmpty, name.unicodeScalars.contains(where: refuses) { return false }
        if refusesTrailingDotOrSpace, let last = name.last, last == "." || last == " " { return false }
        return true
    }

    func refuses(_ scalar: Unicode.Scalar) -> Bool {
        refusedCharacters.contains(scalar) || (scalar.value >= 0x80 && refusedRanges.contains { $0.contains(scalar.value) })
    }

    /// `name` with each refused character replaced — by its letter without accents where that
    /// is allowed ("é" → "e"), else by "_" — and a trailing dot or space dropped.
    public func allowedName(for name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in (refusesNamesNotUTF8 ? PathBytes.repaired(name) : name).unicodeScalars {
            guard refuses(scalar) else { scalars.append(scalar); continue }
            let letters = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                .filter { $0.properties.generalCategory != .nonspacingMark }
            if !letters.isEmpty, !letters.contains(where: refuses) { scalars.append(contentsOf: letters) } else { scalars.append("_") }
        }
        var result = String(scalars)
        if refusesTrailingDotOrSpace {
            while let last = result.last, last == "." || last == " " { result.removeLast() }
        }
        return result.isEmpty ? "_" : result
    }

    /// The key under which the destination finds `name`: its bytes, lowercased where case is
    /// not told apart (a conservative fold: two names that might be one are kept apart).
    public func lookupKey(_ name: String) -> [UInt8] {
        PathBytes.bytes(isCaseSensitive ? name : name.lowercased())
    }
}
