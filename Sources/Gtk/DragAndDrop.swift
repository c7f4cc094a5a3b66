import CGtk

/// Dragging text from a widget and dropping text on one (a note's id onto a notebook).
/// The controllers are owned by the widget; the handlers' boxes by GLib, as for signals.
extension Widget {
    /// Makes the widget a drag source; `text` gives what to drag, or nil for no drag.
    public func dragsText(_ text: @escaping () -> String?) {
        let source = EventController(UnsafeMutableRawPointer(gtk_drag_source_new()!), .full)
        gtk_drag_source_set_actions(OpaquePointer(source.raw), GDK_ACTION_MOVE)
        source.connectPrepare {
            guard let text = text() else { return nil }
            return UnsafeMutableRawPointer(notula_content_provider_for_string(text))
        }
        addController(source)
    }

    /// Accepts dropped text; the handler says whether it took it. `onHover` runs when a drag
    /// comes over the widget (GtkDropTarget's current drop is set).
    public func acceptDroppedText(_ handler: @escaping (String) -> Bool, onHover: (() -> Void)? = nil) {
        let target = EventController(UnsafeMutableRawPointer(notula_drop_target_new_string()!), .full)
        target.connectDrop { value in
            guard let value, let text = notula_value_get_string(value.assumingMemoryBound(to: GValue.self)) else { return false }
            return handler(String(cString: text))
        }
        if let onHover {
            target.connectPointer("notify::current-drop", target) { target, _ in
                if gtk_drop_target_get_current_drop(OpaquePointer(target.raw)) != nil { onHover() }
            }
        }
        addController(target)
    }
}
