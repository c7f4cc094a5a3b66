import Foundation
import Gtk
import NotesCore

/// One side of the conflict window: heading, origin, and the text, read-only.
final class VersionColumn {
    let root = Box(.vertical, spacing: 4)
    let origin = Label()
    let buffer = TextBuffer()
    private let textView: TextView

    init(heading: String) {
        textView = TextView(buffer: buffer)
        let title = Label(heading)
        title.addCSSClass("heading")
        title.xalign = 0
        origin.xalign = 0
        origin.ellipsizesAtEnd = true
        origin.addCSSClass("note-meta")
        textView.isEditable = false
        textView.setTextMargins(horizontal: 10, vertical: 8)
        textView.accessibleLabel = heading
        textView.addCSSClass("conflict-text")
        let scroller = ScrolledWindow()
        scroller.child = textView
        scroller.vexpand = true
        scroller.hexpand = true
        scroller.addCSSClass("frame")
        root.hexpand = true
        root.append(title)
        root.append(origin)
        root.append(scroller)
        buffer.defineLineHighlight(ConflictWindow.highlightTag, color: "rgba(229, 165, 10, 0.32)")
    }

    func show(_ text: String, origin: String) {
        self.origin.text = origin
        self.origin.tooltip = origin
        textView.accessibleDescription = origin
        buffer.load(text)
    }

    /// Colours the given lines (runs of neighbouring lines as one range).
    func highlight(_ lines: IndexSet) {
        for range in lines.rangeView { buffer.applyTag(ConflictWindow.highlightTag, toLines: range) }
    }

    /// Highlights, in two columns showing `old` and `new`, the lines that differ. Compared as
    /// whole lines: a last line that only lacks its line break is not "changed".
    static func highlightDifferences(_ oldColumn: VersionColumn, _ old: String, _ newColumn: VersionColumn, _ new: String) {
        func endingInNewline(_ text: String) -> String { text.isEmpty || text.hasSuffix("\n") ? text : text + "\n" }
        let diff = LineDiff(old: endingInNewline(old), new: endingInNewline(new))
        oldColumn.highlight(diff.removedLines)
        newColumn.highlight(diff.addedLines)
    }
}
