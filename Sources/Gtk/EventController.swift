import CGtk

/// Base of event controllers added to widgets with `Widget.addController`.
public class EventController: Object {}

/// Key presses on the widget it is added to (or its children, in the bubble phase).
public final class KeyController: EventController {
    public init() {
        super.init(UnsafeMutableRawPointer(gtk_event_controller_key_new()!), .full)
    }

    /// Return true when the key was handled. `keyval` is a GDK key value (see `Key`).
    @discardableResult
    public func onKeyPressed(_ handler: @escaping (KeyController, _ keyval: UInt32, _ modifiers: UInt32) -> Bool) -> SignalConnection {
        connectKey("key-pressed", self, handler)
    }
}

/// GDK key values and modifier masks the app reacts to.
public enum Key {
    public static let delete = UInt32(GDK_KEY_Delete)
    public static let kpDelete = UInt32(GDK_KEY_KP_Delete)
    public static let escape = UInt32(GDK_KEY_Escape)
    public static let controlMask = UInt32(GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
    public static let modifierMask = UInt32(GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
}
