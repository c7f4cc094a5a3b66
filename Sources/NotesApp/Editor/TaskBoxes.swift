import Dispatch
import Foundation
import Gtk
import NotesCore

/// Real check boxes for the task items (`- [ ]`, `- [x]`) on screen: GTK check buttons laid
/// over the text view beside each visible task's marker, reused as the view scrolls (a note
/// with thousands of tasks makes only as many as fit on screen). Clicking one toggles the one
/// character between the brackets, as an undoable edit; the text stays the truth and the box
/// follows it. Each box is focusable and named for screen readers ("Task: buy milk").
final class TaskBoxes {
    private let textView: TextView
    private let buffer: TextBuffer
    private var boxes: [CheckButton] = []
    /// The line each shown box stands for.
    private var lines: [ObjectIdentifier: Int] = [:]
    private var isUpdating = false
    private var isScheduled = false
    /// Toggles the task of a line (MarkdownKeys does it the same way as Ctrl+Enter).
    var toggle: ((Int) -> Void)?
    /// The lines on screen (the editor knows how far GTK has laid them out).
    var visibleLines: () -> ClosedRange<Int> = { 0...0 }

    /// How far left of the list marker a box sits, and its size. The editor's margin leaves
    /// room for it clear of the pane separator's grab area.
    static let boxWidth = 22
    static let boxHeight = 20
    static let smallestLineHeight = 10

    init(textView: TextView, buffer: TextBuffer, scroller: ScrolledWindow) {
        self.textView = textView
        self.buffer = buffer
        scroller.onScrolled { [weak self] _ in self?.scheduleLayout() }
        scroller.onWidthChanged { [weak self] _ in self?.scheduleLayout() }
        // The text view takes every primary press over it (to place the cursor), denying a box
        // laid over the text its click: presses on a box are found and handled here, first.
        let click = ClickGesture(button: 1)
        click.runBeforeWidget()
        click.onPressed { [weak self] gesture, _, x, y in
            guard let self, self.textView.isEditable, let line = self.line(atViewPoint: x, y) else { return }
            gesture.claim()
            self.toggle?(line)
            self.scheduleLayout(force: true)
        }
        textView.addController(click)
    }

    /// Where each shown box is, in buffer coordinates.
    private var frames: [ObjectIdentifier: (x: Int, y: Int)] = [:]

    /// The task line whose box is under a point of the view, if any.
    private func line(atViewPoint x: Double, _ y: Double) -> Int? {
        let point = textView.bufferPoint(fromViewPoint: x, y)
        for box in boxes where box.isVisible {
            guard let frame = frames[ObjectIdentifier(box)] else { continue }
            if point.x >= frame.x, point.x < frame.x + Self.boxWidth, point.y >= frame.y, point.y < frame.y + Self.boxHeight {
                return lines[ObjectIdentifier(box)]
            }
        }
        return nil
    }

    /// Lines were restyled (an edit, a load): boxes follow the text when those lines are on
    /// screen (the slices styling a long note's end do not move them).
    func textChanged(_ lines: Range<Int>) {
        guard textView.isMapped else { return }
        let visible = visibleLines()
        if lines.lowerBound <= visible.upperBound, lines.upperBound > visible.lowerBound { scheduleLayout(force: true) }
    }

    /// The shown boxes, top to bottom (tests and the accessibility tree see the same).
    var shownBoxes: [(line: Int, isChecked: Bool, box: CheckButton)] {
        boxes.filter(\.isVisible).compactMap { box in lines[ObjectIdentifier(box)].map { ($0, box.isActive, box) } }
            .sorted { $0.line < $1.line }
    }

    /// Lays the boxes out once the current main-loop turn is done (coalesces bursts of edits).
    /// Without `force` (scrolling, a resize) nothing is redone while the visible lines and the
    /// text's width are the same: GTK reports scroll changes often while it lays out a long note.
    func scheduleLayout(force: Bool = false) {
        if force { laidOut = nil }
        guard !isScheduled else { return }
        isScheduled = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.isScheduled = false
            self.layout()
        }
    }

    /// What the last layout covered: the visible lines and the view's size.
    private var laidOut: (lines: ClosedRange<Int>, rectangle: TextView.Rectangle, editable: Bool)?

    func layout() {
        var used = 0
        if textView.isMapped, buffer.lineCount > 0 {
            let visible = visibleLines()
            let rectangle = textView.visibleRectangle
            if let laidOut, laidOut.lines == visible, laidOut.rectangle == rectangle, laidOut.editable == textView.isEditable {
                return
            }
            laidOut = (visible, rectangle, textView.isEditable)
            for line in visible.lowerBound...min(visible.upperBound, buffer.lineCount - 1) {
                let text = buffer.text(ofLine: line)
                guard let item = MarkdownListItem(text), let taskBox = item.taskBox else { continue }
                let start = buffer.startOffset(ofLine: line)
                let marker = textView.rectangle(atOffset: start + item.marker.lowerBound)
                let glyph = textView.rectangle(atOffset: start + taskBox.lowerBound)
                let x = max(marker.x - Self.boxWidth, 0)
                let y = glyph.y + (glyph.height - Self.boxHeight) / 2
                let check = box(at: used, x: x, y: y)
                used += 1
                lines[ObjectIdentifier(check)] = line
                // Only what changed is set: each property set makes GTK redo work (accessibility
                // updates, a redraw).
                if check.isActive != item.isDone {
                    isUpdating = true
                    check.isActive = item.isDone
                    isUpdating = false
                }
                if check.isSensitive != textView.isEditable { check.isSensitive = textView.isEditable }
                let itemText = String(text.unicodeScalars.dropFirst(item.textStart)).trimmingCharacters(in: .whitespaces)
                let label = itemText.isEmpty
                    // TRANSLATORS: the accessible name of the check box of a task without text.
                    ? tr("Task: empty")
                    // TRANSLATORS: the accessible name of a task's check box; %s is the task's text ("Task: buy milk").
                    : tr("Task: %s", itemText)
                if check.accessibleLabel != label { check.accessibleLabel = label }
            }
        }
        for index in used..<boxes.count where boxes[index].isVisible {
            boxes[index].isVisible = false
            lines[ObjectIdentifier(boxes[index])] = nil
        }
    }

    private func box(at index: Int, x: Int, y: Int) -> CheckButton {
        if index < boxes.count {
            let box = boxes[index]
            if frames[ObjectIdentifier(box)].map({ $0 != (x, y) }) ?? true { textView.moveOverlay(box, x: x, y: y) }
            frames[ObjectIdentifier(box)] = (x, y)
            if !box.isVisible { box.isVisible = true }
            return box
        }
        let box = CheckButton()
        box.addCSSClass("task-box")
        box.tooltip = tr("Done or not: click, or Ctrl+Enter in the line")
        // Clicks go through to the text view, which handles presses on boxes (see init); the
        // keyboard and screen readers still activate the box itself.
        box.canTarget = false
        box.onToggled { [weak self] box in
            guard let self, !self.isUpdating, let line = self.lines[ObjectIdentifier(box)] else { return }
            self.toggle?(line)
            self.scheduleLayout(force: true)
        }
        textView.addOverlay(box, x: x, y: y)
        frames[ObjectIdentifier(box)] = (x, y)
        boxes.append(box)
        return box
    }
}
