import Dispatch

/// Lets go of a large value on another thread. Freed where it was last used — the main thread,
/// once the block that brought it there ends — the 100,000 summaries of an index's changes or
/// a selection of every note take the window a frame: half a million releases and frees, 15–25
/// ms at 100,000 notes. Held here a moment past the main thread's own references, so the last
/// release, and the freeing, happen on a background thread.
public enum OffMainRelease {
    /// Values with fewer elements than this are freed where they are (a dispatch costs more).
    public static let worthFrom = 4096

    public static func later<Value: Sendable>(_ value: Value) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .milliseconds(50)) {
            withExtendedLifetime(value) {}
        }
    }
}
