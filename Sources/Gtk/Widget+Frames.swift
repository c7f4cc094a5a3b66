import CGtk

extension Widget {
    /// Runs `body` at the start of each frame from the second on (a tick callback runs before
    /// its frame's layout: the second sees the next frame laid out and drawn) until it returns
    /// true. GTK ticks only realized, mapped widgets: call it for a widget on screen.
    public func onFramesAfterNextLayout(_ body: @escaping () -> Bool) {
        var skip = true
        let tick: () -> Bool = {
            if skip {
                skip = false
                return false
            }
            return body()
        }
        gtk_widget_add_tick_callback(widget, tickTrampoline, Unmanaged.passRetained(SignalHandler(tick)).toOpaque(), releaseBox)
    }
}

/// `gboolean (*)(GtkWidget *, GdkFrameClock *, gpointer)`: G_SOURCE_REMOVE once the box's
/// closure says it is done.
nonisolated private let tickTrampoline: GtkTickCallback = { _, _, data in
    onMainActor(UnsafeMutableRawPointer(data)) { data, _ in (SignalHandler<() -> Bool>.from(data)?() ?? true) ? 0 : 1 }
}
