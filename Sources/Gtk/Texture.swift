import CGtk

/// Pixels ready to draw (a GdkTexture): immutable, shown by `Picture`, copied to the clipboard.
public final class Texture: Object {
    /// The texture made on the decoding thread (nothing is copied or converted here).
    public init(_ image: DecodedImage) {
        super.init(UnsafeMutableRawPointer(image.takeTexture()), .full)
    }

    public var width: Int { Int(gdk_texture_get_width(opaque)) }
    public var height: Int { Int(gdk_texture_get_height(opaque)) }
    /// What its pixels take in memory (4 bytes a pixel).
    public var byteCount: Int { width * height * 4 }

    /// The colour at (x, y) as 0xAARRGGBB (tests check what was drawn).
    public func pixel(x: Int, y: Int) -> UInt32 {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        pixels.withUnsafeMutableBufferPointer { gdk_texture_download(opaque, $0.baseAddress, gsize(width * 4)) }
        let i = (y * width + x) * 4
        // gdk_texture_download writes CAIRO_FORMAT_ARGB32: B G R A in memory on little endian.
        return UInt32(clamping: pixels[i + 3]) << 24 | UInt32(clamping: pixels[i + 2]) << 16 | UInt32(clamping: pixels[i + 1]) << 8 | UInt32(clamping: pixels[i])
    }

    /// Writes the texture as a PNG file; false when it could not.
    @discardableResult
    public func savePNG(to path: String) -> Bool {
        gdk_texture_save_to_png(opaque, path) != 0
    }

    nonisolated static func pngBytes(of texture: OpaquePointer) -> [UInt8]? {
        guard let bytes = gdk_texture_save_to_png_bytes(texture) else { return nil }
        defer { g_bytes_unref(bytes) }
        var size: gsize = 0
        guard let start = g_bytes_get_data(bytes, &size), size > 0 else { return nil }
        return Array(UnsafeRawBufferPointer(start: start, count: Int(size)))
    }

    /// Wraps a texture the caller owns a full reference to.
    init(full pointer: OpaquePointer) {
        super.init(UnsafeMutableRawPointer(pointer), .full)
    }
}

extension Widget {
    /// Puts a picture on the clipboard (other apps paste it as PNG).
    public func copyToClipboard(_ texture: Texture) {
        gdk_clipboard_set_texture(gtk_widget_get_clipboard(widget), texture.opaque)
    }

    /// Renders the widget as it looks now (its window must be shown), for tests and
    /// screenshots. GSK_RENDERER=cairo gives stable images under Xvfb.
    public func renderedTexture() -> Texture? {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else { return nil }
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let paintable = gtk_widget_paintable_new(widget) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let snapshot = gtk_snapshot_new()
        gdk_paintable_snapshot(paintable, snapshot, Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        guard let texture = gsk_renderer_render_texture(renderer, node, nil) else { return nil }
        return Texture(full: texture)
    }
}
