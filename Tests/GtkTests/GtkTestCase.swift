import Gtk
import XCTest

/// Base for tests of real GTK widgets: needs a display (run under scripts/with-display.sh).
class GtkTestCase: XCTestCase {
    override func setUpWithError() throws {
        guard GtkRuntime.initialize() else { throw XCTSkip("no display: run under scripts/with-display.sh") }
    }

    /// Turns the GLib loop (only GLib's, never Foundation's run loop) until `condition` holds.
    func spin(until condition: () -> Bool, timeout: Double = 5) -> Bool {
        MainLoopBridge.run(until: condition, timeout: timeout)
    }
}

/// Records when it is freed: put one in a closure to see whether the closure was released.
final class Sentinel {
    private let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    func touch() {}
    deinit { onDeinit() }
}
