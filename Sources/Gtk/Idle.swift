import CGtk

/// Work for when the main loop has nothing more urgent: a GLib idle source at
/// G_PRIORITY_DEFAULT_IDLE, below input events and GTK's redraw (GDK_PRIORITY_REDRAW), so a
/// long job cut into slices never delays a frame or a keystroke. (DispatchQueue.main runs at
/// the default priority, above drawing: slices queued there would hold every frame back.)
public enum Idle {
    public static func once(_ handler: @escaping () -> Void) {
        let callback: GSourceFunc = { data in
            SourceClosure.run(data)
            return 0 // G_SOURCE_REMOVE
        }
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, callback, SourceClosure.retain(handler), releaseBox)
    }
}

/// A Swift closure as a GLib source's data: boxed and retained when the source is added,
/// released by the source's destroy notify (`releaseBox`).
enum SourceClosure {
    static func retain(_ handler: @escaping () -> Void) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(SignalHandler<() -> Void>(handler)).toOpaque()
    }

    /// Runs the closure of a source's data. Our sources are attached to the default main
    /// context, which only the main thread iterates (GTK's loop, or a test turning it): the
    /// main actor.
    nonisolated static func run(_ data: UnsafeMutableRawPointer?) {
        onMainActor(data) { data, _ in SignalHandler<() -> Void>.from(data)?() }
    }
}
