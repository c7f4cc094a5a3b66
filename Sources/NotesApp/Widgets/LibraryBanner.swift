import Gtk

/// Above the list when the synced folder cannot be reached (an unplugged disk, an unmounted
/// share, no permission): says so, with Locate Folder… and Retry — never an empty list that
/// looks like "no notes".
final class LibraryBanner {
    let locateButton = Button(label: "Locate Folder…")
    let retryButton = Button(label: "Retry")
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
        message.text = "Your synced notes folder “\(folder)” is not available (\(reason)). Your notes are not shown until it is back."
        root.isVisible = true
    }

    func hide() { root.isVisible = false }
    var isShowing: Bool { root.isVisible }
    var text: String { message.text }
}
