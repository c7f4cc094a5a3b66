import Gtk

/// One row of Browse Versions' list: a note's heading (every note's history) or a version — a
/// flat button with when it was kept, why, and how the size changed; marked when chosen.
/// Recycled: `showHeading` / `showVersion` give it another entry.
final class VersionRow {
    let root = Box(.vertical, spacing: 0)
    private let heading = Label()
    private let button: Button
    private let when = Label()
    private let what = Label()
    /// The version shown (its place among the window's versions), nil for a heading.
    private(set) var version: Int?
    /// Clicked: choose `version`.
    var onChoose: ((Int) -> Void)?

    init() {
        heading.addCSSClass("heading")
        heading.xalign = 0
        heading.ellipsizesAtEnd = true
        heading.setMargins(top: 10, bottom: 4, start: 10, end: 10)
        let box = Box(.vertical, spacing: 2)
        when.addCSSClass("note-title")
        what.addCSSClass("note-meta")
        for label in [when, what] {
            label.xalign = 0
            label.ellipsizesAtEnd = true
            box.append(label)
        }
        button = Button(child: box)
        button.hasFrame = false
        button.addCSSClass("version-row")
        button.onClicked { [weak self] _ in
            guard let self, let version = self.version else { return }
            self.onChoose?(version)
        }
        root.append(heading)
        root.append(button)
    }

    func showHeading(_ title: String) {
        version = nil
        heading.text = title
        heading.isVisible = true
        button.isVisible = false
    }

    /// `label` is what assistive technologies read; `tooltip` the exact date.
    func showVersion(_ version: Int, when: String, what: String, label: String, tooltip: String, chosen: Bool) {
        self.version = version
        self.when.text = when
        self.what.text = what
        button.accessibleLabel = label
        button.tooltip = tooltip
        heading.isVisible = false
        button.isVisible = true
        mark(chosen: chosen)
    }

    func mark(chosen: Bool) {
        if chosen { button.addCSSClass("selected-version") } else { button.removeCSSClass("selected-version") }
    }
}
