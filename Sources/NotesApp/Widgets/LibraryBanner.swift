import Gtk
import NotesCore

/// Above the list when the synced folder cannot be reached (an unplugged disk, an unmounted
/// share, no permission): says so, with Locate Folder… and Retry — never an empty list that
/// looks like "no notes".
final class LibraryBanner {
    let locateButton = Button(label: tr("Locate Folder…"))
    let retryButton = Button(label: tr("Retry"))
    private let box: BannerBox
    var root: Box { box.root }
    private var message: Label { box.message }
    var onLocate: (() -> Void)?
    var onRetry: (() -> Void)?

    init() {
        box = BannerBox(cssClass: "read-only-banner", buttons: [locateButton, retryButton])
        locateButton.onClicked { [weak self] _ in self?.onLocate?() }
        retryButton.onClicked { [weak self] _ in self?.onRetry?() }
    }

    func show(folder: String, reason: String) {
        // TRANSLATORS: %1$s is the folder, %2$s why it cannot be reached (a few words, e.g. "not mounted").
        message.text = tr("Your synced notes folder “%1$s” is not available (%2$s). Your notes are not shown until it is back.", folder, reason)
        root.isVisible = true
    }

    func hide() { root.isVisible = false }
    var isShowing: Bool { root.isVisible }
    var text: String { message.text }
}
