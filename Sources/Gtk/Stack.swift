import CGtk

/// Shows one of several named children (e.g. the list or its empty state).
public final class Stack: Widget {
    public init() {
        super.init(floating: gtk_stack_new())
    }

    public func add(_ child: Widget, name: String) {
        gtk_stack_add_named(opaque, child.widget, name)
    }

    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(opaque).map { String(cString: $0) } }
        set { gtk_stack_set_visible_child_name(opaque, newValue) }
    }
}
