import Gtk

/// What a picture line shows when its picture cannot be shown: an icon and the reason.
final class PicturePlaceholder {
    let root = Box(.horizontal, spacing: 8)
    private let label = Label()
    static let height = 36

    init() {
        root.addCSSClass("picture-placeholder")
        root.append(Image(iconName: "image-missing-symbolic"))
        label.xalign = 0
        label.ellipsizesAtEnd = true
        label.hexpand = true
        root.append(label)
        root.setMargins(top: 0, bottom: 0, start: 0, end: 0)
    }

    var message: String {
        get { label.text }
        set {
            label.text = newValue
            root.accessibleLabel = newValue
        }
    }
}
