import Gtk

/// The editor's text size (Ctrl+plus, Ctrl+minus, Ctrl+0, and Preferences), in steps of
/// 10 % from 50 % to 300 % of the normal 12 pt, for every editor at once: one CSS rule
/// replaced (`StyleSheet.replace`), so each window's editor and its readable width follow.
enum EditorZoom {
    static let normal = 100
    static let range = 50...300
    static let step = 10

    static func clamped(_ percent: Int) -> Int { min(max(percent, range.lowerBound), range.upperBound) }
    static func larger(than percent: Int) -> Int { clamped((percent / step + 1) * step) }
    static func smaller(than percent: Int) -> Int { clamped(((percent + step - 1) / step - 1) * step) }

    /// Applies `percent` to every editor's text.
    static func apply(_ percent: Int) {
        let points = 12.0 * Double(clamped(percent)) / 100
        StyleSheet.replace(css: ".editor { font-size: \(points)pt; }", key: "editor-zoom")
        DesktopReport.zoom(clamped(percent))
    }
}
