import CGtk

/// Shows or hides its child with a slide animation.
public final class Revealer: Widget {
    public init() {
        super.init(floating: gtk_revealer_new())
        gtk_revealer_set_transition_type(opaque, GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
    }

    public var child: Widget? {
        didSet { gtk_revealer_set_child(opaque, child?.widget) }
    }

    public var revealsChild: Bool {
        get { gtk_revealer_get_reveal_child(opaque) != 0 }
        set { gtk_revealer_set_reveal_child(opaque, newValue ? 1 : 0) }
    }

    /// The child is fully shown, or fully hidden: the slide ended.
    @discardableResult
    public func onSlideEnded(_ handler: @escaping (Revealer) -> Void) -> SignalConnection {
        connectPointer("notify::child-revealed", self) { revealer, _ in handler(revealer) }
    }
}
