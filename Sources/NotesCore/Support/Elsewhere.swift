import Dispatch

/// Large values (100,000 summaries, a map of 100,000 moves) let go on a queue of their own:
/// freeing them where their last reference goes, the main thread, took 20–30 ms. A moment
/// later, so that the caller has let go of its own references by then.
public enum Elsewhere {
    public static func release(_ value: some Sendable) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.05) { withExtendedLifetime(value) {} }
    }
}
