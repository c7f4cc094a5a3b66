import Foundation
import Gtk

/// For acceptance tests: with NOTULA_REPORT_INPUT=1 each window of notes prints `notula-key
/// KEYVAL` as a key press reaches it, and `notula-press X Y` (window coordinates) as a mouse
/// button press does, before any widget handles either. Input is handled in the order it
/// came, so once the line of a key sent last appears, every key sent before it has been
/// handled: a test that checks that typing did nothing (a read-only note) knows the app had
/// the keys, however slow a loaded machine made it; a click that opened nothing can tell
/// whether the press reached the window at all, and where. Every button clicked anywhere prints
/// `notula-clicked LABEL`: a press through AT-SPI comes 250 ms late (GTK's press animation), and
/// a test that goes on before it would meet the dialog the click was to close.
enum InputReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_INPUT"] != nil

    /// Installed with the first window watched, once.
    private static let clicks: Void = Button.onEveryClick { label in
        BenchmarkOutput.line("notula-clicked \(label)")
    }

    static func watch(_ window: Window) {
        guard isOn else { return }
        clicks
        window.addController(reporter())
        // Never claims the press: the widget below handles it as without the report.
        let presses = ClickGesture(button: 0)
        presses.runBeforeWidget()
        presses.onPressed { _, _, x, y in
            BenchmarkOutput.line("notula-press \(Int(x.rounded())) \(Int(y.rounded()))")
        }
        window.addController(presses)
    }

    /// A menu's own surface: `notula-menu-key KEYVAL` as a key reaches it (the main menu,
    /// driven by the keyboard in tests: whether a key that moved nothing reached it at all).
    static func watch(_ menuButton: MenuButton) {
        guard isOn else { return }
        menuButton.addMenuController(reporter(prefix: "notula-menu-key"))
    }

    private static func reporter(prefix: String = "notula-key") -> KeyController {
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { _, keyval, _ in
            BenchmarkOutput.line("\(prefix) \(keyval)")
            return false
        }
        return keys
    }
}
