import CGtk

/// Keeps the items of a string list whose string is in an allowed set (a GtkCustomFilter over
/// GtkStringObjects). GTK asks about each item in C; the answer is a lookup of the string's
/// bytes' fingerprint, so filtering 10,000 items allocates nothing.
public final class StringFilter: Object {
    /// Shared with the C callback (retained by GTK, released by its destroy notify).
    private final class Allowed {
        var fingerprints: Set<UInt64>?
    }

    private let allowed = Allowed()

    public init() {
        let data = Unmanaged.passRetained(allowed).toOpaque()
        super.init(UnsafeMutableRawPointer(gtk_custom_filter_new(stringFilterTrampoline, data, releaseFilterBox)!), .full)
    }

    /// Shows only the items whose string is in `strings` (nil: every item). GTK looks again
    /// only at the items that can change: the shown ones when the set narrows, the hidden ones
    /// when it widens.
    public func show(only strings: Set<String>?) {
        let before = allowed.fingerprints
        let after = strings.map { Set($0.map { StringFilter.fingerprint($0.utf8) }) }
        allowed.fingerprints = after
        let change: GtkFilterChange
        switch (before, after) {
        case (nil, nil): return
        case (nil, _): change = GTK_FILTER_CHANGE_MORE_STRICT
        case (_, nil): change = GTK_FILTER_CHANGE_LESS_STRICT
        case let (old?, new?):
            if new == old { return }
            change = new.isSubset(of: old) ? GTK_FILTER_CHANGE_MORE_STRICT
                : new.isSuperset(of: old) ? GTK_FILTER_CHANGE_LESS_STRICT : GTK_FILTER_CHANGE_DIFFERENT
        }
        gtk_filter_changed(ptr(), change)
    }

    /// FNV-1a over the UTF-8 bytes (the same for a Swift string and its C copy).
    fileprivate static func fingerprint<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    fileprivate static func allows(_ data: UnsafeMutableRawPointer?, _ string: UnsafePointer<CChar>) -> Bool {
        guard let data else { return true }
        let allowed = Unmanaged<Allowed>.fromOpaque(data).takeUnretainedValue()
        guard let fingerprints = allowed.fingerprints else { return true }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self), count: strlen(string))
        return fingerprints.contains(fingerprint(bytes))
    }
}

/// `gboolean (*GtkCustomFilterFunc)(gpointer item, gpointer user_data)`.
private let stringFilterTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { item, data in
    guard let item, let string = gtk_string_object_get_string(OpaquePointer(item)) else { return 0 }
    return StringFilter.allows(data, string) ? 1 : 0
}

/// GDestroyNotify: GTK calls it once, when the filter goes.
private let releaseFilterBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}
