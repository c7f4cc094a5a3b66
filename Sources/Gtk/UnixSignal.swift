import CGtk

/// Runs a handler in the GLib main loop when the process receives a Unix signal
/// (SIGTERM at logout, SIGINT from a terminal), instead of dying mid-sentence.
public enum UnixSignal {
    public static func watch(_ signal: Int32, _ handler: @escaping () -> Void) {
        let callback: GSourceFunc = { data in
            SourceClosure.run(data)
            return 1 // G_SOURCE_CONTINUE: a second signal runs the handler again
        }
        g_unix_signal_add_full(G_PRIORITY_HIGH, signal, callback, SourceClosure.retain(handler), releaseBox)
    }
}
