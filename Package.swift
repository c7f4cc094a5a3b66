// swift-tools-version:6.2
// Layers (see docs/ARCHITECTURE.md): CGtk, CIdList, CMarkedSelection → Gtk (thin wrapper) → NotesApp ← NotesCore ← CSQLite, CZlib, CEnchant, CCmark; notula → NotesApp.
// NotesCore never imports GTK, so the document model and storage are tested without a display.
import Foundation
import PackageDescription

// GTK may be called from the main thread only: the wrapper and the app are isolated to the main
// actor, so a call from elsewhere does not compile.
let onTheMainActor: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

/// GTK_4_10 when the GTK built against is 4.10 or newer (pkg-config's answer): the wrapper then
/// calls what replaced the calls 4.10 deprecated (GtkFileDialog for GtkFileChooserNative), and
/// the 4.8 calls only against 4.8. The app never sees which.
let gtkVersionConditions: [SwiftSetting] = {
    let pkgConfig = Process()
    pkgConfig.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    pkgConfig.arguments = ["pkg-config", "--atleast-version=4.10", "gtk4"]
    guard (try? pkgConfig.run()) != nil else { return [] }
    pkgConfig.waitUntilExit()
    return pkgConfig.terminationStatus == 0 ? [.define("GTK_4_10")] : []
}()

let package = Package(
    name: "Notula",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "notula", targets: ["notula"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGtk",
            // GtkSourceView 5's pkg-config entry requires gtk4, so this brings both.
            pkgConfig: "gtksourceview-5",
            providers: [.apt(["libgtk-4-dev", "libgtksourceview-5-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Enchant 2 for spelling, with the system's Hunspell dictionaries.
        .systemLibrary(
            name: "CEnchant",
            pkgConfig: "enchant-2",
            providers: [.apt(["libenchant-2-dev"])]
        ),
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // glibc's gettext for the translations (no package: it is part of libc).
        // NotulaIdList, the GObject list model under IdListModel: GTK 4.8's list workarounds in
        // C, in one place to delete when a newer GTK is the floor (see RecyclingListView).
        .target(name: "CIdList", dependencies: ["CGtk"]),
        // The list view's selection model: GTK's single selection and the rows the app marks.
        .target(name: "CMarkedSelection", dependencies: ["CGtk"]),
        // The main thread's stack during a stall, for `make bench` (StackSampler): a SIGPROF
        // handler, which is C's to write.
        .target(name: "CStackSampler"),
        .target(name: "Gtk", dependencies: ["CGtk", "CIdList", "CMarkedSelection"], swiftSettings: onTheMainActor + gtkVersionConditions),
        // Optimized in debug builds too: its tests index and search megabytes of text (a 200 KB
        // note saved 1,000 times), which unoptimized generic code makes several times slower.
        .target(name: "NotesCore", dependencies: ["CSQLite", "CZlib", "CEnchant", "CCmark", "CStackSampler"], swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "NotesApp", dependencies: ["Gtk", "NotesCore"], swiftSettings: onTheMainActor),
        .executableTarget(name: "notula", dependencies: ["NotesApp", "NotesCore"], swiftSettings: onTheMainActor),
        // Test helper: saves a note in a loop for the SIGKILL crash tests; the other program of the race tests.
        .executableTarget(name: "notula-crash-writer", dependencies: ["NotesCore"]),
        // The benchmarks' tool (`make bench`): moves, switches, history, links, import on generated libraries.
        .executableTarget(name: "notula-bench", dependencies: ["NotesCore"]),
        // Real tmpfs disks, temporary folders, main-queue turning: shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NotesCoreTests", dependencies: ["NotesCore", "TestSupport"]),
        .testTarget(name: "GtkTests", dependencies: ["Gtk", "CIdList", "TestSupport"], swiftSettings: onTheMainActor),
        .testTarget(name: "NotesAppTests", dependencies: ["NotesApp", "Gtk", "NotesCore", "TestSupport"], swiftSettings: onTheMainActor),
    ]
)
