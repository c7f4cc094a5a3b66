import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a relative link of a note against the note's folder and says what it leads to,
/// refusing every way out of the library: `..` past its top, absolute paths and schemes
/// (`file:`, `~`), the same spelled with percent-encoding, NUL bytes, symbolic links whose
/// real path is outside, and the library's private and hidden folders (`.notula`: the Trash,
/// the history). Notes open in Notula; anything else is a file the caller may open.
public struct LibraryLinkResolver: Sendable {
    public let library: URL

    public init(library: URL) {
        self.library = library.standardizedFileURL
    }

    /// Percent-decodes, drops a #fragment / ?query, reads it against the note's folder,
    /// refuses every way out of the library. Web and mail addresses are `.notRelative`.
    public func resolve(_ address: String, from note: NoteLocation) -> Result<LinkTarget, LinkRefusal> {
        switch Self.relativePath(of: address, fromFolder: note.folderID) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let path):
            if path.isEmpty { return .success(.note(note.noteID)) }  // "#heading": the note itself
            return checked(path)
        }
    }

    /// The library-relative path `address` names from `folder` ("" for the top): "" for an
    /// address that is only a #fragment. Only text: the disk is not asked.
    public static func relativePath(of address: String, fromFolder folder: String) -> Result<String, LinkRefusal> {
        let trimmed = address.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains("\0") else { return .failure(.invalid) }
        if hasScheme(trimmed) || trimmed.hasPrefix("/") || trimmed.hasPrefix("~") || trimmed.hasPrefix("\\") { return .failure(.notRelative) }
        let end = trimmed.firstIndex { $0 == "#" || $0 == "?" } ?? trimmed.endIndex
        let encoded = trimmed[..<end]
        if encoded.isEmpty { return trimmed.first == "#" ? .success("") : .failure(.invalid) }
        guard let decoded = percentDecoded(encoded) else { return .failure(.invalid) }
        if decoded.hasPrefix("/") || decoded.hasPrefix("~") || hasScheme(decoded) { return .failure(.notRelative) }
        var parts = folder.split(separator: "/").map(String.init)
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return .failure(.outsideLibrary) }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        guard !parts.isEmpty else { return .failure(.outsideLibrary) }  // the library folder itself
        if parts.contains(where: { $0.hasPrefix(".") }) { return .failure(.privateFolder) }
        return .success(parts.joined(separator: "/"))
    }

    /// What the library-relative `path` is, with symbolic links on the way followed and
    /// checked: they must stay inside the library and out of its hidden folders.
    private func checked(_ path: String) -> Result<LinkTarget, LinkRefusal> {
        let libraryPath = library.path
        let realLibrary = realPath(libraryPath) ?? libraryPath
        // The deepest part of the path that is there, resolved; the rest is appended as it is.
        var parts = path.split(separator: "/").map(String.init)
        var missing: [String] = []
        var real: String?
        while !parts.isEmpty {
            let candidate = libraryPath + "/" + parts.joined(separator: "/")
            if FileSystem.exists(candidate) {
                guard let resolved = realPath(candidate) else { return .failure(.outsideLibrary) }  // a dangling link
                real = resolved
                break
            }
            missing.insert(parts.removeLast(), at: 0)
        }
        var relative: String
        if let real {
            guard real.hasPrefix(realLibrary + "/") else { return .failure(.outsideLibrary) }
            relative = String(real.dropFirst(realLibrary.count + 1))
        } else {
            relative = ""
        }
        if !missing.isEmpty { relative = relative.isEmpty ? missing.joined(separator: "/") : relative + "/" + missing.joined(separator: "/") }
        let resolvedParts = relative.split(separator: "/")
        if resolvedParts.contains(where: { $0.hasPrefix(".") }) { return .failure(.privateFolder) }
        let name = String(resolvedParts.last ?? "")
        let inAttachments = resolvedParts.count > 1 && resolvedParts[0] == Substring(AttachmentStore.folderName)
        if NoteLibrary.isNoteFileName(name), !inAttachments, !FileSystem.isFolder(libraryPath + "/" + relative) {
            return .success(.note(relative))
        }
        return .success(.file(library.appendingPathComponent(relative)))
    }

    /// "http:", "file:", "mailto:", "C:" — a scheme (RFC 3986), so not a relative path.
    static func hasScheme<S: StringProtocol>(_ address: S) -> Bool {
        guard let colon = address.firstIndex(of: ":"), colon != address.startIndex else { return false }
        let scheme = address[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return scheme.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }
    }

    /// The address's bytes with %XX decoded, as a path string (bytes that are not UTF-8 kept);
    /// nil for a bad escape or a NUL.
    static func percentDecoded<S: StringProtocol>(_ encoded: S) -> String? {
        var bytes: [UInt8] = []
        var utf8 = PathBytes.bytes(String(encoded))[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            let digits = utf8.prefix(2)
            guard digits.count == 2, digits.allSatisfy({ Character(UnicodeScalar($0)).isHexDigit }),
                  let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        guard !bytes.contains(0) else { return nil }
        return PathBytes.string(bytes)
    }
}
