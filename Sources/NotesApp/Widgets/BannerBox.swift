import Gtk

/// The layout the sidebar's banners share: a wrapping sentence above a row of buttons, in a
/// box styled by `cssClass`, hidden until shown.
final class BannerBox {
    let root = Box(.vertical, spacing: 6)
    let message = Label()
    let buttons = Box(.horizontal, spacing: 6)

    init(cssClass: String, buttons children: [Button]) {
        root.addCSSClass(cssClass)
        message.wraps = true
        message.maxWidthChars = 30
        message.xalign = 0
        for button in children { buttons.append(button) }
        root.append(message)
        root.append(buttons)
        root.isVisible = false
    }
}
