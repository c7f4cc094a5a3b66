// Gtk — the thin Swift wrapper over GTK 4 (see docs/ARCHITECTURE.md).
//
// Rules this module keeps so that app code never touches an unsafe pointer:
// - every wrapper holds its GObject through a toggle reference (floating ones are sunk first):
//   while GTK also holds the object (a widget in a window, an action in the application) the
//   object keeps its wrapper alive, so handlers keep working after app code lets go of the
//   wrapper; once only the wrapper is left, Swift alone decides, and the pair is freed
//   together (as PyGObject does). No cycles, no early frees;
// - every signal handler is a Swift closure in a box retained at connect and released by the
//   destroy-notify GLib calls when the handler is disconnected or the object is disposed;
// - handlers receive their object weakly, so a handler never keeps its widget alive and never
//   runs for a wrapper that is gone;
// - toplevel windows are destroyed with gtk_window_destroy (Window.destroy()).
// No application logic lives here.
import CGtk
import Dispatch

/// A wrapped GObject. The object lives at least as long as the wrapper; the wrapper lives at
/// least as long as anything else (GTK) holds the object.
// `@MainActor` as the whole module is (default isolation), said here too: the release build
// (whole-module) does not see that isolation when it checks an isolated deinit (Swift 6.3).
@MainActor
public class Object {
    /// The GObject instance. Only this module sees it.
    let raw: UnsafeMutableRawPointer
    /// True while other references to the object exist and so the object retains its wrapper.
    private var isRetainedByObject = false

    /// How a C constructor hands over its object.
    enum Ownership {
        /// The caller owns a full, non-floating reference (windows excepted, most non-widgets).
        case full
        /// Floating (most widget constructors) or borrowed (transfer none): sink or add a ref.
        case floatingOrBorrowed
    }

    init(_ pointer: UnsafeMutableRawPointer, _ ownership: Ownership) {
        raw = pointer
        if ownership == .floatingOrBorrowed { g_object_ref_sink(pointer) }
        // Trade our normal reference for the toggle reference.
        g_object_add_toggle_ref(raw.assumingMemoryBound(to: GObject.self), toggleNotify, Unmanaged.passUnretained(self).toOpaque())
        if notula_object_refcount(raw) > 2 { toggled(isLastReference: false) }
        g_object_unref(raw)
    }

    /// GTK objects must be finalised on the main thread: when the last reference to a wrapper
    /// goes elsewhere (a background closure held a widget), Swift runs this on the main actor
    /// later.
    isolated deinit {
        g_object_remove_toggle_ref(raw.assumingMemoryBound(to: GObject.self), toggleNotify, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func toggled(isLastReference: Bool) {
        if isLastReference {
            guard isRetainedByObject else { return }
            isRetainedByObject = false
            // Released on the next main-loop turn, not inside GLib's unref.
            let wrapper = Unmanaged.passUnretained(self)
            DispatchQueue.main.async { wrapper.release() }
        } else if !isRetainedByObject {
            isRetainedByObject = true
            _ = Unmanaged.passRetained(self)
        }
    }

    /// Typed view of the instance for C calls whose struct is public in the headers.
    func ptr<T>() -> UnsafeMutablePointer<T> { raw.assumingMemoryBound(to: T.self) }
    /// View of the instance for C calls whose struct is opaque.
    var opaque: OpaquePointer { OpaquePointer(raw) }


    /// Disconnects a handler; its box is released by GLib's destroy-notify.
    public func disconnect(_ connection: SignalConnection) {
        if g_signal_handler_is_connected(raw, connection.id) != 0 {
            g_signal_handler_disconnect(raw, connection.id)
        }
    }
}

/// A connected signal handler, for disconnecting it early.
public struct SignalConnection: Hashable {
    let id: gulong
}

/// GToggleNotify: the object's reference count moved between 1 (only our toggle reference)
/// and more.
nonisolated private let toggleNotify: GToggleNotify = { data, _, isLastReference in
    guard let data else { return }
    // GLib notifies on the thread that changes the count: GTK's, the main thread. Unretained:
    // the wrapper may be in its deinit, which must not retain it.
    onMainActor(data) { data, _ in Unmanaged<Object>.fromOpaque(data!)._withUnsafeGuaranteedRef { $0.toggled(isLastReference: isLastReference != 0) } }
}
