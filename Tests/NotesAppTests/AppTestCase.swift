import Foundation
import Gtk
import XCTest

/// Base for tests of Notula's real widgets under Xvfb.
class AppTestCase: XCTestCase {
    override func setUpWithError() throws {
        guard GtkRuntime.initialize() else { throw XCTSkip("no display: run under scripts/with-display.sh") }
    }

    @discardableResult
    func spin(until condition: () -> Bool, timeout: Double = 5) -> Bool {
        MainLoopBridge.run(until: condition, timeout: timeout)
    }

    func makeFolder() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("notula-apptest-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
