import CGtk

/// Decodes picture bytes (PNG, JPEG, GIF, SVG, WebP: the loader the caller names) into
/// pixels, on any thread: GdkPixbufLoader touches no GTK state. The picture's size is checked
/// in "size-prepared", before a loader allocates any pixels, and the decode size is set there
/// too, so a JPEG decodes scaled and a vector picture renders at the size it is shown.
public nonisolated enum PixbufDecoder {
    /// Sizes refused before any pixels exist.
    public struct Limits: Sendable {
        public var maxPixels: Int
        public var maxSide: Int
        public init(maxPixels: Int = 100_000_000, maxSide: Int = 30_000) {
            self.maxPixels = maxPixels
            self.maxSide = maxSide
        }
    }

    public enum Outcome: Sendable {
        case decoded(DecodedImage)
        /// The picture says it is this large (refused before decoding).
        case tooLarge(width: Int, height: Int)
        /// No loader could read it; GdkPixbuf's message, if any.
        case notAPicture(String)
    }

    /// Decodes `bytes` with gdk-pixbuf's loader named `type` ("png", "svg": chosen by the
    /// caller, never sniffed by gdk-pixbuf among every loader installed), no wider than
    /// `fitWidth` pixels (never wider than the picture itself).
    public static func decode(_ bytes: UnsafeRawBufferPointer, type: String, fitWidth: Int, limits: Limits = Limits()) -> Outcome {
        var typeError: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(type, &typeError) else {
            let message = typeError.map { String(cString: $0.pointee.message) } ?? ""
            if let typeError { g_error_free(typeError) }
            return .notAPicture(message)
        }
        defer { g_object_unref(loader) }
        let context = SizeContext(fitWidth: max(fitWidth, 1), limits: limits)
        let data = Unmanaged.passUnretained(context).toOpaque()
        // No destroy-notify: the context outlives the loader (both end with this call).
        let handler = notula_signal_connect(UnsafeMutableRawPointer(loader), "size-prepared",
                                            unsafeBitCast(sizePreparedTrampoline, to: GCallback.self), data, nil)
        var error: UnsafeMutablePointer<GError>?
        var offset = 0
        let chunk = 64 * 1024
        var written = true
        while offset < bytes.count, !context.refused {
            let count = min(chunk, bytes.count - offset)
            let start = bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: guchar.self)
            if gdk_pixbuf_loader_write(loader, start, gsize(count), &error) == 0 { written = false; break }
            offset += count
        }
        var closeError: UnsafeMutablePointer<GError>?
        let closed = gdk_pixbuf_loader_close(loader, &closeError) != 0
        g_signal_handler_disconnect(UnsafeMutableRawPointer(loader), handler)
        defer {
            if let error { g_error_free(error) }
            if let closeError { g_error_free(closeError) }
        }
        if let natural = context.natural, context.refused { return .tooLarge(width: natural.width, height: natural.height) }
        guard written, error == nil, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            let message = (error ?? closeError).map { String(cString: $0.pointee.message) } ?? ""
            return .notAPicture(message)
        }
        return .decoded(DecodedImage(pixbuf: pixbuf, natural: context.natural))
    }

    public static func decode(_ bytes: [UInt8], type: String, fitWidth: Int, limits: Limits = Limits()) -> Outcome {
        bytes.withUnsafeBytes { decode($0, type: type, fitWidth: fitWidth, limits: limits) }
    }
}

/// What "size-prepared" learns and decides. Only the decoding thread touches it.
private nonisolated final class SizeContext {
    let fitWidth: Int
    let limits: PixbufDecoder.Limits
    var natural: (width: Int, height: Int)?
    var refused = false

    init(fitWidth: Int, limits: PixbufDecoder.Limits) {
        self.fitWidth = fitWidth
        self.limits = limits
    }
}

/// `void (*)(GdkPixbufLoader *self, gint width, gint height, gpointer data)`: size-prepared.
/// Runs on the decoding thread, inside gdk_pixbuf_loader_write.
nonisolated private let sizePreparedTrampoline: @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = { loader, width, height, data in
    guard let loader, let data else { return }
    let context = Unmanaged<SizeContext>.fromOpaque(data).takeUnretainedValue()
    let typed = loader.assumingMemoryBound(to: GdkPixbufLoader.self)
    let w = Int(width), h = Int(height)
    context.natural = (w, h)
    let format = gdk_pixbuf_loader_get_format(typed)
    let scalable = format.map { gdk_pixbuf_format_is_scalable($0) != 0 } ?? false
    if w <= 0 || h <= 0 || (!scalable && (w > context.limits.maxSide || h > context.limits.maxSide || w * h > context.limits.maxPixels)) {
        // 0 × 0 tells every loader to stop before it allocates (as gdk_pixbuf_get_file_info does).
        context.refused = true
        gdk_pixbuf_loader_set_size(typed, 0, 0)
        return
    }
    if w > context.fitWidth {
        let scaledHeight = max(1, Int((Double(h) * Double(context.fitWidth) / Double(w)).rounded()))
        gdk_pixbuf_loader_set_size(typed, Int32(clamping: context.fitWidth), Int32(clamping: scaledHeight))
    }
}

/// Decoded pixels, made on the decoding thread into a ready GdkMemoryTexture and handed to the
/// main thread, where a `Texture` shows it without copying. The texture keeps the pixbuf's own
/// layout (R8G8B8, or R8G8B8A8 with alpha), as gdk_texture_new_for_pixbuf would: GTK 4.8's
/// cairo renderer downloads a texture into an ARGB32 surface on every frame it is drawn, and
/// from these layouts that is a fast special case (0.25 ms for 700 × 525) where the
/// premultiplied layouts go through floats (2.3 ms).
public nonisolated final class DecodedImage: @unchecked Sendable {  // immutable after init; GObject refcounts are atomic
    /// A GdkTexture (a GdkMemoryTexture) this object holds a reference to until a `Texture`
    /// takes it over.
    let texture: OpaquePointer
    /// Whether a `Texture` took over the reference. Set on the main thread while it holds this
    /// object; read by deinit, which runs after the last holder let go (so after that write).
    private var isTaken = false
    /// The decoded size (scaled to fit).
    public let width: Int
    public let height: Int
    /// The picture's own size, as its header says.
    public let naturalWidth: Int
    public let naturalHeight: Int

    init(pixbuf: OpaquePointer, natural: (width: Int, height: Int)?) {
        width = Int(gdk_pixbuf_get_width(pixbuf))
        height = Int(gdk_pixbuf_get_height(pixbuf))
        naturalWidth = natural?.width ?? width
        naturalHeight = natural?.height ?? height
        let alpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let bytes = gdk_pixbuf_read_pixel_bytes(pixbuf)
        texture = gdk_memory_texture_new(Int32(clamping: width), Int32(clamping: height), alpha ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8,
                                         bytes, gsize(gdk_pixbuf_get_rowstride(pixbuf)))!
        g_bytes_unref(bytes)
    }

    /// The pixels as a PNG file's bytes. Any thread (a texture is immutable).
    public func pngBytes() -> [UInt8]? {
        Texture.pngBytes(of: texture)
    }

    /// The bytes its pixels take (4 a pixel once drawn).
    public var byteCount: Int { width * height * 4 }

    /// The texture with a full reference for the caller. The first call hands over this
    /// object's own reference: the main thread's wrapper holds a toggle reference on the
    /// texture, and were this object (released on the decoding thread) to drop a reference
    /// later, the toggle would fire on that thread.
    @MainActor func takeTexture() -> OpaquePointer {
        if isTaken { g_object_ref(UnsafeMutableRawPointer(texture)) }
        isTaken = true
        return texture
    }

    deinit {
        if !isTaken { g_object_unref(UnsafeMutableRawPointer(texture)) }
    }
}
