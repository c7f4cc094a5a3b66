// swift-tools-version:5.9
// Layers (see docs/ARCHITECTURE.md): CGtk → Gtk (thin wrapper) → NotesApp ← NotesCore ← CSQLite, CZlib, CIntl; notula → NotesApp.
// NotesCore never imports GTK, so the document model and storage are tested without a display.
import PackageDescription

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
        // glibc's gettext for the translations (no package: it is part of libc).
        .systemLibrary(name: "CIntl"),
        .target(name: "Gtk", dependencies: ["CGtk"]),
        .target(name: "NotesCore", dependencies: ["CSQLite", "CZlib", "CIntl"]),
        .target(name: "NotesApp", dependencies: ["Gtk", "NotesCore"]),
        .executableTarget(name: "notula", dependencies: ["NotesApp"]),
        // Test helper: saves a note in a loop for the SIGKILL crash test.
        .executableTarget(name: "notula-crash-writer", dependencies: ["NotesCore"]),
        // Real tmpfs disks, temporary folders, main-queue turning: shared by the test targets.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "NotesCoreTests", dependencies: ["NotesCore", "TestSupport"]),
        .testTarget(name: "GtkTests", dependencies: ["Gtk"]),
        .testTarget(name: "NotesAppTests", dependencies: ["NotesApp", "Gtk", "NotesCore", "TestSupport"]),
    ]
)
