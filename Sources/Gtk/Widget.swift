import CGtk

/// A wrapped GtkWidget.
public class Widget: Object {
    var widget: UnsafeMutablePointer<GtkWidget> { ptr() }

    /// Wraps a freshly constructed (floating) widget, sinking the floating reference.
    init(floating pointer: UnsafeMutablePointer<GtkWidget>?) {
        super.init(UnsafeMutableRawPointer(pointer!), .floatingOrBorrowed)
    }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(widget) != 0 }
        set { gtk_widget_set_visible(widget, newValue ? 1 : 0) }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(widget) != 0 }
        set { gtk_widget_set_sensitive(widget, newValue ? 1 : 0) }
    }

    public var isMapped: Bool { gtk_widget_get_mapped(widget) != 0 }

    public var hexpand: Bool {
        get { gtk_widget_get_hexpand(widget) != 0 }
        set { gtk_widget_set_hexpand(widget, newValue ? 1 : 0) }
    }

    public var vexpand: Bool {
        get { gtk_widget_get_vexpand(widget) != 0 }
        set { gtk_widget_set_vexpand(widget, newValue ? 1 : 0) }
    }

    public enum Align: UInt32 {
        case fill, start, end, center, baseline
        var gtk: GtkAlign { GtkAlign(rawValue) }
    }

    public var halign: Align {
        get { Align(rawValue: gtk_widget_get_halign(widget).rawValue) ?? .fill }
        set { gtk_widget_set_halign(widget, newValue.gtk) }
    }

    public var valign: Align {
        get { Align(rawValue: gtk_widget_get_valign(widget).rawValue) ?? .fill }
        set { gtk_widget_set_valign(widget, newValue.gtk) }
    }

    /// Sets all four margins at once.
    public func setMargins(top: Int, bottom: Int, start: Int, end: Int) {
        gtk_widget_set_margin_top(widget, Int32(clamping: top))
        gtk_widget_set_margin_bottom(widget, Int32(clamping: bottom))
        gtk_widget_set_margin_start(widget, Int32(clamping: start))
        gtk_widget_set_margin_end(widget, Int32(clamping: end))
    }

    public func setSizeRequest(width: Int, height: Int) {
        gtk_widget_set_size_request(widget, Int32(clamping: width), Int32(clamping: height))
    }

    public var width: Int { Int(gtk_widget_get_width(widget)) }
    public var height: Int { Int(gtk_widget_get_height(widget)) }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(widget, name) }
    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(widget, name) }
    public func hasCSSClass(_ name: String) -> Bool { gtk_widget_has_css_class(widget, name) != 0 }

    public var tooltip: String? {
        get { gtk_widget_get_tooltip_text(widget).map { String(cString: $0) } }
        // Unchanged: not set again (GTK asks the display server for the pointer each time).
        set { if newValue != tooltip { gtk_widget_set_tooltip_text(widget, newValue) } }
    }

    /// The pointer is over the widget now (GTK tells a widget that appears under a pointer at
    /// rest nothing: no "enter").
    public var hasPointer: Bool { notula_widget_has_pointer(widget) != 0 }

    /// The name assistive technologies read for this widget.
    public var accessibleLabel: String = "" {
        didSet { notula_accessible_set_label(OpaquePointer(raw), accessibleLabel) }
    }

    /// Gives the label to GTK again, where the widget's place changed (ListItem.setChild).
    func applyAccessibleLabel() {
        if !accessibleLabel.isEmpty { notula_accessible_set_label(OpaquePointer(raw), accessibleLabel) }
    }

    /// A longer description assistive technologies read after the name.
    public var accessibleDescription: String = "" {
        didSet { notula_accessible_set_description(OpaquePointer(raw), accessibleDescription) }
    }

    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(widget) != 0 }
    public var hasFocus: Bool { gtk_widget_has_focus(widget) != 0 }

    public var canFocus: Bool {
        get { gtk_widget_get_can_focus(widget) != 0 }
        set { gtk_widget_set_can_focus(widget, newValue ? 1 : 0) }
    }

    /// Whether pointer events go to this widget (false: to the widget below it).
    public var canTarget: Bool {
        get { gtk_widget_get_can_target(widget) != 0 }
        set { gtk_widget_set_can_target(widget, newValue ? 1 : 0) }
    }

    /// Actions for this widget and its children, named "PREFIX.name" (e.g. a context menu's).
    public func addActions(_ actions: [SimpleAction], prefix: String) {
        let group = g_simple_action_group_new()!
        for action in actions { g_action_map_add_action(OpaquePointer(group), action.opaque) }
        gtk_widget_insert_action_group(widget, prefix, OpaquePointer(group))
        g_object_unref(group)
    }

    /// The pointer's shape over this widget, by CSS cursor name ("pointer", "text"), nil: default.
    public func setCursor(_ name: String?) {
        gtk_widget_set_cursor_from_name(widget, name)
    }

    /// Puts `text` on the clipboard.
    public func copyToClipboard(_ text: String) {
        gdk_clipboard_set_text(gtk_widget_get_clipboard(widget), text)
    }

    /// Opens `uri` with the desktop's handler for it (browser, mail client), over this
    /// widget's window.
    public func showURI(_ uri: String) {
        let root = gtk_widget_get_root(widget).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWindow.self) }
        notula_show_uri(root, uri)
    }

    /// The soonest the window's next frame can begin, in `CLOCK_MONOTONIC` seconds: GDK paces
    /// frames one refresh interval apart, so a change made sooner after a frame (while an
    /// animation ticks, say a scrollbar fading) waits for that. Nil without a window or a frame.
    public var nextFrameDue: Double? {
        guard let clock = gtk_widget_get_frame_clock(widget), let last = gdk_frame_clock_get_current_timings(clock) else { return nil }
        var interval = gdk_frame_timings_get_refresh_interval(last)
        if interval <= 0 {
            var presentation: gint64 = 0
            gdk_frame_clock_get_refresh_info(clock, gdk_frame_timings_get_frame_time(last), &interval, &presentation)
        }
        return Double(gdk_frame_timings_get_frame_time(last) + max(interval, 0)) / 1e6
    }

    /// Calls `handler` once, after the next frame of this widget's window is painted.
    public func onNextFramePainted(_ handler: @escaping () -> Void) {
        once(on: "after-paint", requesting: GDK_FRAME_CLOCK_PHASE_PAINT, handler)
    }

    /// Calls `handler` once, in the next frame's layout, after the window's widgets were given
    /// their places (the clock's handlers run in the order they were connected, the window's
    /// first): a widget can see whether it is on screen before anything is painted. A size
    /// changed there is laid out again in the same frame (the clock repeats its layout phase).
    public func onNextLayout(_ handler: @escaping () -> Void) {
        once(on: "layout", requesting: GDK_FRAME_CLOCK_PHASE_LAYOUT, handler)
    }

    /// A handler of the window's frame clock for one emission of `signal` (each call wraps the
    /// clock anew, which GTK keeps); run at once when the widget has no window yet.
    private func once(on signal: String, requesting phase: GdkFrameClockPhase, _ handler: @escaping () -> Void) {
        guard let clock = gtk_widget_get_frame_clock(widget) else { return handler() }
        let clockObject = FrameClock(clock)
        var connection: SignalConnection?
        connection = clockObject.connectVoid(signal, clockObject) { clock in
            if let connection { clock.disconnect(connection) }
            connection = nil
            handler()
        }
        gdk_frame_clock_request_phase(clock, phase)
    }

    public func addController(_ controller: EventController) {
        // The widget takes ownership of a controller; ours stays with the Swift wrapper.
        g_object_ref(controller.raw)
        gtk_widget_add_controller(widget, controller.opaque)
    }

    /// Runs `handler` when the widget is mapped (shown on screen).
    @discardableResult
    public func onMap(_ handler: @escaping (Widget) -> Void) -> SignalConnection {
        connectVoid("map", self, handler)
    }

    /// Runs `handler` when the widget is destroyed (disposed).
    @discardableResult
    public func onDestroy(_ handler: @escaping (Widget) -> Void) -> SignalConnection {
        connectVoid("destroy", self, handler)
    }

    /// The Swift object this widget belongs to (a view or controller), held weakly: the error
    /// responder chain walks up the widget tree from owner to owner.
    public var owner: AnyObject? {
        get { Widget.owner(of: widget) }
        set {
            let box = Unmanaged.passRetained(OwnerBox(newValue)).toOpaque()
            g_object_set_qdata_full(raw.assumingMemoryBound(to: GObject.self), Widget.ownerQuark, box, releaseBox)
        }
    }

    /// The owner of the nearest ancestor widget (parent, grandparent, …) that has one.
    public var ancestorOwner: AnyObject? {
        var ancestor = gtk_widget_get_parent(widget)
        while let current = ancestor {
            if let owner = Widget.owner(of: current) { return owner }
            ancestor = gtk_widget_get_parent(current)
        }
        return nil
    }

    /// This widget's owner, or else its nearest ancestor's.
    public var nearestOwner: AnyObject? { owner ?? ancestorOwner }

    static let ownerQuark = g_quark_from_static_string("notula-widget-owner")

    private static func owner(of widget: UnsafeMutablePointer<GtkWidget>) -> AnyObject? {
        guard let data = g_object_get_qdata(UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GObject.self), ownerQuark) else { return nil }
        return Unmanaged<OwnerBox>.fromOpaque(data).takeUnretainedValue().owner
    }

    /// Activates an action by its detailed name ("win.delete-note", "app.quit") from this widget.
    @discardableResult
    public func activateAction(_ name: String) -> Bool {
        gtk_widget_activate_action_variant(widget, name, nil) != 0
    }
}

/// A weak link from a widget to its Swift owner, kept in the widget's qdata.
private final class OwnerBox {
    weak var owner: AnyObject?
    init(_ owner: AnyObject?) { self.owner = owner }
}

/// A window's frame clock (borrowed), for its signals.
private final class FrameClock: Object {
    init(_ clock: OpaquePointer) {
        super.init(UnsafeMutableRawPointer(clock), .floatingOrBorrowed)
    }
}
