import Synchronization

/// A value a test hands to and from the threads it starts (a result, a count, a clock),
/// behind a mutex: Sendable by construction.
public final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    public init(_ value: Value) { storage = Mutex(value) }

    public var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    /// Changes the value in place, atomically (`count += 1` from many threads).
    public func update(_ change: (inout Value) -> Void) {
        storage.withLock { change(&$0) }
    }
}
