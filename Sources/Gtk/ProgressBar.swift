import CGtk

public final class ProgressBar: Widget {
    public init() {
        super.init(floating: gtk_progress_bar_new())
    }

    /// From 0 to 1.
    public var fraction: Double {
        get { gtk_progress_bar_get_fraction(opaque) }
        set { gtk_progress_bar_set_fraction(opaque, min(1, max(0, newValue))) }
    }

    public var text: String? {
        get { gtk_progress_bar_get_text(opaque).map { String(cString: $0) } }
        set {
            gtk_progress_bar_set_text(opaque, newValue)
            gtk_progress_bar_set_show_text(opaque, newValue == nil ? 0 : 1)
        }
    }
}
