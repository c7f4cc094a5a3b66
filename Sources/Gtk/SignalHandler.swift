import CGtk

/// The box GLib carries as a handler's user data. Retained at connect, released once by
/// `releaseSignalHandler` when GLib disconnects the handler or disposes the object.
final class SignalHandler<Handler> {
    let handler: Handler
    init(_ handler: Handler) { self.handler = handler }

    static func from(_ data: UnsafeMutableRawPointer?) -> Handler? {
        guard let data else { return nil }
        return Unmanaged<SignalHandler>.fromOpaque(data).takeUnretainedValue().handler
    }
}

/// GClosureNotify: GLib calls it once, when the handler is disconnected or its object disposed.
/// Releasing a box needs no isolation (it may run where the object is finalised).
nonisolated private let releaseSignalHandler: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GClosure>?) -> Void = { data, _ in
    releaseBox(data)
}

/// GDestroyNotify for every Swift box GLib or GTK carries (source closures, list-model ids,
/// qdata, D-Bus subscriptions): releases the reference taken with `passRetained`. It needs no
/// isolation: a release is thread-safe, and a box's deinit touches no GTK object.
nonisolated let releaseBox: GDestroyNotify = { data in
    guard let data else { return }
    Unmanaged<AnyObject>.fromOpaque(data).release()
}

// Trampolines, one per C signature; each must match its signal's arity exactly.
// They are file-level constants so no generic context is captured in a C function pointer.

/// Runs a trampoline's work on the main actor with the handler box `data` and the signal's
/// pointer argument. GLib runs a handler on the thread that emits the signal, and GTK emits
/// its signals on the main thread only (GTK is not thread-safe, and nothing calls it elsewhere:
/// this module is main-actor isolated), so `assumeIsolated` holds; it also stops the program if
/// that ever stops being true.
nonisolated func onMainActor<Result: Sendable>(_ data: UnsafeMutableRawPointer?, _ argument: UnsafeMutableRawPointer? = nil,
                                               _ body: @MainActor @Sendable (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Result) -> Result {
    // Pointers are not Sendable. These are GLib's, valid for this call, on this thread.
    nonisolated(unsafe) let data = data, argument = argument
    return MainActor.assumeIsolated { body(data, argument) }
}

/// `onMainActor` for signals with two pointer arguments (a text buffer's iterators).
nonisolated func onMainActor<Result: Sendable>(_ data: UnsafeMutableRawPointer?, _ first: UnsafeMutableRawPointer?, _ second: UnsafeMutableRawPointer?,
                                               _ body: @MainActor @Sendable (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Result) -> Result {
    // As above: GLib's pointers, valid for this call, on this thread.
    nonisolated(unsafe) let data = data, first = first, second = second
    return MainActor.assumeIsolated { body(data, first, second) }
}

/// `void (*)(GObject *self, gpointer data)`: clicked, changed, activate, destroy, …
nonisolated private let voidTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
    onMainActor(data) { data, _ in SignalHandler<() -> Void>.from(data)?() }
}
/// `gboolean (*)(GObject *self, gpointer data)`: close-request.
nonisolated private let boolTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, data in
    onMainActor(data) { data, _ in (SignalHandler<() -> Bool>.from(data)?() ?? false) ? 1 : 0 }
}
/// `void (*)(GObject *self, gpointer arg, gpointer data)`: factory setup/bind, action activate, notify.
nonisolated private let pointerTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
    onMainActor(data, arg) { data, arg in SignalHandler<(UnsafeMutableRawPointer?) -> Void>.from(data)?(arg) }
}
/// `gboolean (*)(GObject *self, gpointer arg, gpointer data)`: paginate.
nonisolated private let pointerBoolTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, arg, data in
    onMainActor(data, arg) { data, arg in (SignalHandler<(UnsafeMutableRawPointer?) -> Bool>.from(data)?(arg) ?? true) ? 1 : 0 }
}
/// `void (*)(GObject *self, gint arg, gpointer data)`: dialog response; guint position: list activate.
nonisolated private let intTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, arg, data in
    onMainActor(data) { data, _ in SignalHandler<(Int32) -> Void>.from(data)?(arg) }
}
/// `void (*)(GObject *self, gpointer arg, gint n, gpointer data)`: a print operation's draw-page.
nonisolated private let pointerIntTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, arg, n, data in
    onMainActor(data, arg) { data, arg in SignalHandler<(UnsafeMutableRawPointer?, Int32) -> Void>.from(data)?(arg, n) }
}
/// `void (*)(GObject *self, guint a, guint b, gpointer data)`: selection-changed.
nonisolated private let uintPairTrampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, a, b, data in
    onMainActor(data) { data, _ in SignalHandler<(UInt32, UInt32) -> Void>.from(data)?(a, b) }
}
/// `void (*)(GListModel *self, guint position, guint removed, guint added, gpointer data)`: items-changed.
nonisolated private let uintTripleTrampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, a, b, c, data in
    onMainActor(data) { data, _ in SignalHandler<(UInt32, UInt32, UInt32) -> Void>.from(data)?(a, b, c) }
}
/// `void (*)(GApplication *self, GFile **files, gint n_files, gchar *hint, gpointer data)`: open.
nonisolated private let filesTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafeMutablePointer<CChar>?, UnsafeMutableRawPointer?) -> Void = { _, files, count, _, data in
    let paths: [String] = (0..<Int(max(count, 0))).compactMap { index in
        guard let file = files?[index], let path = g_file_get_path(file) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
    onMainActor(data) { data, _ in SignalHandler<([String]) -> Void>.from(data)?(paths) }
}
/// `gboolean (*)(GtkEventControllerKey *self, guint keyval, guint keycode, GdkModifierType state, gpointer data)`.
nonisolated private let keyTrampoline: @convention(c) (UnsafeMutableRawPointer?, UInt32, UInt32, UInt32, UnsafeMutableRawPointer?) -> gboolean = { _, keyval, _, state, data in
    onMainActor(data) { data, _ in (SignalHandler<(UInt32, UInt32) -> Bool>.from(data)?(keyval, state) ?? false) ? 1 : 0 }
}

/// `gint (*)(GApplication *self, GVariantDict *options, gpointer data)`: handle-local-options.
nonisolated private let optionsTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = { _, dict, data in
    onMainActor(data, dict) { data, dict in SignalHandler<(UnsafeMutableRawPointer?) -> Int32>.from(data)?(dict) ?? -1 }
}

/// `gboolean (*)(GtkDropTarget *self, const GValue *value, double x, double y, gpointer data)`: drop.
nonisolated private let dropTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, _, _, data in
    onMainActor(data, value) { data, value in (SignalHandler<(UnsafeMutableRawPointer?) -> Bool>.from(data)?(value) ?? false) ? 1 : 0 }
}
/// `GdkContentProvider *(*)(GtkDragSource *self, double x, double y, gpointer data)`: prepare.
nonisolated private let prepareTrampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { _, _, _, data in
    // The provider leaves the main actor as its address (a pointer is not Sendable).
    let address = onMainActor(data) { data, _ in UInt(bitPattern: SignalHandler<() -> UnsafeMutableRawPointer?>.from(data)?() ?? nil) }
    return UnsafeMutableRawPointer(bitPattern: address)
}

extension Object {
    private func connect<Handler, Trampoline>(_ signal: String, _ handler: Handler, _ trampoline: Trampoline) -> SignalConnection {
        let data = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        let id = notula_signal_connect(raw, signal, unsafeBitCast(trampoline, to: GCallback.self), data, releaseSignalHandler)
        return SignalConnection(id: id)
    }

    // Each typed method hands the handler its wrapper weakly: the box never keeps the wrapper
    // alive, and a handler never runs once the wrapper is gone.

    @discardableResult
    func connectVoid<Owner: Object>(_ signal: String, _ owner: Owner, _ handler: @escaping (Owner) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] () -> Void in if let owner { handler(owner) } }, voidTrampoline)
    }

    /// A signal of an object the owner holds inside (a menu button's popover) that has no
    /// wrapper of its own; the handler gets the owner, weakly, as every handler here.
    @discardableResult
    func connectVoid<Owner: Object>(_ signal: String, of inner: UnsafeMutableRawPointer, _ owner: Owner,
                                    _ handler: @escaping (Owner) -> Void) -> SignalConnection {
        let data = Unmanaged.passRetained(SignalHandler({ [weak owner] () -> Void in if let owner { handler(owner) } })).toOpaque()
        let id = notula_signal_connect(inner, signal, unsafeBitCast(voidTrampoline, to: GCallback.self), data, releaseSignalHandler)
        return SignalConnection(id: id)
    }

    @discardableResult
    func connectBool<Owner: Object>(_ signal: String, _ owner: Owner, _ handler: @escaping (Owner) -> Bool) -> SignalConnection {
        connect(signal, { [weak owner] () -> Bool in owner.map(handler) ?? false }, boolTrampoline)
    }

    @discardableResult
    func connectPointer<Owner: Object>(_ signal: String, _ owner: Owner,
                                       _ handler: @escaping (Owner, UnsafeMutableRawPointer?) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (arg: UnsafeMutableRawPointer?) -> Void in if let owner { handler(owner, arg) } }, pointerTrampoline)
    }

    /// A signal whose handler takes a pointer and answers yes or no (gone owner: yes).
    @discardableResult
    func connectPointerBool<Owner: Object>(_ signal: String, _ owner: Owner,
                                           _ handler: @escaping (Owner, UnsafeMutableRawPointer?) -> Bool) -> SignalConnection {
        connect(signal, { [weak owner] (arg: UnsafeMutableRawPointer?) -> Bool in owner.map { handler($0, arg) } ?? true }, pointerBoolTrampoline)
    }

    @discardableResult
    func connectInt<Owner: Object>(_ signal: String, _ owner: Owner, _ handler: @escaping (Owner, Int32) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (arg: Int32) -> Void in if let owner { handler(owner, arg) } }, intTrampoline)
    }

    @discardableResult
    func connectPointerInt<Owner: Object>(_ signal: String, _ owner: Owner,
                                          _ handler: @escaping (Owner, UnsafeMutableRawPointer?, Int32) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (arg: UnsafeMutableRawPointer?, n: Int32) -> Void in if let owner { handler(owner, arg, n) } },
                pointerIntTrampoline)
    }

    @discardableResult
    func connectUIntTriple<Owner: Object>(_ signal: String, _ owner: Owner,
                                          _ handler: @escaping (Owner, UInt32, UInt32, UInt32) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (a: UInt32, b: UInt32, c: UInt32) -> Void in if let owner { handler(owner, a, b, c) } },
                uintTripleTrampoline)
    }

    @discardableResult
    func connectUIntPair<Owner: Object>(_ signal: String, _ owner: Owner,
                                        _ handler: @escaping (Owner, UInt32, UInt32) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (a: UInt32, b: UInt32) -> Void in if let owner { handler(owner, a, b) } }, uintPairTrampoline)
    }

    /// GApplication's open: the files' local paths (files without one are left out).
    @discardableResult
    func connectFiles<Owner: Object>(_ signal: String, _ owner: Owner, _ handler: @escaping (Owner, [String]) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (paths: [String]) -> Void in if let owner { handler(owner, paths) } }, filesTrampoline)
    }

    @discardableResult
    func connectKey<Owner: Object>(_ signal: String, _ owner: Owner,
                                   _ handler: @escaping (Owner, UInt32, UInt32) -> Bool) -> SignalConnection {
        connect(signal, { [weak owner] (keyval: UInt32, state: UInt32) -> Bool in
            guard let owner else { return false }
            return handler(owner, keyval, state)
        }, keyTrampoline)
    }

    @discardableResult
    func connectOptions<Owner: Object>(_ signal: String, _ owner: Owner,
                                       _ handler: @escaping (Owner, UnsafeMutableRawPointer?) -> Int32) -> SignalConnection {
        connect(signal, { [weak owner] (dict: UnsafeMutableRawPointer?) -> Int32 in
            guard let owner else { return -1 }
            return handler(owner, dict)
        }, optionsTrampoline)
    }
}

/// `void (*)(GtkGestureClick *self, gint n_press, double x, double y, gpointer data)`: pressed.
nonisolated private let pressTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, count, x, y, data in
    onMainActor(data) { data, _ in SignalHandler<(Int32, Double, Double) -> Void>.from(data)?(count, x, y) }
}
/// `void (*)(GtkEventControllerMotion *self, double x, double y, gpointer data)`: motion, enter.
nonisolated private let pointTrampoline: @convention(c) (UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> Void = { _, x, y, data in
    onMainActor(data) { data, _ in SignalHandler<(Double, Double) -> Void>.from(data)?(x, y) }
}
/// `void (*)(GtkTextBuffer *self, GtkTextIter *location, char *text, int len, gpointer data)`: insert-text.
nonisolated private let insertTextTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> Void = { _, iter, text, length, data in
    guard let iter, let text else { return }
    let offset = Int(gtk_text_iter_get_offset(iter)), characters = Int(g_utf8_strlen(text, gssize(length)))
    onMainActor(data) { data, _ in SignalHandler<(Int, Int) -> Void>.from(data)?(offset, characters) }
}
/// `void (*)(GtkTextBuffer *self, GtkTextIter *start, GtkTextIter *end, gpointer data)`: delete-range.
nonisolated private let deleteRangeTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafeMutablePointer<GtkTextIter>?, UnsafeMutableRawPointer?) -> Void = { _, start, end, data in
    guard let start, let end else { return }
    let from = Int(gtk_text_iter_get_offset(start)), to = Int(gtk_text_iter_get_offset(end))
    onMainActor(data) { data, _ in SignalHandler<(Int, Int) -> Void>.from(data)?(from, to) }
}

/// insert-text before GTK inserts: the iterator GTK inserts at, and the text's bytes.
nonisolated private let insertTextBeforeTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafePointer<CChar>?, Int32, UnsafeMutableRawPointer?) -> Void = { _, iter, text, length, data in
    guard let iter, let text else { return }
    onMainActor(data, UnsafeMutableRawPointer(iter), UnsafeMutableRawPointer(mutating: text)) { data, iter, text in
        guard let iter, let text else { return }
        let bytes = UnsafeRawBufferPointer(start: text, count: Int(max(length, 0)))
        SignalHandler<(UnsafeMutablePointer<GtkTextIter>, UnsafeRawBufferPointer) -> Void>.from(data)?(iter.assumingMemoryBound(to: GtkTextIter.self), bytes)
    }
}
/// delete-range before GTK deletes: the two iterators, which GTK expects at the deletion point after.
nonisolated private let deleteRangeBeforeTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GtkTextIter>?, UnsafeMutablePointer<GtkTextIter>?, UnsafeMutableRawPointer?) -> Void = { _, start, end, data in
    guard let start, let end else { return }
    onMainActor(data, UnsafeMutableRawPointer(start), UnsafeMutableRawPointer(end)) { data, start, end in
        guard let start, let end else { return }
        SignalHandler<(UnsafeMutablePointer<GtkTextIter>, UnsafeMutablePointer<GtkTextIter>) -> Void>.from(data)?(
            start.assumingMemoryBound(to: GtkTextIter.self), end.assumingMemoryBound(to: GtkTextIter.self))
    }
}

extension Object {
    /// insert-text, run before GTK inserts (the handler may stop the emission and insert
    /// something else at the iterator, which GTK then expects after the inserted text).
    @discardableResult
    func connectInsertTextBefore<Owner: Object>(_ owner: Owner,
                                                _ handler: @escaping (Owner, UnsafeMutablePointer<GtkTextIter>, UnsafeRawBufferPointer) -> Void) -> SignalConnection {
        connect("insert-text", { [weak owner] (iter: UnsafeMutablePointer<GtkTextIter>, text: UnsafeRawBufferPointer) -> Void in
            if let owner { handler(owner, iter, text) }
        }, insertTextBeforeTrampoline)
    }

    /// delete-range, run before GTK deletes (the handler may stop the emission and edit itself).
    @discardableResult
    func connectDeleteRangeBefore<Owner: Object>(_ owner: Owner,
                                                 _ handler: @escaping (Owner, UnsafeMutablePointer<GtkTextIter>, UnsafeMutablePointer<GtkTextIter>) -> Void) -> SignalConnection {
        connect("delete-range", { [weak owner] (start: UnsafeMutablePointer<GtkTextIter>, end: UnsafeMutablePointer<GtkTextIter>) -> Void in
            if let owner { handler(owner, start, end) }
        }, deleteRangeBeforeTrampoline)
    }

    /// A signal without arguments, run after its default handler (undo's, redo's work).
    @discardableResult
    func connectVoidAfter<Owner: Object>(_ signal: String, _ owner: Owner, _ handler: @escaping (Owner) -> Void) -> SignalConnection {
        connectAfter(signal, { [weak owner] () -> Void in if let owner { handler(owner) } }, voidTrampoline)
    }
}

extension Object {
    @discardableResult
    func connectPress<Owner: Object>(_ signal: String, _ owner: Owner,
                                     _ handler: @escaping (Owner, Int, Double, Double) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (count: Int32, x: Double, y: Double) -> Void in if let owner { handler(owner, Int(count), x, y) } },
                pressTrampoline)
    }

    @discardableResult
    func connectPoint<Owner: Object>(_ signal: String, _ owner: Owner, _ handler: @escaping (Owner, Double, Double) -> Void) -> SignalConnection {
        connect(signal, { [weak owner] (x: Double, y: Double) -> Void in if let owner { handler(owner, x, y) } }, pointTrampoline)
    }

    /// insert-text, run after GTK inserted: the handler gets the inserted text's first
    /// character offset and its length in characters.
    @discardableResult
    func connectInsertedText<Owner: Object>(_ owner: Owner, _ handler: @escaping (Owner, Int, Int) -> Void) -> SignalConnection {
        connectAfter("insert-text", { [weak owner] (end: Int, count: Int) -> Void in if let owner { handler(owner, end - count, count) } },
                     insertTextTrampoline)
    }

    /// delete-range, run after GTK deleted: start and end are then the same offset.
    @discardableResult
    func connectDeletedRange<Owner: Object>(_ owner: Owner, _ handler: @escaping (Owner, Int) -> Void) -> SignalConnection {
        connectAfter("delete-range", { [weak owner] (start: Int, _: Int) -> Void in if let owner { handler(owner, start) } },
                     deleteRangeTrampoline)
    }

    private func connectAfter<Handler, Trampoline>(_ signal: String, _ handler: Handler, _ trampoline: Trampoline) -> SignalConnection {
        let data = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        let id = notula_signal_connect_after(raw, signal, unsafeBitCast(trampoline, to: GCallback.self), data, releaseSignalHandler)
        return SignalConnection(id: id)
    }
}

extension Object {
    /// drop: the handler gets the dropped GValue and says whether it took it.
    @discardableResult
    func connectDrop(_ handler: @escaping (UnsafeMutableRawPointer?) -> Bool) -> SignalConnection {
        connect("drop", handler, dropTrampoline)
    }

    /// prepare: the handler returns a new GdkContentProvider (or nil: no drag).
    @discardableResult
    func connectPrepare(_ handler: @escaping () -> UnsafeMutableRawPointer?) -> SignalConnection {
        connect("prepare", handler, prepareTrampoline)
    }
}

/// `drop` with its point (files dropped on the editor go where they were dropped).
nonisolated private let dropAtTrampoline: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Double, Double, UnsafeMutableRawPointer?) -> gboolean = { _, value, x, y, data in
    onMainActor(data, value) { data, value in (SignalHandler<(UnsafeMutableRawPointer?, Double, Double) -> Bool>.from(data)?(value, x, y) ?? false) ? 1 : 0 }
}

extension Object {
    @discardableResult
    func connectDropAt(_ handler: @escaping (UnsafeMutableRawPointer?, Double, Double) -> Bool) -> SignalConnection {
        let data = Unmanaged.passRetained(SignalHandler(handler)).toOpaque()
        return SignalConnection(id: notula_signal_connect(raw, "drop", unsafeBitCast(dropAtTrampoline, to: GCallback.self), data, releaseSignalHandler))
    }
}
