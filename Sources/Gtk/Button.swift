import CGtk

public final class Button: Widget {
    public init(label: String) {
        super.init(floating: gtk_button_new_with_label(label))
    }

    /// A button whose label marks its access key with an underscore ("_Save").
    public init(mnemonic label: String) {
        super.init(floating: gtk_button_new_with_mnemonic(label))
    }

    public init(iconName: String) {
        super.init(floating: gtk_button_new_from_icon_name(iconName))
    }

    /// A button showing any widget (an icon and words, a status light).
    public init(child: Widget) {
        super.init(floating: gtk_button_new())
        gtk_button_set_child(ptr(), child.widget)
    }

    /// No frame until hovered (header bar style).
    public var hasFrame: Bool {
        get { gtk_button_get_has_frame(ptr()) != 0 }
        set { gtk_button_set_has_frame(ptr(), newValue ? 1 : 0) }
    }

    public var label: String {
        get { gtk_button_get_label(ptr()).map { String(cString: $0) } ?? "" }
        set { gtk_button_set_label(ptr(), newValue) }
    }

    /// Names a detailed action ("app.new-note") the button activates.
    public var actionName: String? {
        get { gtk_actionable_get_action_name(opaque).map { String(cString: $0) } }
        set { gtk_actionable_set_action_name(opaque, newValue) }
    }

    @discardableResult
    public func onClicked(_ handler: @escaping (Button) -> Void) -> SignalConnection {
        connectVoid("clicked", self, handler)
    }

    /// Emits "clicked" as if the user pressed the button (at once, without the press animation).
    public func click() { notula_emit(raw, "clicked") }

    /// Calls `report` with the label ("" when it shows none) of every button of the app that is
    /// clicked, GTK's own dialogs' too, before the button's handlers run. For the acceptance
    /// tests: a press through AT-SPI (or the keyboard) emits "clicked" only after GTK's 250 ms
    /// press animation, so a test must know when it came before it goes on.
    public static func onEveryClick(_ report: @escaping (String) -> Void) {
        let type = gtk_button_get_type()
        g_type_class_unref(g_type_class_ref(type))  // the signal exists once the class does
        let box = Unmanaged.passRetained(SignalHandler<(String) -> Void>(report)).toOpaque()
        g_signal_add_emission_hook(g_signal_lookup("clicked", type), 0, buttonClickedHook, box, releaseBox)
    }
}

/// GSignalEmissionHook for "clicked": the first value is the button. Returns TRUE to stay hooked.
nonisolated private let buttonClickedHook: @convention(c) (UnsafeMutablePointer<GSignalInvocationHint>?, guint,
                                                          UnsafePointer<GValue>?, gpointer?) -> gboolean = { _, count, values, data in
    guard count > 0, let values else { return 1 }
    onMainActor(data, g_value_get_object(values)) { data, button in
        let label = button.flatMap { gtk_button_get_label($0.assumingMemoryBound(to: GtkButton.self)) }
        SignalHandler<(String) -> Void>.from(data)?(label.map { String(cString: $0) } ?? "")
    }
    return 1
}
