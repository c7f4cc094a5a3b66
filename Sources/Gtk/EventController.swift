import CGtk

/// Base of event controllers added to widgets with `Widget.addController`.
public class EventController: Object {}

/// Key presses on the widget it is added to (or its children, in the bubble phase).
public final class KeyController: EventController {
    public init() {
        super.init(UnsafeMutableRawPointer(gtk_event_controller_key_new()!), .full)
    }

    /// See keys before the widget itself does (a text view would insert Enter or Tab first).
    public func runBeforeWidget() {
        gtk_event_controller_set_propagation_phase(OpaquePointer(raw), GTK_PHASE_CAPTURE)
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
    public static let backspace = UInt32(GDK_KEY_BackSpace)
    public static let returnKey = UInt32(GDK_KEY_Return)
    public static let kpEnter = UInt32(GDK_KEY_KP_Enter)
    public static let tab = UInt32(GDK_KEY_Tab)
    public static let up = UInt32(GDK_KEY_Up)
    public static let down = UInt32(GDK_KEY_Down)
    public static let leftTab = UInt32(GDK_KEY_ISO_Left_Tab)
    /// The context-menu key, and F10 (with Shift: the context menu too), F7 (spelling).
    public static let menu = UInt32(GDK_KEY_Menu)
    public static let f10 = UInt32(GDK_KEY_F10)
    public static let f7 = UInt32(GDK_KEY_F7)
    /// Letters as GDK key values (lower case; with Shift GDK reports the upper-case value).
    public static func letter(_ character: Character) -> UInt32 { UInt32(clamping: character.asciiValue ?? 0) }
    public static let shiftMask = UInt32(GDK_SHIFT_MASK.rawValue)
    public static let primaryMask = UInt32(GDK_CONTROL_MASK.rawValue)
    public static let controlMask = UInt32(GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
    public static let modifierMask = UInt32(GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SHIFT_MASK.rawValue | GDK_SUPER_MASK.rawValue)
}

/// Mouse button presses (a click begins). `button` 0 listens to every button.
public final class ClickGesture: EventController {
    public init(button: Int = 1) {
        super.init(UnsafeMutableRawPointer(gtk_gesture_click_new()!), .full)
        gtk_gesture_single_set_button(OpaquePointer(raw), guint(button))
    }

    /// Handle the press before the widget itself does (a text view would move the cursor first).
    public func runBeforeWidget() {
        gtk_event_controller_set_propagation_phase(OpaquePointer(raw), GTK_PHASE_CAPTURE)
    }

    /// The modifier keys held during the press being handled.
    public var currentModifiers: UInt32 { gtk_event_controller_get_current_event_state(OpaquePointer(raw)).rawValue }

    /// Takes the press: the widget below does not see it.
    public func claim() {
        gtk_gesture_set_state(OpaquePointer(raw), GTK_EVENT_SEQUENCE_CLAIMED)
    }

    /// `count` is 1 for a click, 2 for a double click; x and y are in the widget's coordinates.
    @discardableResult
    public func onPressed(_ handler: @escaping (ClickGesture, _ count: Int, _ x: Double, _ y: Double) -> Void) -> SignalConnection {
        connectPress("pressed", self, handler)
    }

    /// The button went up again (the same press: no drag or other gesture took it).
    @discardableResult
    public func onReleased(_ handler: @escaping (ClickGesture, _ count: Int, _ x: Double, _ y: Double) -> Void) -> SignalConnection {
        connectPress("released", self, handler)
    }

    /// Another gesture took the press (a drag began): no release follows.
    @discardableResult
    public func onCancelled(_ handler: @escaping (ClickGesture) -> Void) -> SignalConnection {
        connectPointer("cancel", self) { gesture, _ in handler(gesture) }
    }
}

/// The pointer moving over the widget.
public final class MotionController: EventController {
    public init() {
        super.init(UnsafeMutableRawPointer(gtk_event_controller_motion_new()!), .full)
    }

    /// x and y are in the widget's coordinates.
    @discardableResult
    public func onMotion(_ handler: @escaping (MotionController, _ x: Double, _ y: Double) -> Void) -> SignalConnection {
        connectPoint("motion", self, handler)
    }

    /// The pointer came over the widget (or the widget appeared under it).
    @discardableResult
    public func onEnter(_ handler: @escaping (MotionController, _ x: Double, _ y: Double) -> Void) -> SignalConnection {
        connectPoint("enter", self, handler)
    }

    @discardableResult
    public func onLeave(_ handler: @escaping (MotionController) -> Void) -> SignalConnection {
        connectVoid("leave", self, handler)
    }
}

/// The keyboard focus coming to or leaving the widget it is added to (and its children).
public final class FocusController: EventController {
    public init() {
        super.init(UnsafeMutableRawPointer(gtk_event_controller_focus_new()!), .full)
    }

    @discardableResult
    public func onEnter(_ handler: @escaping (FocusController) -> Void) -> SignalConnection {
        connectVoid("enter", self, handler)
    }

    @discardableResult
    public func onLeave(_ handler: @escaping (FocusController) -> Void) -> SignalConnection {
        connectVoid("leave", self, handler)
    }
}
