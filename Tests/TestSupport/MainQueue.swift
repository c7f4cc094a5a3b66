import Foundation

/// Runs the main queue until a condition holds: Foundation's run loop, plus a direct drain of
/// libdispatch's main queue each turn (as the app's GLib bridge does), so these tests do not
/// depend on how Foundation's run loop services the main queue on Linux.
public enum MainQueue {
    @_silgen_name("_dispatch_main_queue_callback_4CF")
    private static func drain(_ message: UnsafeMutableRawPointer?)

    public static func run(until condition: () -> Bool, timeout: TimeInterval, interval: TimeInterval = 0.005) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            RunLoop.main.run(until: Date().addingTimeInterval(interval))
            drain(nil)
        }
        return true
    }
}
