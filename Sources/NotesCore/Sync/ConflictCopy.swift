import Foundation

/// A conflict copy that a sync client left beside a note, recognised by its name:
/// - Syncthing: `NAME.sync-conflict-YYYYMMDD-HHMMSS-DEVICEID.EXT` (the suffix goes before the
///   last extension; DEVICEID is the first 7 characters of the device id whose version won);
/// - Nextcloud and ownCloud: `NAME (conflicted copy YYYY-MM-DD HHMMSS).EXT`;
/// - Dropbox: `NAME (WHO's conflicted copy YYYY-MM-DD).EXT`, sometimes with " (1)" inside.
/// Copies are not notes of their own: they belong to the note `originalName`.
public struct ConflictCopy: Equatable, Sendable {
    public enum Client: String, Equatable, Sendable {
        case syncthing = "Syncthing", nextcloud = "Nextcloud or ownCloud", dropbox = "Dropbox"

        /// The client's name as the user reads it (`rawValue` stays English).
        public var title: String {
            switch self {
            case .syncthing: return "Syncthing"  // a product name
            // TRANSLATORS: the names of two sync programs.
            case .nextcloud: return tr("Nextcloud or ownCloud")
            case .dropbox: return "Dropbox"  // a product name
            }
        }
    }

    public let client: Client
    /// The copy's file name.
    public let name: String
    /// The file name of the note it belongs to.
    public let originalName: String
    /// What the client wrote into the name about where and when (device id, date, who).
    public let detail: String
    /// Syncthing: the short id of the device whose version won (the one left in the note).
    public var device: String? = nil

    private static let syncthing = try? NSRegularExpression(pattern: #"^(.+)\.sync-conflict-(\d{8}-\d{6})-([A-Z0-9]{7})(\.[^.]*)?$"#)
    private static let bracketed = try? NSRegularExpression(pattern: #"^(.+) \((.*conflicted copy.*)\)(\.[^.\s]*)?$"#)

    /// Every conflict copy's name contains this ("sync-conflict", "conflicted copy"): names
    /// without it are turned away before a regular expression runs (a library lists every name).
    static let marker = Array("conflict".utf8)

    /// Whether `name` could be a conflict copy at all (a byte search, no regular expression).
    public static func mightBe(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { containsMarker(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the bytes of a name contain `marker` (Glibc's `memmem` is not exported to Swift).
    static func containsMarker(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= marker.count else { return false }
        let first = marker[0]
        for start in 0...(bytes.count - marker.count) where bytes[start] == first {
            var index = 1
            while index < marker.count, bytes[start + index] == marker[index] { index += 1 }
            if index == marker.count { return true }
        }
        return false
    }

    /// The conflict copy a file name describes, or nil for any other name.
    public static func parse(_ name: String) -> ConflictCopy? {
        guard mightBe(name) else { return nil }
        let range = NSRange(name.startIndex..., in: name)
        func group(_ match: NSTextCheckingResult, _ index: Int) -> String {
            guard let range = Range(match.range(at: index), in: name) else { return "" }
            return String(name[range])
        }
        if let match = syncthing?.firstMatch(in: name, range: range) {
            return ConflictCopy(client: .syncthing, name: name, originalName: group(match, 1) + group(match, 4),
                                detail: "device \(group(match, 3)), \(group(match, 2))", device: group(match, 3))
        }
        if let match = bracketed?.firstMatch(in: name, range: range) {
            let inside = group(match, 2)
            let client: Client = inside.hasPrefix("conflicted copy") ? .nextcloud : .dropbox
            return ConflictCopy(client: client, name: name, originalName: group(match, 1) + group(match, 3), detail: inside)
        }
        return nil
    }
}
