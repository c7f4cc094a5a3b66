import CGtk

/// What the widget's clipboard offers, judged by its formats alone (nothing is read): an
/// image-only clipboard must not be pasted as text (`xclip -t image/png` answers a text request
/// with the PNG's bytes).
public struct ClipboardOffer: Equatable, Sendable {
    public var text: Bool
    public var image: Bool
    public var files: Bool

    public init(text: Bool, image: Bool, files: Bool) {
        self.text = text
        self.image = image
        self.files = files
    }
}

/// What a raw clipboard read brought.
public enum ClipboardBytes: Equatable, Sendable {
    /// The owner's bytes, in the format it answered with.
    case bytes([UInt8], mimeType: String)
    /// More than the reader's limit: nothing was kept.
    case tooLarge
    /// Nothing could be read (no owner, no such format, the owner went away).
    case unavailable
}

/// `void (*)(GObject *source, GAsyncResult *result, gpointer data)`: the end of an asynchronous
/// call (a clipboard read, a stream's chunk).
/// The box was retained for this one call and is released here.
nonisolated private let asyncReadyTrampoline: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { source, result, data in
    onMainActor(data, UnsafeMutableRawPointer(result)) { data, result in
        guard let data else { return }
        let box = Unmanaged<SignalHandler<(OpaquePointer?) -> Void>>.fromOpaque(data)
        box.takeUnretainedValue().handler(result.map(OpaquePointer.init))
        box.release()
    }
}

/// A GAsyncReadyCallback and its user data that call `handler` once, on the main thread, with
/// the GAsyncResult (for the matching `_finish` call).
func asyncReady(_ handler: @escaping (OpaquePointer?) -> Void) -> (GAsyncReadyCallback, UnsafeMutableRawPointer) {
    (asyncReadyTrampoline, Unmanaged.passRetained(SignalHandler(handler)).toOpaque())
}

extension Widget {
    private var clipboard: OpaquePointer { gtk_widget_get_clipboard(widget) }

    public var clipboardOffer: ClipboardOffer {
        guard let formats = gdk_clipboard_get_formats(clipboard) else { return ClipboardOffer(text: false, image: false, files: false) }
        return ClipboardOffer(text: notula_formats_offer_text(formats) != 0, image: notula_formats_offer_image(formats) != 0,
                              files: notula_formats_offer_files(formats) != 0)
    }

    /// Reads the clipboard's picture and hands it over as PNG bytes (nil: none, or unreadable).
    public func readClipboardImageAsPNG(_ handler: @escaping ([UInt8]?) -> Void) {
        let clipboard = self.clipboard
        let (callback, data) = asyncReady { result in
            guard let result, let texture = gdk_clipboard_read_texture_finish(clipboard, result, nil) else { return handler(nil) }
            defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
            handler(Texture.pngBytes(of: texture))
        }
        gdk_clipboard_read_texture_async(clipboard, nil, callback, data)
    }

    /// Reads the clipboard's raw bytes in the first of `mimeTypes` its owner gives, at most
    /// `limit` of them, converting nothing: the caller judges what they are, because an owner
    /// may answer a request for text with a picture's bytes (`xclip -t image/png` does), and
    /// GDK's formats may still be the previous owner's when the owner just changed.
    public func readClipboardBytes(mimeTypes: [String], limit: Int, _ handler: @escaping (ClipboardBytes) -> Void) {
        let clipboard = self.clipboard
        let (callback, data) = asyncReady { result in
            var mimeType: UnsafePointer<CChar>?
            guard let result, let stream = gdk_clipboard_read_finish(clipboard, result, &mimeType, nil) else { return handler(.unavailable) }
            let type = mimeType.map { String(cString: $0) } ?? ""
            InputStreamDrain.read(stream, limit: limit) { bytes in
                handler(bytes.map { .bytes($0, mimeType: type) } ?? .tooLarge)
            }
        }
        var types = mimeTypes.map { UnsafePointer(strdup($0)) } + [nil]
        defer { types.forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        types.withUnsafeMutableBufferPointer { gdk_clipboard_read_async(clipboard, $0.baseAddress, Int32(G_PRIORITY_DEFAULT), nil, callback, data) }
    }

    /// Reads the files on the clipboard (copied in a file manager): their local paths, and how
    /// many had none (remote). nil: no file list could be read.
    public func readClipboardFiles(_ handler: @escaping (_ paths: [String]?, _ remote: Int) -> Void) {
        let clipboard = self.clipboard
        let (callback, data) = asyncReady { result in
            guard let result, let value = gdk_clipboard_read_value_finish(clipboard, result, nil) else { return handler(nil, 0) }
            let (paths, remote) = fileValuePaths(UnsafeMutableRawPointer(mutating: value))
            handler(paths, remote)
        }
        notula_clipboard_read_files_async(clipboard, callback, data)
    }

    /// Puts files on the clipboard, as a file manager's Copy does.
    public func copyFilesToClipboard(paths: [String]) {
        var pointers = paths.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                notula_clipboard_set_files(clipboard, $0, Int32(clamping: buffer.count))
            }
        }
    }

    /// Puts a picture (PNG bytes) on the clipboard, as a program that copies an image does.
    @discardableResult
    public func copyImageToClipboard(png: [UInt8]) -> Bool {
        let bytes = png.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        guard let texture = gdk_texture_new_from_bytes(bytes, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        gdk_clipboard_set_texture(clipboard, texture)
        return true
    }
}

/// The local paths in a dropped or pasted GValue (a file list or one GFile), and how many
/// files had no local path.
func fileValuePaths(_ value: UnsafeMutableRawPointer?) -> (paths: [String], remote: Int) {
    var remote: Int32 = 0
    let paths = takeStrings(notula_value_copy_file_paths(value?.assumingMemoryBound(to: GValue.self), &remote))
    return (paths, Int(remote))
}
