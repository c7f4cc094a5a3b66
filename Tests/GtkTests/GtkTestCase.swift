import Gtk
import TestSupport
import XCTest

/// Base for tests of real GTK widgets: needs a display (run under scripts/with-display.sh).
class GtkTestCase: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated override func setUpWithError() throws {
        try MainActor.assumeIsolated {
            guard GtkRuntime.initialize() else { throw cannotRun("no display: run under scripts/with-display.sh") }
        }
    }

    /// Turns the GLib loop (only GLib's, never Foundation's run loop) until `condition` holds.
    func spin(until condition: () -> Bool, timeout: Double = 5) -> Bool {
        MainLoopBridge.run(until: condition, timeout: timeout)
    }

    /// Turns the loop until GTK has drawn a frame (and so laid out) after now.
    @discardableResult
    func spinUntilNextFrame(of widget: Widget) -> Bool {
        var painted = false
        widget.onNextFramePainted { painted = true }
        return spin(until: { painted })
    }

    /// A 300 × 400 window scrolling `content`, on screen (the caller destroys the window).
    func presentScrolling(_ content: Widget) -> (scroller: ScrolledWindow, window: Window) {
        let scroller = ScrolledWindow()
        scroller.child = content
        let window = Window()
        window.setDefaultSize(width: 300, height: 400)
        window.child = scroller
        window.present()
        return (scroller, window)
    }
}

/// Records when it is freed: put one in a closure to see whether the closure was released.
final class Sentinel {
    private let onDeinit: () -> Void
    init(_ onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    func touch() {}
    isolated deinit { onDeinit() }
}
