import Foundation
import Gtk
import NotesCore
import XCTest
@testable import NotesApp

/// Every action the application and its windows register is declared in `ActionCatalog`, has
/// a menu item there or a stated reason not to, and its keys are set and listed in the
/// Keyboard Shortcuts window; the windows' menus show exactly the catalog's items.
final class ActionCatalogTests: AppTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testEveryActionIsDeclaredOnceWithItsMenuItemAndKeys() {
        MainActor.assumeIsolated {
            checkTheCatalog()
        }
    }

    private func checkTheCatalog() {
        do {
            let notula = NotulaApplication(directories: XDGDirectories(environment: ["HOME": makeFolder().path]))
            // Registered (on the test's own session bus): GTK starts the application up, which
            // adds its actions, and takes windows only after that.
            XCTAssertNoThrow(try notula.app.register())
            guard let library = try? makeNotesFolder(["a.md": "A note\n"]) else { return XCTFail("no library") }
            let outside = makeFolder().appendingPathComponent("outside.md")
            XCTAssertNoThrow(try Data("Outside\n".utf8).write(to: outside))
            let main = MainWindow(application: notula.app, appResponder: notula, library: NoteLibrary(folder: library), createsLibraryFolder: true,
                                  drafts: RecoveryDrafts(folder: makeFolder()), stateURL: makeFolder().appendingPathComponent("window.json"),
                                  indexFolder: makeFolder())
            let inLibrary = NoteWindow(application: notula.app, appResponder: notula, url: library.appendingPathComponent("a.md"),
                                       library: library, drafts: RecoveryDrafts(folder: makeFolder()))
            let ofAFile = NoteWindow(application: notula.app, appResponder: notula, url: outside, library: nil,
                                     drafts: RecoveryDrafts(folder: makeFolder()))
            defer { [main.window, inLibrary.window, ofAFile.window].forEach { $0.destroy() } }
            let entries = ActionCatalog.entries
            let windows: [(ActionEntry.Windows, ApplicationWindow, String)] = [
                (.main, main.window, "the main window"), ([.note, .libraryNote], inLibrary.window, "a library note's window"),
                (.note, ofAFile.window, "a file's note window"),
            ]

            // Registered → declared, with a menu item or a reason.
            func declared(_ scope: ActionEntry.Scope, _ name: String, in kind: ActionEntry.Windows) -> ActionEntry? {
                entries.first { entry in entry.scope == scope && entry.actionName == name && !entry.windows.isDisjoint(with: kind) }
            }
            for name in notula.app.actionNames {
                XCTAssertNotNil(declared(.app, name, in: .all), "app.\(name) is not in ActionCatalog")
            }
            for (kind, window, label) in windows {
                // A note window has Show in Main Window's action also for a file outside the library (its menu has no item).
                let registeredFor = kind.contains(.note) ? kind.union(.libraryNote) : kind
                for name in window.actionNames {
                    XCTAssertNotNil(declared(.win, name, in: registeredFor), "win.\(name) of \(label) is not in ActionCatalog")
                }
            }
            for entry in entries {
                XCTAssertTrue((entry.menu == nil) != (entry.noMenu == nil), "\(entry.detailedName): a menu item, or a reason for none (one of them)")
                XCTAssertFalse(entry.label.isEmpty, "\(entry.detailedName) has no label")
            }

            // Declared → registered where it says it applies (no stale line in the table).
            for entry in entries where entry.scope == .app {
                XCTAssertTrue(notula.app.actionNames.contains(entry.actionName), "\(entry.detailedName) is declared but not registered")
            }
            for entry in entries where entry.scope == .win {
                for (kind, window, label) in windows where !entry.windows.isDisjoint(with: kind) {
                    XCTAssertTrue(window.actionNames.contains(entry.actionName), "\(entry.detailedName) is declared for \(label) but not registered there")
                }
            }

            // The menus show exactly the catalog's items, in its order.
            for (kind, _, label) in windows {
                let expected = ActionEntry.MenuPlace.allCases.flatMap { place in
                    entries.filter { $0.menu == place && !$0.windows.isDisjoint(with: kind) }.map(\.detailedName)
                }
                XCTAssertEqual(ActionCatalog.menu(for: kind).itemActions, expected, "the menu of \(label)")
            }
            XCTAssertTrue(ActionCatalog.menu(for: .main).itemActions.contains("win.sort::title"), "a choice keeps its target")

            // Keys: set as accelerators, and listed in the Keyboard Shortcuts window.
            let listed = ActionCatalog.shortcutGroups.flatMap(\.shortcuts)
            for entry in entries where !entry.keys.isEmpty {
                XCTAssertNotNil(entry.shortcuts, "\(entry.detailedName) has keys but is not in the Keyboard Shortcuts window")
                XCTAssertTrue(listed.contains { $0.title == entry.shortcutTitle && $0.accelerator.contains(entry.keys[0]) },
                              "\(entry.detailedName) is not listed with \(entry.keys[0])")
                if entry.scope != .widget {
                    XCTAssertEqual(notula.app.accelerators(for: entry.detailedName), entry.keys.compactMap(Accelerator.canonical),
                                   "the keys of \(entry.detailedName)")
                }
            }
            XCTAssertEqual(notula.app.accelerators(for: "app.quit"), ["<Control>q"])
            XCTAssertEqual(notula.app.accelerators(for: "win.find-previous"), ["<Shift><Control>g", "<Shift>F3"])
            for entry in entries {
                XCTAssertEqual(entry.keys.compactMap(Accelerator.canonical).count, entry.keys.count, "GTK cannot read a key of \(entry.detailedName)")
            }
            let shortcuts = ActionCatalog.makeShortcutsWindow()  // GtkBuilder accepts what the table makes
            shortcuts.destroy()
        }
    }
}
