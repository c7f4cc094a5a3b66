import Foundation

/// The main window's size and divider position, remembered between runs in
/// `$XDG_STATE_HOME/notula/window.json`. A missing or damaged file gives the defaults.
public struct WindowState: Codable, Equatable, Sendable {
    public var width = 960
    public var height = 640
    public var isMaximized = false
    public var sidebarWidth = 300
    /// How the notes list is sorted (nil: by last modified).
    public var sortOrder: NoteSortOrder?

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
