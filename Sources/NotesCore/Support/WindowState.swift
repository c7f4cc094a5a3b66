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

    public static func load(from url: URL) -> WindowState {
        guard let data = RegularFile.contents(of: url),
              var state = try? JSONDecoder().decode(WindowState.self, from: data) else { return WindowState() }
        // Sizes from a different screen or a hand-edited file: keep them usable.
        state.width = min(max(state.width, 360), 10_000)
        state.height = min(max(state.height, 300), 10_000)
        state.sidebarWidth = min(max(state.sidebarWidth, 180), max(180, state.width - 200))
        return state
    }

    public func save(to url: URL) throws {
        try AtomicFileWriter.writeJSON(self, to: url)
    }
}
