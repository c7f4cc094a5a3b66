import CGtk

/// Reads a GInputStream to its end on the main loop, in chunks, without blocking (a clipboard
/// owner's stream only advances while the main loop runs), and stops at a limit so an owner
/// that sends without end costs no more than the limit. Keeps itself alive until it is done.
final class InputStreamDrain {
    private let stream: UnsafeMutablePointer<GInputStream>
    private let limit: Int
    private let done: ([UInt8]?) -> Void
    private var bytes: [UInt8] = []
    private var retainedSelf: InputStreamDrain?

    /// Takes the reference to `stream`; `done` gets its bytes, or nil past `limit` or on an
    /// error (what was read is dropped then).
    static func read(_ stream: UnsafeMutablePointer<GInputStream>, limit: Int, done: @escaping ([UInt8]?) -> Void) {
        let drain = InputStreamDrain(stream: stream, limit: limit, done: done)
        drain.retainedSelf = drain
        drain.next()
    }

    private init(stream: UnsafeMutablePointer<GInputStream>, limit: Int, done: @escaping ([UInt8]?) -> Void) {
        self.stream = stream
        self.limit = limit
        self.done = done
    }

    private func next() {
        let chunk = gsize(min(64 * 1024, max(1, limit + 1 - bytes.count)))
        let (callback, data) = asyncReady { [self] result in self.received(result) }
        g_input_stream_read_bytes_async(stream, chunk, Int32(G_PRIORITY_DEFAULT), nil, callback, data)
    }

    private func received(_ result: OpaquePointer?) {
        guard let result, let chunk = g_input_stream_read_bytes_finish(stream, result, nil) else { return finish(nil) }
        defer { g_bytes_unref(chunk) }
        var size: gsize = 0
        let start = g_bytes_get_data(chunk, &size)
        if size == 0 { return finish(bytes) }
        guard bytes.count + Int(size) <= limit, let start else { return finish(nil) }
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: Int(size)))
        next()
    }

    private func finish(_ result: [UInt8]?) {
        g_object_unref(UnsafeMutableRawPointer(stream))
        retainedSelf = nil
        done(result)
    }
}
