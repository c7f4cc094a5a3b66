/// Which notes of the list the user has selected, by id, so a selection is never about
/// positions: when the list changes under it (another program adds or removes notes, a
/// re-sort, a search), the same notes stay selected and never others. `lead` is the note the
/// keyboard and the editor are on (the one note shown when only one is selected); `anchor` is
/// where Shift+click and Shift+arrows extend a range from.
public struct NoteSelection: Equatable, Sendable {
    public private(set) var ids: Set<String> = []
    public private(set) var lead: String?
    public private(set) var anchor: String?

    public init() {}

    public var count: Int { ids.count }
    /// Several notes: the window shows what they are and the actions for them, not one note.
    public var isMultiple: Bool { ids.count > 1 }
    public func contains(_ id: String) -> Bool { ids.contains(id) }

    /// A plain click, the arrows, a note opened: that one note alone (none for nil).
    public mutating func selectOnly(_ id: String?) {
        ids = id.map { [$0] } ?? []
        lead = id
        anchor = id
    }

    /// Ctrl+click: the note joins or leaves the selection, and ranges start from it. The last
    /// note left is kept (Ctrl+click never leaves nothing selected).
    public mutating func toggle(_ id: String) {
        if ids.contains(id) {
            guard ids.count > 1 else { return }
            ids.remove(id)
            if lead == id { lead = ids.first }
        } else {
            ids.insert(id)
            lead = id
        }
        anchor = id
    }

    /// Shift+click, Shift+Up/Down: every note from the anchor to `id` in the list's `order`
    /// (what it shows now), in place of what was selected.
    public mutating func extend(to id: String, in order: [String]) {
        guard let end = order.firstIndex(of: id) else { return }
        let start = anchor.flatMap { order.firstIndex(of: $0) } ?? end
        ids = Set(order[min(start, end)...max(start, end)])
        if anchor == nil { anchor = id }
        lead = id
    }

    /// Ctrl+A: every note the list shows.
    public mutating func selectAll(_ order: [String]) {
        guard !order.isEmpty else { return }
        ids = Set(order)
        if lead == nil || !ids.contains(lead!) { lead = order.first }
        if anchor == nil || !ids.contains(anchor!) { anchor = lead }
    }

    /// The list changed: only notes it still shows stay selected (`isShown`). Returns whether
    /// the selection changed.
    @discardableResult
    public mutating func keep(where isShown: (String) -> Bool) -> Bool {
        let kept = ids.filter(isShown)
        guard kept.count != ids.count || lead.map(isShown) == false else { return false }
        ids = kept
        if let lead, !isShown(lead) { self.lead = kept.first }
        if let anchor, !isShown(anchor) { self.anchor = self.lead }
        return true
    }

    /// A note took another id (moved into a notebook, renamed by a sync client's move).
    public mutating func rename(_ id: String, to newID: String) {
        guard ids.remove(id) != nil else { return }
        ids.insert(newID)
        if lead == id { lead = newID }
        if anchor == id { anchor = newID }
    }

    /// Every note of `moves` (old id → new id) renamed at once, as `rename` does one; made away
    /// from the window for 100,000 notes moved.
    public func renaming(_ moves: [String: String]) -> NoteSelection {
        var renamed = self
        renamed.ids = Set(ids.lazy.map { moves[$0] ?? $0 })
        renamed.lead = lead.map { moves[$0] ?? $0 }
        renamed.anchor = anchor.map { moves[$0] ?? $0 }
        return renamed
    }

    /// The selected notes in the list's `order`.
    public func ordered(in order: [String]) -> [String] {
        order.filter(ids.contains)
    }
}
