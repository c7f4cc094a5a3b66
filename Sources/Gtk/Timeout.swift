import CGtk

/// Runs `handler` once after `milliseconds` on the main loop (a GLib timeout at the default
/// priority, so with 0 before the next frame is drawn).
public enum Timeout {
    public static func once(milliseconds: UInt32, _ handler: @escaping () -> Void) {
        let callback: GSourceFunc = { data in
            SourceClosure.run(data)
            return 0 // G_SOURCE_REMOVE
        }
        g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, SourceClosure.retain(handler), releaseBox)
    }
}

/// A repeating GLib timeout on the main loop; stops when cancelled or freed.
@MainActor  // explicit for its isolated deinit (see Object)
public final class RepeatingTimeout {
    private var sourceID: guint = 0

    public init(milliseconds: UInt32, _ handler: @escaping () -> Void) {
        let callback: GSourceFunc = { data in
            SourceClosure.run(data)
            return 1 // G_SOURCE_CONTINUE
        }
        sourceID = g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, callback, SourceClosure.retain(handler), releaseBox)
    }

    public func cancel() {
        if sourceID != 0 { g_source_remove(sourceID) }
        sourceID = 0
    }

    isolated deinit { cancel() }
}
