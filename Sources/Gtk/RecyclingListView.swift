import CGtk
import Dispatch
import Glibc
import CIdList

/// A list of ids that makes widgets only for the rows GTK shows (a GtkListView over an
/// `IdListModel`): 100,000 notes, 5,000 versions or 2,000 notebooks cost about a screenful of
/// rows. `Row` is the caller's row controller: made by `onMakeRow`, its widget given by
/// `widgetOf`, filled by `onShowRow` whenever it shows another id. The view knows which row
/// shows which id (`row(showing:)`, `visibleRows`), so a caller refreshes one row without
/// touching the model.
///
/// GTK destroys the rows a change leaves without an item and makes them again later: the
/// widgets of torn-down rows wait in `spareRows` for the next rows it makes.
///
/// GTK 4.8's list quirks live here (and in CIdList, the model's C side), behind
/// `gtk48Workarounds`, on by default on GTK ≤ 4.8:
/// - GTK 4.8 finds a row again by its item's address: items are kept by id while a row shows
///   them (`IdListModel.keep`), rows of ids a change removes go to the ids it brings
///   (`replace(…isGone:)`), and rows on screen at the start of a change show the new ids in
///   place (`IdListModel.onRowsReused`), so GTK does not ask for every added item.
/// When GTK ≥ 4.10 is the floor, try without them (`gtk48Workarounds: false` is tested to show
/// the right ids); if the figures hold, delete that branch, `IdListModel`'s reuse and recycle
/// code and the item bookkeeping in Sources/CIdList.
public final class RecyclingListView<Row: AnyObject>: Widget {
    public let model = IdListModel()
    public let selection: SingleSelection
    /// What GTK's list view is given: `selection` and the rows the caller marks selected too.
    public let marks: MarkedSelection
    private let factory = ListItemFactory()
    private let widgetOf: (Row) -> Widget
    private let rowsSelectable: Bool
    /// True where GTK 4.8's workarounds are in force (see the type's comment).
    public let gtk48Workarounds: Bool
    /// Makes a row's controller and widgets (once per row GTK makes, spare rows first).
    public var onMakeRow: (() -> Row)?
    /// `row` shows `id` from now on (a bind, or a row reused in place).
    public var onShowRow: ((Row, String) -> Void)?
    /// Rows on screen by the id they show.
    public private(set) var visibleRows: [String: Row] = [:]
    private var idOfRow: [ObjectIdentifier: String] = [:]
    /// Rows' widgets GTK let go, for the next rows it makes.
    private var spareRows: [Row] = []
    /// About the rows GTK keeps (200 on GTK 4.8).
    private static var mostSpareRows: Int { 250 }
    /// How many rows' widgets were made (a test's figure).
    public private(set) var rowsMade = 0
    /// GTK 4.8: a rebuild keeping the view at the top is queued (`keepTheTop`), and when the
    /// last one was made (DispatchTime's nanoseconds).
    private(set) var topRebuildQueued = false
    private var lastTopRebuild: UInt64 = 0
    /// Which queued rebuild counts: a scroll asked for drops the one queued before (the scroll
    /// wins), and the next ids above the top queue another.
    private var topRebuildGeneration = 0
    /// The view was put back at the top and has not been laid out since: its adjustment still
    /// says where it was (this value), and changes meanwhile must see it at the top — unless
    /// the adjustment moved since (the user scrolled).
    private var movedToTopFrom: Double?

    /// GTK 4.8 or older: the workarounds are needed (GTK 4.10 rewrote the list views' rows).
    public static var isGtk48OrOlder: Bool { gtk_get_major_version() == 4 && gtk_get_minor_version() <= 8 }

    /// `selectable` false: clicks and keys never select a row (the caller marks its choice itself).
    public init(widgetOf: @escaping (Row) -> Widget, selectable: Bool = true, gtk48Workarounds: Bool = isGtk48OrOlder) {
        self.widgetOf = widgetOf
        self.rowsSelectable = selectable
        self.gtk48Workarounds = gtk48Workarounds
        selection = SingleSelection(model: model)
        marks = MarkedSelection(single: selection)
        // gtk_list_view_new takes full references to both; the wrappers keep their own.
        g_object_ref(marks.raw)
        g_object_ref(factory.raw)
        super.init(floating: gtk_list_view_new(marks.opaque, factory.opaque))
        factory.onSetup { [weak self] _, item in
            guard let self, let row = self.takeRow() else { return }
            item.setChild(self.widgetOf(row))
            item.attachment = row
            if !self.rowsSelectable { item.isSelectable = false }
        }
        factory.onTeardown { [weak self] _, item in
            guard let self, let row = item.attachment as? Row else { return }
            self.forget(row)
            // GTK destroys the rows a search's change leaves without a note (all but one when
            // one note matches) and makes them again when the search is cleared: their widgets
            // wait here instead (making a row's widgets was about half of making a row).
            item.removeChild()
            item.attachment = nil
            if self.spareRows.count < Self.mostSpareRows { self.spareRows.append(row) }
        }
        factory.onBind { [weak self] _, item in
            guard let self, let row = item.attachment as? Row, let id = item.string else { return }
            if self.gtk48Workarounds { self.model.keep(item) }
            self.show(row, id)
        }
        // Rows GTK lets go are forgotten (they would pile up: a search replaces ~200 of them).
        factory.onUnbind { [weak self] _, item in
            guard let self, let row = item.attachment as? Row else { return }
            self.forget(row)
        }
        if gtk48Workarounds {
            // Rows on screen at the top of a change show the new ids where they are (see
            // IdListModel.replace): what a bind does, for them.
            model.onRowsReused = { [weak self] reused in
                guard let self else { return }
                let rows = reused.map { self.visibleRows[$0.old] }
                for row in rows { if let row { self.forget(row) } }
                for (ids, row) in zip(reused, rows) { if let row { self.show(row, ids.new) } }
            }
        }
    }

    private func takeRow() -> Row? {
        if let spare = spareRows.popLast() { return spare }
        guard let row = onMakeRow?() else { return nil }
        rowsMade += 1
        return row
    }

    private func show(_ row: Row, _ id: String) {
        forget(row)
        visibleRows[id] = row
        idOfRow[ObjectIdentifier(row)] = id
        onShowRow?(row, id)
    }

    private func forget(_ row: Row) {
        guard let id = idOfRow.removeValue(forKey: ObjectIdentifier(row)) else { return }
        if visibleRows[id] === row { visibleRows[id] = nil }
    }

    /// The row showing `id` now, if GTK made one.
    public func row(showing id: String) -> Row? { visibleRows[id] }

    /// `id` is gone: its row no longer counts as showing it (until GTK binds it again).
    public func forgetRow(showing id: String) {
        if let row = visibleRows[id] { forget(row) }
    }

    /// The id `row` shows now.
    public func id(of row: Row) -> String? { idOfRow[ObjectIdentifier(row)] }

    /// The ids in list order.
    public var ids: [String] { model.ids }
    public var count: Int { model.count }

    /// Replaces the ids (see `IdListModel.replace`); `isGone` lets rows of gone ids go to ids
    /// that come, and the rows shown in a view scrolled down keep their place (GTK 4.8 only).
    public func replace(with ids: [String], asNewItems: Bool = false, isGone: ((String) -> Bool)? = nil) {
        let keepTheTop = comesAboveTheTop(of: ids)
        if keepTheTop && gtk48Workarounds { return showFromTheTop(ids) }
        changed()
        model.replace(with: ids, asNewItems: asNewItems, isGone: gtk48Workarounds ? isGone : nil,
                      topShown: gtk48Workarounds ? topRowShown : nil, announcingUpTo: measureFirstScreen())
        announceTheRestSoon()
        if keepTheTop { scrollToTop() }
    }

    /// GTK 4.8, a view at the top: how many rows fill its height, and a few more (nil when
    /// not known); learns the row height from a list longer than the view. A list that grows from a few ids (a one-note search cleared) is told to GTK
    /// up to there first, and the rest after that frame is painted: GTK makes ~200 rows for
    /// it, and the rows under the first screen cost two thirds of the keystroke otherwise.
    private func measureFirstScreen() -> Int? {
        guard gtk48Workarounds, isMapped, isAtTop, let vadjustment else { return nil }
        let told = toldCount
        let upper = gtk_adjustment_get_upper(vadjustment), page = gtk_adjustment_get_page_size(vadjustment)
        // Shorter than the view, the list's height is the view's: no row height to learn.
        if told > 0, upper > page + 1 { learnedRowHeight = upper / Double(told) }
        guard let learnedRowHeight, learnedRowHeight > 0, page > 0 else { return nil }
        return Int(page / learnedRowHeight) + 4
    }

    /// The height of a row, from the last list longer than the view (GTK 4.8 estimates the
    /// rows it has not made by those it has: the list's height over its rows).
    private var learnedRowHeight: Double?
    /// The ids GTK is told of (all but `model.unannounced`): what its adjustment measures.
    private var toldCount: Int { count - model.unannounced }
    private var isAnnounceQueued = false

    /// Ids GTK was not told of yet are told once the next frame is painted (the first screen
    /// of rows shown), in an idle after it.
    private func announceTheRestSoon() {
        guard model.unannounced > 0, !isAnnounceQueued else { return }
        isAnnounceQueued = true
        onNextFramePainted { [weak self] in
            Idle.once { [weak self] in
                self?.isAnnounceQueued = false
                self?.model.announceAll()
            }
        }
    }

    /// The position of the row at the top of a view scrolled down (rows of one height: GTK
    /// 4.8 estimates those it has not made by those it has), or nil at the top.
    private var topRowShown: Int? {
        guard !isScrolledToTop, toldCount > 0, let vadjustment else { return nil }
        let rowHeight = gtk_adjustment_get_upper(vadjustment) / Double(toldCount)
        return rowHeight > 0 ? Int(verticalValue / rowHeight) : nil
    }

    /// GTK keeps the rows it shows where they are in the list when ids come above them: a view
    /// at the top scrolls down with them (4.18 too), and on 4.8, past about 200 added in one
    /// change (another program's burst of notes), it builds no row at the top at all: a blank
    /// list until the user scrolls. A change that adds ids above the first row of a view at the
    /// top is shown from the top: as a new list on 4.8 (what `replaceAll` does there), the
    /// selected id selected again; scrolled to the top from 4.12. A search's change (the first
    /// row's id gone) keeps its rows.
    private func comesAboveTheTop(of ids: [String]) -> Bool {
        guard ids.count > count, let first = model.ids.first, ids.first != first, isAtTop else { return false }
        return ids.dropFirst().contains(first)
    }

    private func showAsNewList(_ ids: [String]) {
        changed()
        let selectedID = selection.selected.flatMap { $0 < count ? model.ids[$0] : nil }
        let firstScreen = measureFirstScreen()
        model.replace(with: [], asNewItems: true)
        model.replace(with: ids, asNewItems: true, announcingUpTo: firstScreen)
        announceTheRestSoon()
        if let selectedID, let position = ids.firstIndex(of: selectedID) { selection.reselect(position) }
    }

    /// Ids came, one change at a time, above the first row of a view at the top (a note made
    /// or changed, or another program's notes arriving in small batches): GTK keeps the old
    /// first row in view, so the new ones are out of view above it, and on 4.8, past about 200,
    /// the top is not built at all. The view goes back to the top: at once from 4.12 (a
    /// scroll); on 4.8 by showing the list as new before the next frame, at most about four
    /// times a second while ids keep coming (each binds about 200 rows; a burst of 5,000 notes
    /// comes in hundreds of changes).
    private func keepTheTop() {
        guard gtk48Workarounds else { return scrollToTop() }
        guard !topRebuildQueued else { return }
        topRebuildQueued = true
        let now = DispatchTime.now().uptimeNanoseconds, due = lastTopRebuild + 250_000_000
        let generation = topRebuildGeneration
        Timeout.once(milliseconds: UInt32(due > now ? (due - now) / 1_000_000 : 0)) { [weak self] in
            guard let self, self.topRebuildGeneration == generation else { return }
            self.topRebuildQueued = false
            self.showFromTheTop(self.model.ids)
        }
    }

    /// GTK 4.8: `ids` shown as a new list, from the top. A new list alone starts where the
    /// adjustment says, and rows that came one at a time have moved it down already.
    private func showFromTheTop(_ ids: [String]) {
        lastTopRebuild = DispatchTime.now().uptimeNanoseconds
        showAsNewList(ids)
        if let vadjustment { gtk_adjustment_set_value(vadjustment, 0) }
        movedToTop()
    }

    private func dropQueuedTopRebuild() {
        topRebuildGeneration += 1
        topRebuildQueued = false
    }

    /// GTK 4.12 and later: back at the top, the rows kept.
    private func scrollToTop() {
        listViewScrollTo?(OpaquePointer(raw), 0, 0, nil)
        movedToTop()
    }

    private func movedToTop() {
        let wasQueued = movedToTopFrom != nil
        movedToTopFrom = verticalValue
        if !wasQueued { onNextFramePainted { [weak self] in self?.movedToTopFrom = nil } }
    }

    /// The view shows the top of the list, or will once laid out.
    private var isAtTop: Bool { isScrolledToTop || movedToTopFrom == verticalValue }

    private var vadjustment: UnsafeMutablePointer<GtkAdjustment>? { gtk_scrollable_get_vadjustment(OpaquePointer(raw)) }
    private var verticalValue: Double { vadjustment.map { gtk_adjustment_get_value($0) } ?? 0 }

    /// The view shows the top of the list (or cannot scroll).
    private var isScrolledToTop: Bool { verticalValue < 0.5 }

    /// Shows `ids` as a new list (a listing, another note's versions): no row kept, the view
    /// at the top. GTK 4.8, when one change replaces every item while the view is scrolled
    /// away from the top, keeps the rows that were in view bound to the old items and binds no
    /// new ones (BigListsTests, RecyclingListViewTests): the list is emptied first there.
    /// GTK 4.12 and later keep the view where it was in the list instead (scrolled to the middle,
    /// it stays in the middle of the new ids): it is put at the top with `gtk_list_view_scroll_to`.
    public func replaceAll(with ids: [String]) {
        changed()
        if gtk48Workarounds && count > 0 { model.replace(with: [], asNewItems: true) }
        model.replace(with: ids, asNewItems: true)
        if !ids.isEmpty { listViewScrollTo?(OpaquePointer(raw), 0, 0, nil) }
    }

    /// Removes `removing` ids at `position` and inserts `inserting` there, in one change.
    /// A view at the top stays there when ids come above its first row (`keepTheTop`).
    public func splice(at position: Int, removing: Int, inserting: [String]) {
        changed()
        let comesAboveTheTop = position == 0 && removing == 0 && !inserting.isEmpty && count > 0 && isAtTop
        model.splice(at: position, removing: removing, inserting: inserting)
        if comesAboveTheTop { keepTheTop() }
    }

    /// Enter or double-click on a row.
    @discardableResult
    public func onActivate(_ handler: @escaping (RecyclingListView, Int) -> Void) -> SignalConnection {
        connectInt("activate", self) { list, position in handler(list, Int(position)) }
    }

    /// Scrolls so that the row at `position` is visible and focuses it (GTK 4.8 has no
    /// scroll_to: the list's action, which also moves the keyboard focus into the list).
    public func scrollTo(_ position: Int) {
        dropQueuedTopRebuild()
        model.announceAll()
        // Asked to scroll to a row before it laid out the ids it has (a start's listing, then
        // the note the desktop's search opens, far down), GTK 4.8 showed the first row and nothing
        // under it until the user scrolled: the scroll waits until the list is mapped and
        // painted, and goes to the same id.
        if gtk48Workarounds, !isMapped || changedSincePaint, position >= 0, position < count {
            return scrollOnceLaidOut(to: model.ids[position], tries: 250)
        }
        gtk_widget_activate_action_variant(widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(clamping: position)))
    }

    /// The ids changed since the list was last painted (or it was not mapped then), and
    /// whether the next paint is asked to say it was painted (once per frame, however many
    /// changes: a burst splices hundreds).
    private var changedSincePaint = false
    private var paintAwaited = false

    private func changed() {
        guard gtk48Workarounds else { return }
        changedSincePaint = true
        guard isMapped, !paintAwaited else { return }
        paintAwaited = true
        onNextFramePainted { [weak self] in
            self?.changedSincePaint = false
            self?.paintAwaited = false
        }
    }

    private func scrollOnceLaidOut(to id: String, tries: Int) {
        guard isMapped || tries == 0 else {
            return Timeout.once(milliseconds: 20) { [weak self] in self?.scrollOnceLaidOut(to: id, tries: tries - 1) }
        }
        onNextFramePainted { [weak self] in
            guard let self, let position = self.model.ids.firstIndex(of: id) else { return }
            self.changedSincePaint = false
            gtk_widget_activate_action_variant(self.widget, "list.scroll-to-item", g_variant_new_uint32(UInt32(clamping: position)))
        }
    }

    /// Scrolls just enough to show the row at `position` whole, leaving the focus where it is.
    /// GTK 4.12 and later do it themselves (and a scroll asked of them earlier, by `replaceAll`,
    /// would undo one made here). Before: rows of one height, GTK estimates the rows it has not
    /// made by those it has.
    public func scrollToShow(_ position: Int) {
        guard count > 0, position >= 0, position < count else { return }
        dropQueuedTopRebuild()
        model.announceAll()
        if let listViewScrollTo { return listViewScrollTo(OpaquePointer(raw), UInt32(position), 0, nil) }
        guard let adjustment = vadjustment else { return }
        let rowHeight = gtk_adjustment_get_upper(adjustment) / Double(count)
        let top = rowHeight * Double(position), bottom = top + rowHeight
        let value = gtk_adjustment_get_value(adjustment), page = gtk_adjustment_get_page_size(adjustment)
        if top < value {
            gtk_adjustment_set_value(adjustment, top)
        } else if bottom > value + page {
            gtk_adjustment_set_value(adjustment, bottom - page)
        }
    }
}

/// `gtk_list_view_scroll_to(list, position, GTK_LIST_SCROLL_NONE, NULL)`, GTK 4.12 and later
/// (nil before): looked up at run time, as the binary is built against GTK 4.8's headers.
nonisolated private let listViewScrollTo: (@convention(c) (OpaquePointer?, UInt32, UInt32, OpaquePointer?) -> Void)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gtk_list_view_scroll_to") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (OpaquePointer?, UInt32, UInt32, OpaquePointer?) -> Void).self)
}()
