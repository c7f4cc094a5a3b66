/// The picture formats Notula decodes, told apart by their first bytes (never by a file's
/// name): PNG, JPEG, GIF, WebP, BMP and SVG. Anything else (ANI, ICO, TGA, XPM, QTIF, ICNS…,
/// which gdk-pixbuf has loaders for and would sniff its way to) is not a picture here, so a
/// file arriving through a synced folder reaches only these decoders.
public enum PictureFormat: String, CaseIterable, Sendable {
    case png, jpeg, gif, webp, bmp, svg

    /// The format of `bytes`, or nil when they are none of these.
    public static func of<Bytes: Collection>(_ bytes: Bytes) -> PictureFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(4096))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) { return .webp }
        // "BM", then the file's size and two reserved zero words: ICO, ANI and CUR differ.
        if head.count >= 26, head.starts(with: Array("BM".utf8)), head[6..<10].allSatisfy({ $0 == 0 }) { return .bmp }
        if isSVG(head) { return .svg }
        return nil
    }

    /// Text that opens with markup and names an `<svg` element in its first 4 KB.
    private static func isSVG(_ head: [UInt8]) -> Bool {
        var text = head[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard text.first == UInt8(ascii: "<") else { return false }
        let needle = Array("<svg".utf8)
        guard text.count >= needle.count else { return false }
        return (text.startIndex...(text.endIndex - needle.count)).contains { text[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// gdk-pixbuf's name for the loader (`gdk_pixbuf_loader_new_with_type`).
    public var loaderName: String { rawValue }

    /// The media type, for `data:` addresses.
    public var mediaType: String {
        switch self {
        case .svg: return "image/svg+xml"
        default: return "image/\(rawValue)"
        }
    }
}
