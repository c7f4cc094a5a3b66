import CGtk

public final class HeaderBar: Widget {
    public init() {
        super.init(floating: gtk_header_bar_new())
    }

    public func packStart(_ child: Widget) { gtk_header_bar_pack_start(opaque, child.widget) }
    public func packEnd(_ child: Widget) { gtk_header_bar_pack_end(opaque, child.widget) }

    public var titleWidget: Widget? {
        didSet { gtk_header_bar_set_title_widget(opaque, titleWidget?.widget) }
    }
}
