import CGtk
import Dispatch
import Glibc

/// Lets `DispatchQueue.main` and `@MainActor` tasks run while GTK's main loop owns the main
/// thread. libdispatch signals pending main-queue work on an eventfd; a GLib fd source
/// watches it, resets it, then drains the queue — in that order, so no wake-up is lost.
public enum MainLoopBridge {
    private static var installed = false

    /// Installs the bridge once, on the main thread, before the GTK loop runs.
    public static func install() {
        guard !installed else { return }
        installed = true
        let fd = _dispatch_get_main_queue_port_4CF()
        let callback: GUnixFDSourceFunc = { fd, _, _ in
            var counter: UInt64 = 0
            _ = withUnsafeMutableBytes(of: &counter) { read(fd, $0.baseAddress, 8) }
            _dispatch_main_queue_callback_4CF(nil)
            return 1 // G_SOURCE_CONTINUE
        }
        g_unix_fd_add(fd, G_IO_IN, callback, nil)
    }

    /// Runs one iteration of the default GLib main context (for tests that drive the loop).
    @discardableResult
    public static func iterate(blocking: Bool = false) -> Bool {
        g_main_context_iteration(nil, blocking ? 1 : 0) != 0
    }

    /// Iterates the GLib main loop until `condition` holds or `timeout` seconds pass.
    @discardableResult
    public static func run(until condition: () -> Bool, timeout: Double) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        while !condition() {
            if DispatchTime.now().uptimeNanoseconds > deadline { return false }
            if !iterate() { usleep(2_000) }
        }
        return true
    }
}
