import CGtk
import CMarkedSelection

/// The selection model a `RecyclingListView` gives GTK: its `SingleSelection` (the row the
/// keyboard is on, what a plain click selects) and, beside it, the rows the caller marks
/// (`isMarked`: several notes selected). GTK draws marked rows selected and tells the
/// accessibility bus they are, and the list's count of selected children includes them.
public final class MarkedSelection: Object {
    /// The caller's marks, shared with the C callback: retained for the model, released by
    /// its destroy notify.
    nonisolated final class Box: @unchecked Sendable {  // main thread only: GTK asks there
        var isMarked: ((Int) -> Bool)?
    }

    private let box = Box()

    init(single: SingleSelection) {
        let data = Unmanaged.passRetained(box).toOpaque()
        super.init(UnsafeMutableRawPointer(notula_marked_selection_new(single.opaque, isMarkedAt, data, releaseBox)!), .full)
    }

    /// Whether the row at a position is marked (asked by GTK as it shows rows, and by screen
    /// readers); nil: none is.
    public var isMarked: ((Int) -> Bool)? {
        get { box.isMarked }
        set { box.isMarked = newValue }
    }

    /// How many rows GTK counts selected (what a screen reader is told).
    public var selectedCount: Int {
        let selected = gtk_selection_model_get_selection(opaque)
        defer { gtk_bitset_unref(selected) }
        return Int(gtk_bitset_get_size(selected))
    }

    /// Whether GTK sees the row at `position` selected.
    public func isSelected(_ position: Int) -> Bool {
        gtk_selection_model_is_selected(opaque, UInt32(position)) != 0
    }

    /// The marks changed: GTK asks every row it shows again.
    public func marksChanged() {
        notula_marked_selection_marks_changed(opaque)
    }
}

/// `gboolean (*)(void *data, guint position)`, on the main thread where GTK draws the list.
nonisolated private let isMarkedAt: @convention(c) (UnsafeMutableRawPointer?, UInt32) -> gboolean = { data, position in
    guard let data else { return 0 }
    return Unmanaged<MarkedSelection.Box>.fromOpaque(data)._withUnsafeGuaranteedRef { box in
        MainActor.assumeIsolated { box.isMarked?(Int(position)) ?? false } ? 1 : 0
    }
}
