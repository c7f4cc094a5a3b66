@testable import Gtk

/// A row of the RecyclingListView tests: a label saying which id it shows.
final class IdRow {
    let label = Label()
}

extension GtkTestCase {
    /// A list of `ids` whose rows are labels saying their id, on screen (`presentScrolling`).
    func shownList(_ ids: [String], gtk48Workarounds: Bool = RecyclingListView<IdRow>.isGtk48OrOlder)
        -> (RecyclingListView<IdRow>, ScrolledWindow, Window) {
        let list = RecyclingListView<IdRow>(widgetOf: { $0.label }, gtk48Workarounds: gtk48Workarounds)
        list.onMakeRow = { IdRow() }
        list.onShowRow = { row, id in row.label.text = id }
        list.replace(with: ids)
        let (scroller, window) = presentScrolling(list)
        return (list, scroller, window)
    }
}
