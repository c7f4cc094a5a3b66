import Foundation

/// When to autosave: `idleDelay` after typing pauses, and at least every `maximumDelay`
/// while typing goes on, so a long burst of typing is never all unsaved.
public final class AutosaveScheduler {
    public let idleDelay: TimeInterval
    public let maximumDelay: TimeInterval
    private let action: () -> Void
    private var firstPendingChange: Date?
    private var pending: DispatchWorkItem?
    /// How long the last `noteChanged` waits before saving.
    public private(set) var scheduledDelay: TimeInterval?

    public init(idleDelay: TimeInterval = 1, maximumDelay: TimeInterval = 5, action: @escaping () -> Void) {
        self.idleDelay = idleDelay
        self.maximumDelay = maximumDelay
        self.action = action
    }

    /// Call on every change (main queue).
    public func noteChanged(now: Date = Date()) {
        let first = firstPendingChange ?? now
        firstPendingChange = first
        pending?.cancel()
        let untilMaximum = first.addingTimeInterval(maximumDelay).timeIntervalSince(now)
        let delay = max(0, min(idleDelay, untilMaximum))
        scheduledDelay = delay
        let item = DispatchWorkItem { [weak self] in
            guard let self else { return }
            self.firstPendingChange = nil
            self.pending = nil
            self.action()
        }
        pending = item
        DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: item)
    }

    public var isPending: Bool { pending != nil }

    public func cancel() {
        pending?.cancel()
        pending = nil
        firstPendingChange = nil
    }
}
