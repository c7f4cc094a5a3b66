import CGtk

/// A parameterless GAction ("app.x" once added to the application, "win.x" to a window).
public final class SimpleAction: Object {
    public init(name: String) {
        super.init(UnsafeMutableRawPointer(g_simple_action_new(name, nil)!), .full)
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
