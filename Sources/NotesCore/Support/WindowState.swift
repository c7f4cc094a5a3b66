import Foundation

/// The session, remembered between runs in `$XDG_STATE_HOME/notula/window.json` (never in the
/// synced library): the main window's size and divider position, its sort, notebook and open
/// note with the cursor and scroll position, and the notes open in windows of their own. A
/// missing or damaged file gives the defaults; a note gone since is simply not reopened.
public struct WindowState: Codable, Equatable, Sendable {
    /// A note in a window of its own: its file and the window's size.
    public struct NoteWindow: Codable, Equatable, Sendable {
        public var path: String
        public var width: Int
        public var height: Int
        public init(path: String, width: Int, height: Int) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    public var width = 960
    public var height = 640
    public var isMaximized = false
    public var sidebarWidth = 300
    /// How the notes list is sorted (nil: by last modified).
    public var sortOrder: NoteSortOrder?
    /// The notebook the list showed (nil: All Notes).
    public var notebook: String?
    /// The note open in the main window (its path in the library), the cursor's character
    /// offset in it and the offset of the first line in view.
    public var openNote: String?
    public var cursorOffset: Int?
    public var topOffset: Int?
    /// Notes open in windows of their own.
    public var noteWindows: [NoteWindow]?

    public init() {}

    /// Field by field: a value missing or of the wrong type (a hand-edited or damaged file)
    /// keeps its default and the others are kept.
    public init(from decoder: Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        func value<T: Decodable>(_ key: CodingKeys) -> T? { (try? values.decodeIfPresent(T.self, forKey: key)) ?? nil }
        width = value(.width) ?? width
        height = value(.height) ?? height
        isMaximized = value(.isMaximized) ?? isMaximized
        sidebarWidth = value(.sidebarWidth) ?? sidebarWidth
        sortOrder = value(.sortOrder)
        notebook = value(.notebook)
        openNote = value(.openNote)
        cursorOffset = value(.cursorOffset)
        topOffset = value(.topOffset)
        noteWindows = value(.noteWindows)
    }

    /// The session in `url`, every value made usable (`clamped`); the defaults when there is
    /// none. A file that is no JSON object (damaged, cut off) is set aside as
    /// `window.json.damaged`, so the next save does not wipe what it held.
    public static func load(from url: URL) -> WindowState {
        guard let data = RegularFile.contents(of: url) else { return WindowState() }
        guard let state = try? JSONDecoder().decode(WindowState.self, from: data) else {
            rename(url.path, url.path + ".damaged")
            return WindowState()
        }
        return state.clamped()
    }

    /// Every value usable: sizes from a different screen or a hand-edited file kept within a
    /// screen's reach, offsets that GTK's `int` can hold, the open note only as a library note's
    /// id (`LibraryNoteID.isWellFormed`: no `..`, nothing absolute or hidden) and note windows
    /// only for absolute paths of note files — anything else is dropped, as if never remembered.
    func clamped() -> WindowState {
        var state = self
        state.width = Self.clamp(width, 360, 10_000)
        state.height = Self.clamp(height, 300, 10_000)
        state.sidebarWidth = min(max(sidebarWidth, 180), max(180, state.width - 200))
        state.cursorOffset = cursorOffset.map { Self.clamp($0, 0, Int(Int32.max)) }
        state.topOffset = topOffset.map { Self.clamp($0, 0, Int(Int32.max)) }
        if let openNote, !LibraryNoteID.isWellFormed(openNote) { state.openNote = nil }
        if let notebook, !Self.isNotebook(notebook) { state.notebook = nil }
        state.noteWindows = noteWindows?.filter { Self.isNoteFilePath($0.path) }.prefix(64).map {
            NoteWindow(path: $0.path, width: Self.clamp($0.width, 200, 10_000), height: Self.clamp($0.height, 200, 10_000))
        }
        return state
    }

    private static func clamp(_ value: Int, _ low: Int, _ high: Int) -> Int { min(max(value, low), high) }

    /// An absolute path without `.` or `..` parts whose file has a note's name (`.md`, …).
    static func isNoteFilePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count <= LibraryNoteID.maxLength, !path.utf8.contains(0) else { return false }
        let parts = path.split(separator: "/")
        guard let name = parts.last, !parts.contains(where: { $0 == "." || $0 == ".." }) else { return false }
        return NoteLibrary.isNoteFileName(String(name))
    }

    /// A notebook's path in the library: relative, nothing hidden, no `..`.
    private static func isNotebook(_ path: String) -> Bool {
        !path.isEmpty && path.utf8.count <= LibraryNoteID.maxLength && !path.utf8.contains(0)
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") }
    }

    public func save(to url: URL) throws {
        try AtomicFileWriter.writeJSON(self, to: url)
    }
}
