import CGtk

/// A GAction ("app.x" once added to the application, "win.x" to a window): parameterless,
/// or stateful — a choice among strings (radio items "win.x::value" in a menu) or a check.
public final class SimpleAction: Object {
    public init(name: String) {
        super.init(UnsafeMutableRawPointer(g_simple_action_new(name, nil)!), .full)
    }

    /// A choice: menu items "win.NAME::VALUE" become radio items; `choice` is the current one.
    public init(name: String, choice: String) {
        super.init(UnsafeMutableRawPointer(notula_simple_action_new_string_state(name, choice)!), .full)
    }

    /// A check: its menu item shows a check mark; activating it toggles.
    public init(name: String, checked: Bool) {
        super.init(UnsafeMutableRawPointer(notula_simple_action_new_bool_state(name, checked ? 1 : 0)!), .full)
    }

    /// Its name ("quit", without "app.").
    public var name: String { String(cString: g_action_get_name(opaque)) }

    /// The current choice of a choice action (set it to show another).
    public var choice: String? {
        get {
            guard let state = g_action_get_state(opaque) else { return nil }
            defer { g_variant_unref(state) }
            return String(cString: g_variant_get_string(state, nil))
        }
        set { if let newValue { notula_simple_action_set_string_state(opaque, newValue) } }
    }

    /// The state of a check action.
    public var isChecked: Bool {
        get {
            guard let state = g_action_get_state(opaque) else { return false }
            defer { g_variant_unref(state) }
            return g_variant_get_boolean(state) != 0
        }
        set { notula_simple_action_set_bool_state(opaque, newValue ? 1 : 0) }
    }

    /// The user picked a choice or toggled a check: the handler gets the requested value as
    /// text ("true"/"false" for a check) and decides; set `choice`/`isChecked` to accept it.
    @discardableResult
    public func onChangeState(_ handler: @escaping (SimpleAction, String) -> Void) -> SignalConnection {
        connectPointer("change-state", self) { action, value in
            guard let value else { return }
            let variant = OpaquePointer(value)
            if g_variant_is_of_type(variant, notula_variant_type_boolean()) != 0 {
                handler(action, g_variant_get_boolean(variant) != 0 ? "true" : "false")
            } else {
                handler(action, String(cString: g_variant_get_string(variant, nil)))
            }
        }
    }

    public var isEnabled: Bool {
        get { g_action_get_enabled(opaque) != 0 }
        set { g_simple_action_set_enabled(opaque, newValue ? 1 : 0) }
    }

    @discardableResult
    public func onActivate(_ handler: @escaping (SimpleAction) -> Void) -> SignalConnection {
        connectPointer("activate", self) { action, _ in handler(action) }
    }
}
