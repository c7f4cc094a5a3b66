import CGtk

extension Widget {
    /// Runs `body` at the start of the second frame from now, when the next frame has laid out
    /// and drawn what changed before this call (a tick callback runs before its frame's layout).
    /// GTK ticks only mapped widgets: nothing runs while this one is not on screen.
    public func afterNextLayout(_ body: @escaping () -> Void) {
        var ticksLeft = 2
        let tick: () -> Bool = {
            ticksLeft -= 1
            guard ticksLeft == 0 else { return false }
            body()
            return true
        }
        gtk_widget_add_tick_callback(widget, tickTrampoline, Unmanaged.passRetained(SignalHandler(tick)).toOpaque(), releaseBox)
    }
}

/// `gboolean (*)(GtkWidget *, GdkFrameClock *, gpointer)`: G_SOURCE_REMOVE once the box's
/// closure says it is done.
nonisolated private let tickTrampoline: GtkTickCallback = { _, _, data in
    onMainActor(UnsafeMutableRawPointer(data)) { data, _ in (SignalHandler<() -> Bool>.from(data)?() ?? true) ? 0 : 1 }
}
