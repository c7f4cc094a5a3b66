import CGtk
import CIdList
@testable import Gtk
import TestSupport
import XCTest

/// IdListModel as GTK sees it: through the GListModel interface, its items-changed signal, a
/// GtkSingleSelection and a realised GtkListView.
final class IdListModelTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private func ids(_ count: Int) -> [String] { (0..<count).map { "note-\($0)" } }

    nonisolated func testGtkSeesTheIdsAsIdItems() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b", "c"])
            XCTAssertEqual(g_list_model_get_item_type(model.opaque), notula_id_item_get_type())
            XCTAssertEqual(g_list_model_get_n_items(model.opaque), 3)
            XCTAssertEqual(gtkStrings(model), ["a", "b", "c"])
            XCTAssertNil(g_list_model_get_item(model.opaque, 3), "past the end")
            XCTAssertEqual([model.count, model.ids.count], [3, 3])
            XCTAssertEqual(model[1], "b")
            XCTAssertNil(model[3])
            XCTAssertNil(model[-1])
        }
    }

    /// The model is a GObject type of its own (CIdList), registered once.
    nonisolated func testTheModelIsANotulaIdList() throws {
        try MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a"])
            let type = notula_id_list_get_type()
            XCTAssertEqual(g_type_name(type).map { String(cString: $0) }, "NotulaIdList")
            XCTAssertEqual(model.raw.assumingMemoryBound(to: GTypeInstance.self).pointee.g_class.pointee.g_type, type)
            let own = try XCTUnwrap(notula_id_list_new(nil, nil, nil))
            XCTAssertEqual(g_list_model_get_n_items(own), 0)
            XCTAssertNil(g_list_model_get_item(own, 0))
            g_object_unref(UnsafeMutableRawPointer(own))
        }
    }

    nonisolated func testReplaceIsOneItemsChangedAndNoneWhenEqual() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b"])
            let changes = recordItemsChanged(of: model)
            model.replace(with: ["c", "d", "e"])
            XCTAssertEqual(changes.list, [[0, 2, 3]])
            XCTAssertEqual(gtkStrings(model), ["c", "d", "e"])
            model.replace(with: ["c", "d", "e"])
            XCTAssertEqual(changes.list, [[0, 2, 3]], "equal ids: no signal")
            model.replace(with: [])
            XCTAssertEqual(changes.list, [[0, 2, 3], [0, 3, 0]])
            XCTAssertEqual(g_list_model_get_n_items(model.opaque), 0)
        }
    }

    /// Rows both lists start and end with are outside the one change: GTK keeps them bound
    /// (typing on in a search mostly drops rows further down).
    nonisolated func testReplaceChangesOnlyBetweenTheCommonStartAndEnd() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b", "c", "d", "e"])
            let changes = recordItemsChanged(of: model)
            model.replace(with: ["a", "b", "e"])
            XCTAssertEqual(changes.list, [[2, 2, 0]])
            model.replace(with: ["a", "x", "y", "b", "e"])
            XCTAssertEqual(changes.list, [[2, 2, 0], [1, 0, 2]])
            model.replace(with: ["a"])
            XCTAssertEqual(changes.list, [[2, 2, 0], [1, 0, 2], [1, 4, 0]])
            XCTAssertEqual(gtkStrings(model), ["a"])
        }
    }

    nonisolated func testSpliceIsOneItemsChanged() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b", "c", "d"])
            let changes = recordItemsChanged(of: model)
            model.splice(at: 1, removing: 2, inserting: ["x", "y", "z"])
            XCTAssertEqual(changes.list, [[1, 2, 3]])
            XCTAssertEqual(gtkStrings(model), ["a", "x", "y", "z", "d"])
            model.splice(at: 5, removing: 0, inserting: ["e"])
            model.splice(at: 0, removing: 1, inserting: [])
            model.splice(at: 2, removing: 0, inserting: [])
            XCTAssertEqual(changes.list, [[1, 2, 3], [5, 0, 1], [0, 1, 0]], "an empty splice sends nothing")
            XCTAssertEqual(gtkStrings(model), ["x", "y", "z", "d", "e"])
            XCTAssertEqual(model.ids, ["x", "y", "z", "d", "e"])
        }
    }

    nonisolated func testHandlersSeeTheNewItemsDuringTheSignal() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a"])
            let changes = recordItemsChanged(of: model) { model in self.gtkStrings(model) }
            model.splice(at: 1, removing: 0, inserting: ["b"])
            XCTAssertEqual(changes.seen, [["a", "b"]])
        }
    }

    nonisolated func test100000IdsReachGtkInOneChange() {
        MainActor.assumeIsolated {
            let model = IdListModel()
            let changes = recordItemsChanged(of: model)
            let all = ids(100_000)
            model.replace(with: all)
            model.replace(with: all.reversed())  // a re-sort
            XCTAssertEqual(changes.list, [[0, 0, 100_000], [0, 100_000, 100_000]])
            XCTAssertEqual(g_list_model_get_n_items(model.opaque), 100_000)
            XCTAssertEqual(gtkString(model, 0), "note-99999")
            XCTAssertEqual(gtkString(model, 99_999), "note-0")
        }
    }

    nonisolated func testSingleSelectionFollowsSplicesAndLosesItsItemOnReplace() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b", "c", "d"])
            let selection = SingleSelection(model: model)
            XCTAssertEqual(g_list_model_get_n_items(selection.opaque), 4)
            selection.selected = 2
            XCTAssertEqual(selectedString(selection), "c")
            model.splice(at: 0, removing: 1, inserting: [])  // before the selection: it moves up
            XCTAssertEqual(selection.selected, 1)
            XCTAssertEqual(selectedString(selection), "c")
            model.splice(at: 2, removing: 1, inserting: ["e", "f"])  // after it: it stays
            XCTAssertEqual(selection.selected, 1)
            XCTAssertEqual(selectedString(selection), "c")
            XCTAssertEqual(g_list_model_get_n_items(selection.opaque), 4)
            // GtkSingleSelection keeps a selected item across a change covering it only if the
            // very same object comes back (ours are made anew unless a row shows them), after
            // asking for every added item; the app deselects first and re-selects by id.
            model.replace(with: ["f", "e", "c", "b"])
            XCTAssertNil(selection.selected)
            selection.selected = model.ids.firstIndex(of: "c")
            XCTAssertEqual(selectedString(selection), "c")
        }
    }

    nonisolated func testListViewBindsOnlyTheVisibleRowsOf100000() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ids(100_000))
            var bound: [Int: String] = [:]
            var binds = 0
            let factory = ListItemFactory()
            factory.onSetup { _, item in item.setChild(Label()) }
            factory.onBind { _, item in
                bound[item.position] = item.string
                binds += 1
            }
            let window = presentScrolling(ListView(selection: SingleSelection(model: model), factory: factory)).window
            defer { window.destroy() }
            XCTAssertTrue(spin(until: { bound[0] == "note-0" }), "the first row is bound")
            XCTAssertLessThan(binds, 500, "only rows near the view are made")
            model.replace(with: ids(100_000).reversed(), asNewItems: true)
            XCTAssertTrue(spin(until: { bound[0] == "note-99999" }), "the re-sort rebinds the rows, the view stays at the top")
            XCTAssertLessThan(binds, 1000)
        }
    }

    /// What a row shows (kept at bind) comes back as the same object while it lives; other ids'
    /// items are made anew each time; `asNewItems` forgets the kept ones.
    nonisolated func testAKeptItemIsTheSameObjectWhileItLives() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b", "c"])
            let shown = g_list_model_get_item(model.opaque, 1)
            model.keep(item: shown)  // as at bind
            let other = g_list_model_get_item(model.opaque, 0)
            XCTAssertNotEqual(g_list_model_get_item(model.opaque, 0).map { item in g_object_unref(item); return item }, other,
                              "not shown: a new item each time")
            g_object_unref(other)
            model.replace(with: ["c", "b", "a"])
            XCTAssertEqual(g_list_model_get_item(model.opaque, 1).map { item in g_object_unref(item); return item }, shown,
                           "the same id after a change: the same object")
            model.replace(with: ["c", "b", "a", "d"], asNewItems: true)
            XCTAssertNotEqual(g_list_model_get_item(model.opaque, 1).map { item in g_object_unref(item); return item }, shown,
                              "as new items: another object")
            g_object_unref(shown)
            XCTAssertEqual(gtkStrings(model), ["c", "b", "a", "d"])
        }
    }

    nonisolated func testAnItemMayOutliveItsModel() {
        MainActor.assumeIsolated {
            weak var box: IdListModel.Box?
            var item: UnsafeMutableRawPointer?
            do {
                let model = IdListModel(ids: ["a"])
                box = model.box
                item = g_list_model_get_item(model.opaque, 0)
                model.keep(item: item)
            }
            XCTAssertTrue(spin(until: { box == nil }), "the model was finalised")
            XCTAssertEqual(notula_id_item_get_id(item).map { String(cString: $0) }, "a")
            g_object_unref(item)  // its weak reference to the finalised model was removed
        }
    }

    /// GTK 4.8 finds a row's widget again by its item's address after an items-changed: a
    /// search that keeps most rows keeps their widgets (before, it destroyed the ~200 it had
    /// and made as many again).
    nonisolated func testRowsAChangeKeepsKeepTheirWidgets() {
        MainActor.assumeIsolated {
            let all = ids(1_000)
            let model = IdListModel(ids: all)
            let (rows, window) = presentCounting(model)
            defer { window.destroy() }
            let made = rows.setups
            XCTAssertGreaterThan(made, 100, "GTK 4.8 keeps ~200 rows")
            // Every tenth note leaves (as when a search narrows): one change over nearly all rows.
            model.replace(with: all.enumerated().filter { $0.offset % 10 != 0 }.map(\.element))
            XCTAssertTrue(spin(until: { rows.shownFromTop.prefix(2) == ["note-1", "note-2"] }), "the rows show the new order: \(rows.shownFromTop.prefix(3))")
            XCTAssertLessThan(rows.setups - made, made / 4, "only rows for notes that were not shown are made")
        }
    }

    /// A search that takes every row's id away gives those rows (their widgets) to the ids it
    /// brings, top row first, instead of GTK destroying them and making as many again; only
    /// ids `isGone` names are taken, and GTK binds the kept rows to their new ids.
    nonisolated func testRowsOfGoneIdsGoToTheIdsThatCome() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ids(1_000))
            let (rows, window) = presentCounting(model)
            defer { window.destroy() }
            let made = rows.setups
            let live = Set(model.liveIDs())
            XCTAssertTrue(live.contains("note-0") && live.contains("note-7"))
            let others = (0..<500).map { "other-\($0)" }
            // Rows are handed on only where RecyclingListView does it, GTK 4.8: GTK 4.18 keeps
            // such rows showing the gone ids ("note-7", "note-0", "note-1" at the top).
            let handsRowsOn = RecyclingListView<Label>.isGtk48OrOlder
            model.replace(with: ["note-7"] + others, isGone: handsRowsOn ? { $0 != "note-7" } : nil)
            XCTAssertTrue(spin(until: { rows.shownFromTop.prefix(2) == ["note-7", "other-0"] }), "the rows show the new ids, from the top: \(rows.shownFromTop.prefix(3))")
            _ = spin(until: { false }, timeout: 0.2)
            XCTAssertEqual(gtkStrings(model), ["note-7"] + others)
            XCTAssertTrue(Set(rows.shownFromTop).isSubset(of: Set(["note-7"] + others)), "no row shows a gone id")
            guard handsRowsOn else { return }
            XCTAssertLessThan(rows.setups - made, made / 4, "the rows were kept, not made again")
            let nowLive = Set(model.liveIDs())
            XCTAssertTrue(nowLive.isSubset(of: Set(["note-7"] + others)), "no item still names a gone id")
            XCTAssertGreaterThan(nowLive.count, made / 2)
        }
    }

    /// With `onRowsReused`, the rows on screen at the start of a change keep their place and
    /// show the new ids there: GTK's change starts after them, so GTK 4.8 does not look through
    /// every added row for the row it kept in view, and binds none of them again.
    nonisolated func testRowsOnScreenAtTheStartOfAChangeShowTheNewIdsInPlace() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ids(1_000))
            let (rows, window) = presentCounting(model)
            defer { window.destroy() }
            let made = rows.setups
            let topItem = g_list_model_get_item(model.opaque, 0)
            g_object_unref(topItem)
            var reused: [(old: String, new: String)] = []
            model.onRowsReused = { pairs in
                reused += pairs
                for (offset, pair) in pairs.enumerated() where rows.bound[offset] == pair.old { rows.bound[offset] = pair.new }
            }
            let changes = recordItemsChanged(of: model)
            let before = rows.bound
            // Every note but a few far down leaves; the note shown at row 3 comes first.
            let new = ["note-3"] + (0..<500).map { "other-\($0)" } + ["note-998", "note-999"]
            model.replace(with: new, isGone: { !["note-3", "note-998", "note-999"].contains($0) })

            XCTAssertGreaterThan(reused.count, made / 2, "the rows on screen are reused")
            XCTAssertEqual(reused.first?.old, "note-0")
            XCTAssertEqual(reused.first?.new, "note-3")
            XCTAssertEqual(reused.map(\.new), Array(new.prefix(reused.count)), "each row shows the id of its place")
            XCTAssertEqual(changes.list, [[reused.count, 998 - reused.count, 501 - reused.count]], "GTK's one change starts after them")
            XCTAssertEqual(g_list_model_get_item(model.opaque, 0).map { item in g_object_unref(item); return item }, topItem,
                           "the top row keeps its item: GTK keeps the row")
            XCTAssertEqual(gtkStrings(model), new)
            _ = spin(until: { false }, timeout: 0.2)
            XCTAssertEqual(rows.setups, made, "no row made again")
            for position in 0..<reused.count {
                XCTAssertEqual(rows.bound[position], new[position], "row \(position)")
                XCTAssertNotEqual(before[position], rows.bound[position])
            }
            XCTAssertTrue(Set(model.liveIDs()).isSubset(of: Set(new)), "no item names a gone id")
            XCTAssertTrue(Set(model.liveIDs()).isSuperset(of: Set(new.prefix(reused.count))))

            // Cleared: the one row shown keeps its place, the rest come after it.
            model.replace(with: ["note-3"])
            reused = []
            changes.list = []
            model.replace(with: ids(1_000))
            XCTAssertEqual(reused.map(\.old), ["note-3"])
            XCTAssertEqual(reused.map(\.new), ["note-0"])
            XCTAssertEqual(changes.list, [[1, 0, 999]])
            XCTAssertEqual(gtkStrings(model), ids(1_000))
            XCTAssertTrue(spin(until: { rows.bound[1] == "note-1" }))
        }
    }

    /// A reused row may take the id another reused row had (the notes move up by one).
    nonisolated func testReusedRowsMayTakeEachOthersIds() {
        MainActor.assumeIsolated {
            let model = IdListModel(ids: ["a", "b", "c", "d"])
            let items = (0..<3).map { position -> UnsafeMutableRawPointer? in
                let item = g_list_model_get_item(model.opaque, UInt32(position))
                model.keep(item: item)  // as at bind: rows show a, b, c
                return item
            }
            defer { items.forEach { g_object_unref($0) } }
            var reused: [[String]] = []
            model.onRowsReused = { reused += $0.map { [$0.old, $0.new] } }
            let changes = recordItemsChanged(of: model)
            model.replace(with: ["b", "c", "x", "d"])
            XCTAssertEqual(reused, [["a", "b"], ["b", "c"], ["c", "x"]])
            XCTAssertEqual(changes.list, [], "every changed row was reused: nothing for GTK")
            for (position, item) in items.enumerated() {
                XCTAssertEqual(g_list_model_get_item(model.opaque, UInt32(position)).map { item in g_object_unref(item); return item }, item)
            }
            XCTAssertEqual(gtkStrings(model), ["b", "c", "x", "d"])
            XCTAssertEqual(Set(model.liveIDs()), ["b", "c", "x"])
        }
    }

    nonisolated func testTheModelAndItsIdsAreFreedWithTheWrapper() {
        MainActor.assumeIsolated {
            weak var box: IdListModel.Box?
            let object = UnsafeMutablePointer<GWeakRef>.allocate(capacity: 1)
            object.initialize(to: GWeakRef())
            defer { g_weak_ref_clear(object); object.deallocate() }
            do {
                let model = IdListModel(ids: ["a", "b"])
                box = model.box
                g_weak_ref_init(object, model.raw)
                XCTAssertEqual(gtkStrings(model), ["a", "b"])
            }
            // Emitting items-changed (even with no handler) refs the model for the emission; the
            // toggle reference sees 1→2→1, so the wrapper goes on the next main-loop turn.
            XCTAssertTrue(spin(until: { box == nil }), "the destroy notify released the ids")
            XCTAssertNil(g_weak_ref_get(object), "the GObject was finalised")
        }
    }

    nonisolated func testTheModelIsFreedAfterItsListViewGoes() {
        MainActor.assumeIsolated {
            weak var box: IdListModel.Box?
            var bound = false
            do {
                let model = IdListModel(ids: ids(1_000))
                box = model.box
                let factory = ListItemFactory()
                factory.onSetup { _, item in item.setChild(Label()) }
                factory.onBind { _, _ in bound = true }
                let window = presentScrolling(ListView(selection: SingleSelection(model: model), factory: factory)).window
                XCTAssertTrue(spin(until: { bound }))
                window.destroy()
            }
            XCTAssertTrue(spin(until: { box == nil }), "model, selection and view are freed together")
        }
    }

    /// What a list's factory did: rows made, the id bound at each position, and each row's label.
    private final class RowLog {
        var setups = 0
        var bound: [Int: String] = [:]
        var labels: [Label] = []
        var list: ListView?

        /// What the rows on screen say, from the top of the view down: what the user sees,
        /// however the GTK in use got there (GTK 4.10 and later move a row whose item stays
        /// without binding it again, so `bound` says where a row was bound, not where it is).
        var shownFromTop: [String] {
            guard let list else { return [] }
            let placed = labels.filter(\.isMapped).compactMap { label -> (y: Double, text: String)? in
                var x = 0.0, y = 0.0
                guard notula_widget_origin_in(label.widget, list.widget, &x, &y) != 0, y >= 0 else { return nil }
                return (y, label.text)
            }
            return placed.sorted { $0.y < $1.y }.map(\.text)
        }
    }

    /// `model` in a list on screen whose first layout has settled, logging its rows.
    private func presentCounting(_ model: IdListModel) -> (RowLog, Window) {
        let log = RowLog()
        let factory = ListItemFactory()
        factory.onSetup { _, item in
            log.setups += 1
            let label = Label()
            log.labels.append(label)
            item.setChild(label)
            item.attachment = label
        }
        factory.onBind { _, item in
            log.bound[item.position] = item.string
            (item.attachment as? Label)?.text = item.string ?? ""
        }
        let list = ListView(selection: SingleSelection(model: model), factory: factory)
        log.list = list
        let window = presentScrolling(list).window
        XCTAssertTrue(spin(until: { log.bound[0] == model[0] }))
        _ = spin(until: { false }, timeout: 0.3)
        return (log, window)
    }

    // MARK: - What GTK sees

    private func gtkString(_ model: IdListModel, _ position: UInt32) -> String? {
        guard let item = g_list_model_get_item(model.opaque, position) else { return nil }
        defer { g_object_unref(item) }
        return notula_id_item_get_id(item).map { String(cString: $0) }
    }

    private func gtkStrings(_ model: IdListModel) -> [String] {
        (0..<g_list_model_get_n_items(model.opaque)).map { gtkString(model, $0) ?? "<nil>" }
    }

    private func selectedString(_ selection: SingleSelection) -> String? {
        guard let item = gtk_single_selection_get_selected_item(selection.opaque) else { return nil }
        return notula_id_item_get_id(item).map { String(cString: $0) }
    }

    /// Connects to the model's items-changed in C; the recorder lives as long as the handler.
    private func recordItemsChanged(of model: IdListModel,
                                    reading read: ((IdListModel) -> [String])? = nil) -> ItemsChangedRecorder {
        let recorder = ItemsChangedRecorder()
        if let read { recorder.read = { [weak model] in model.map(read) ?? [] } }
        let data = Unmanaged.passRetained(recorder).toOpaque()
        notula_signal_connect(model.raw, "items-changed", unsafeBitCast(itemsChangedTrampoline, to: GCallback.self),
                              data, releaseRecorder)
        return recorder
    }
}

/// Every (position, removed, added) the model emitted, and what a reader saw during each.
private final class ItemsChangedRecorder {
    var list: [[Int]] = []
    var seen: [[String]] = []
    var read: (() -> [String])?
}

/// `void (*)(GListModel *self, guint position, guint removed, guint added, gpointer data)`.
private let itemsChangedTrampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, position, removed, added, data in
    guard let data else { return }
    let recorder = Unmanaged<ItemsChangedRecorder>.fromOpaque(data).takeUnretainedValue()
    recorder.list.append([Int(position), Int(removed), Int(added)])
    if let read = recorder.read { recorder.seen.append(read()) }
}

private let releaseRecorder: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    guard let data else { return }
    Unmanaged<ItemsChangedRecorder>.fromOpaque(data).release()
}
