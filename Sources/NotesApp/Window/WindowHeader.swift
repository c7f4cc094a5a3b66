import Gtk
import NotesCore

/// The header bar of a window showing notes: the main menu (from `ActionCatalog`, for the
/// kind of window) and the open note's status light at the end.
enum WindowHeader {
    static func make(for windows: ActionEntry.Windows, status: StatusLight) -> HeaderBar {
        let header = HeaderBar()
        let menuButton = MenuButton(iconName: "open-menu-symbolic", menu: ActionCatalog.menu(for: windows))
        menuButton.isPrimary = true
        menuButton.tooltip = tr("Main Menu (F10)")
        menuButton.accessibleLabel = tr("Main Menu")
        InputReport.watch(menuButton)
        header.packEnd(menuButton)
        header.packEnd(status.root)
        return header
    }
}
