import CGtk

/// An icon from the icon theme, by name.
public final class Image: Widget {
    public init(iconName: String) {
        super.init(floating: gtk_image_new_from_icon_name(iconName))
    }
}
