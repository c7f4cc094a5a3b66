import Foundation
import Gtk

/// For acceptance tests: with NOTULA_REPORT_KEYS=1 each window of notes prints `notula-key
/// KEYVAL` as a key press reaches it, before any widget handles it. Keys are handled in the
/// order they came, so once the line of a key sent last appears, every key sent before it has
/// been handled: a test that checks that typing did nothing (a read-only note) knows the
/// app had the keys, however slow a loaded machine made it.
enum KeysReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_KEYS"] != nil

    static func watch(_ window: Window) {
        guard isOn else { return }
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { _, keyval, _ in
            BenchmarkOutput.line("notula-key \(keyval)")
            return false
        }
        window.addController(keys)
    }
}
