import CGtk

/// Shows a texture (GtkPicture), scaled into the widget's size keeping its aspect ratio.
public final class Picture: Widget {
    public init() {
        super.init(floating: gtk_picture_new())
        gtk_picture_set_can_shrink(opaque, 1)
        gtk_picture_set_content_fit(opaque, GTK_CONTENT_FIT_CONTAIN)
    }

    /// What it shows (nil: nothing; the texture is released by the picture).
    public var texture: Texture? {
        didSet {
            guard texture !== oldValue else { return }
            gtk_picture_set_paintable(opaque, texture.map { OpaquePointer($0.raw) })
        }
    }

    /// What screen readers say for the picture (its Markdown alt text). GTK 4.8 gives it to
    /// the picture's accessible description only, and screen readers read the name first
    /// ("GtkPicture"): it is the accessible label too.
    public var alternativeText: String {
        get { gtk_picture_get_alternative_text(opaque).map { String(cString: $0) } ?? "" }
        set {
            gtk_picture_set_alternative_text(opaque, newValue)
            accessibleLabel = newValue
        }
    }
}
