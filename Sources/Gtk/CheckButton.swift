import CGtk

/// A check box, or a radio button when grouped with others (`group(with:)`).
public final class CheckButton: Widget {
    public init(label: String) {
        super.init(floating: gtk_check_button_new_with_label(label))
    }

    /// A check box without a label of its own (give it an accessible label).
    public init() {
        super.init(floating: gtk_check_button_new())
    }

    /// Makes this one of a set where only one is active (radio buttons).
    public func group(with other: CheckButton) {
        gtk_check_button_set_group(ptr(), other.ptr())
    }

    public var isActive: Bool {
        get { gtk_check_button_get_active(ptr()) != 0 }
        set { gtk_check_button_set_active(ptr(), newValue ? 1 : 0) }
    }

    /// Emitted when the user (or `isActive`) changes the state.
    @discardableResult
    public func onToggled(_ handler: @escaping (CheckButton) -> Void) -> SignalConnection {
        connectVoid("toggled", self, handler)
    }
}
