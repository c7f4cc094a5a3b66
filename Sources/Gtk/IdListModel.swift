import CGtk
import CIdList

/// A GListModel of ids kept in a Swift array (a NotulaIdList, see Sources/CIdList). GTK sees only the
/// count and asks for a row's GtkStringObject when it shows the row, so replacing or re-sorting
/// 100,000 ids is one items-changed, with no object per id and no filter pass over the rows.
public final class IdListModel: Object, ListModel {
    /// The ids, shared with the C callback: retained for the model, released by its destroy notify.
    nonisolated final class Box: @unchecked Sendable {  // main thread only: GTK asks there, Swift changes it there
        var ids: [String] = []
    }

    let box = Box()

    public init(ids: [String] = []) {
        let data = Unmanaged.passRetained(box).toOpaque()
        super.init(UnsafeMutableRawPointer(notula_id_list_new(idAt, data, releaseBox)!), .full)
        replace(with: ids)
    }

    /// The ids in list order (read-only: change them with `replace` or `splice`), those GTK
    /// is not told of yet included.
    public var ids: [String] { box.ids }

    /// How many ids at the end GTK is not told of yet (`replace(…announcingUpTo:)`).
    public private(set) var unannounced = 0

    /// Tells GTK of the ids it was not told of yet: one change adding them at the end.
    public func announceAll() {
        guard unannounced > 0 else { return }
        let count = unannounced
        unannounced = 0
        notula_id_list_changed(opaque, UInt32(clamping: box.ids.count - count), 0, UInt32(clamping: count))
    }

    public var count: Int { box.ids.count }

    public subscript(position: Int) -> String? {
        box.ids.indices.contains(position) ? box.ids[position] : nil
    }

    /// GTK's items-changed: (position, removed, added).
    @discardableResult
    public func onItemsChanged(_ handler: @escaping (IdListModel, Int, Int, Int) -> Void) -> SignalConnection {
        connectUIntTriple("items-changed", self) { model, position, removed, added in
            handler(model, Int(position), Int(removed), Int(added))
        }
    }

    /// Set to let `replace` reuse rows in place (see there; GTK 4.8 only, set by
    /// `RecyclingListView`). It is given, for each reused row,
    /// the id it showed and the id it shows now, and must show the new one, as a bind would:
    /// GTK does not bind the row again. (A selection of a reused row stays on the row: clear
    /// it first to keep it by id.)
    var onRowsReused: ((_ reused: [(old: String, new: String)]) -> Void)?

    /// Replaces the ids in one change (two with `topShown`, below), over the range between the
    /// ids both lists start and end with (GTK keeps the rows and the selection outside it);
    /// none if equal.
    /// Inside it, an id GTK shows keeps its item, so GTK keeps the row's widget and keeps the
    /// row at the top in view wherever it moved (a search that keeps most notes costs only the
    /// rows that change); `asNewItems` gives every id a new item, so the view stays where it
    /// was (a re-sort shows the top of the new order).
    ///
    /// With `onRowsReused` set, the rows GTK shows at the start of that range keep their place
    /// and show the new ids there (the view shows the top of the new ids), and GTK's change
    /// starts after them. Otherwise GTK 4.8, when the row it keeps in view leaves, asks for
    /// every added item to find where it went: 41,000 calls when a search narrows 100,000 notes,
    /// 100,000 when it is cleared (25–50 ms).
    ///
    /// `isGone`, when given, is true only for ids that are not in `ids` (the caller knows it
    /// cheaply: a search's matches). Rows showing such ids are then given to ids that come:
    /// GTK keeps their widgets and binds them again, instead of destroying ~200 and making as
    /// many (25 ms of a keystroke at 10,000 notes).
    ///
    /// `topShown`, the position of the row at the top of a view scrolled down: the rows GTK
    /// shows around it keep their place too, and show the new ids there. The change is then
    /// two: the ids before them, and those after (every note moved into a notebook while the
    /// list was scrolled: GTK asked for all 100,000 added items, 85 ms).
    ///
    /// `announcingUpTo`: when the change reaches past that position from before it, and the
    /// list ends with it, GTK is told of the ids up to there now and of the rest by
    /// `announceAll` (GTK 4.8 makes ~200 rows for a list that grows from a few ids: the view's
    /// first screen can be painted before the rows under it are made).
    public func replace(with ids: [String], asNewItems: Bool = false, isGone: ((String) -> Bool)? = nil, topShown: Int? = nil,
                        announcingUpTo limit: Int? = nil) {
        // Ids GTK was never told of go quietly: the change is from what it has.
        box.ids.removeLast(unannounced)
        unannounced = 0
        let old = box.ids
        let common = min(old.count, ids.count)
        var prefix = 0
        while prefix < common, old[prefix] == ids[prefix] { prefix += 1 }
        guard prefix < old.count || prefix < ids.count else { return }
        var suffix = 0
        while suffix < common - prefix, old[old.count - 1 - suffix] == ids[ids.count - 1 - suffix] { suffix += 1 }
        box.ids = ids
        var start = prefix
        if asNewItems {
            notula_id_list_forget_items(opaque)
        } else {
            // Rows found before any is given a new id: one may take the id another had.
            let head = shownRun(of: old, from: prefix, before: common - suffix)
            start += head.count
            var shown = topShown.flatMap { firstShownRow(of: old, near: $0, after: start, before: common - suffix) }
            var around = shown.map { shownRun(of: old, from: $0, before: common - suffix) } ?? []
            if let first = shown, !areNewToTheView(ids[first..<(first + around.count)], besides: around) {
                // One of those rows' new ids is shown by another row (a re-sort): two rows
                // would stand for one id. GTK finds its rows again itself.
                shown = nil
                around = []
            }
            showInPlace([(prefix, head), (shown ?? 0, around)], old: old, new: ids)
            if let shown {
                // The ids before the rows shown change next, as many coming as going: the
                // rows shown keep their positions. Then those after them.
                let end = shown + around.count
                box.ids = Array(ids[..<end]) + old[end...]
                notula_id_list_changed(opaque, UInt32(clamping: start), UInt32(clamping: shown - start), UInt32(clamping: shown - start))
                box.ids = ids
                start = end
            }
            if let isGone { recycleRows(of: old[start..<(old.count - suffix)], isGone: isGone) }
        }
        let removed = old.count - suffix - start
        var added = ids.count - suffix - start
        if let limit, suffix == 0, start < limit, start + added > limit {
            unannounced = start + added - limit
            added -= unannounced
        }
        if removed > 0 || added > 0 { notula_id_list_changed(opaque, UInt32(clamping: start), UInt32(clamping: removed), UInt32(clamping: added)) }
    }

    /// The items of the rows shown at `start`, `start + 1` … (up to `end`): none without
    /// `onRowsReused`.
    private func shownRun(of old: [String], from start: Int, before end: Int) -> [UnsafeMutableRawPointer] {
        guard onRowsReused != nil else { return [] }
        var items: [UnsafeMutableRawPointer] = []
        while start + items.count < end, let item = notula_id_list_live_item(opaque, old[start + items.count]) {
            items.append(item)
        }
        return items
    }

    /// Gives each run of rows the ids `new` has at their positions, in place, and tells
    /// `onRowsReused`.
    private func showInPlace(_ runs: [(start: Int, items: [UnsafeMutableRawPointer])], old: [String], new: [String]) {
        guard let onRowsReused, runs.contains(where: { !$0.items.isEmpty }) else { return }
        // Every reused item lets go of its id first: one may take the id another had.
        for run in runs { for item in run.items { notula_id_list_unkeep(opaque, item) } }
        var reused: [(old: String, new: String)] = []
        for run in runs {
            for (offset, item) in run.items.enumerated() {
                notula_id_list_show_in_place(opaque, item, new[run.start + offset])
                reused.append((old: old[run.start + offset], new: new[run.start + offset]))
            }
        }
        onRowsReused(reused)
    }

    /// Whether no row shows any of `ids`, but for those of `items`.
    private func areNewToTheView(_ ids: ArraySlice<String>, besides items: [UnsafeMutableRawPointer]) -> Bool {
        let own = Set(items)
        return ids.allSatisfy { id in notula_id_list_live_item(opaque, id).map { own.contains($0) } ?? true }
    }

    /// The first of the rows GTK shows together around `top` (a row within a few of it, as
    /// GTK's estimate of where the view is may be off by one or two), between `start` and `end`.
    private func firstShownRow(of old: [String], near top: Int, after start: Int, before end: Int) -> Int? {
        func isShown(_ position: Int) -> Bool { notula_id_list_live_item(opaque, old[position]) != nil }
        guard onRowsReused != nil, top > start, top < end, var first = (top..<min(top + 4, end)).first(where: isShown) else { return nil }
        while first - 1 > start, isShown(first - 1) { first -= 1 }
        return first
    }

    /// Offers the rows of the gone ids among `removed` in list order: the first row goes to
    /// the first new id GTK asks for, so the top of the list stays the top.
    private func recycleRows(of removed: ArraySlice<String>, isGone: (String) -> Bool) {
        var gone = Set(liveIDs().filter(isGone))
        for id in removed where gone.contains(id) {
            notula_id_list_recycle(opaque, id)
            gone.remove(id)
            if gone.isEmpty { break }
        }
    }

    /// The ids whose items rows show now.
    func liveIDs() -> [String] { takeStrings(notula_id_list_live_ids(opaque)) }

    /// A row shows `item` now: while it does, its id is this same item (see `replace`).
    func keep(_ item: ListItem) {
        keep(item: gtk_list_item_get_item(OpaquePointer(item.raw)))
    }

    func keep(item: UnsafeMutableRawPointer?) {
        notula_id_list_keep(opaque, item)
    }

    /// Removes `removing` ids at `position` and inserts `inserting` there, in one change.
    public func splice(at position: Int, removing: Int, inserting: [String]) {
        precondition(position >= 0 && removing >= 0 && position + removing <= box.ids.count, "splice out of range")
        guard removing > 0 || !inserting.isEmpty else { return }
        announceAll()
        // The array changes before the signal: handlers ask for the new items at once.
        box.ids.replaceSubrange(position..<position + removing, with: inserting)
        notula_id_list_changed(opaque, UInt32(clamping: position), UInt32(clamping: removing), UInt32(clamping: inserting.count))
    }
}

/// `char *(*item_at)(void *data, guint position)`: a g_strdup'd copy the model frees.
/// GTK asks on the main thread, where it draws the list (the main actor).
nonisolated private let idAt: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> UnsafeMutablePointer<CChar>? = { data, position in
    guard let data else { return nil }
    return Unmanaged<IdListModel.Box>.fromOpaque(data)._withUnsafeGuaranteedRef { box in
        position < box.ids.count ? g_strdup(box.ids[Int(position)]) : nil
    }
}
