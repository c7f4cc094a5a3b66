import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The process's one inotify instance. Every `FolderWatcher` (the library's notebooks, the
/// open note's folder) is a watch on it: an inotify instance is one of the user's
/// `fs.inotify.max_user_instances` (128 by default), shared with every other program of the
/// user — sync clients, file managers, GLib — while watches (`max_user_watches`) are
/// plentiful. Events are read on a utility queue and handed out on the main queue.
///
/// The instance's queue holds `fs.inotify.max_queued_events` events (16,384 by default, read
/// once, when the instance starts); past that the kernel drops events and queues one
/// `IN_Q_OVERFLOW` for no watch in particular. Any watch may have lost events then, so every
/// subscriber hears of it — once per burst: `overflowed` after the overflows stop for
/// `overflowSettle` seconds (at most `overflowMaximumDelay` after the first), never per event.
final class InotifyHub: Sendable {
    private static let current = Mutex(InotifyHub())

    /// The hub new watchers subscribe to.
    static var shared: InotifyHub { current.withLock { $0 } }

    /// Makes `hub` the one new watchers subscribe to, and returns the previous one (tests: an
    /// instance's queue length is fixed when it starts, so a test of a tiny queue needs a new one).
    static func replaceShared(with hub: InotifyHub) -> InotifyHub {
        current.withLock { current in
            defer { current = hub }
            return current
        }
    }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
                             | IN_DELETE_SELF | IN_MOVE_SELF)

    struct Event: Sendable {
        let mask: UInt32
        let name: String

        /// The kernel's queue overflowed: events of this watch may have been lost.
        static let overflowed = Event(mask: UInt32(IN_Q_OVERFLOW), name: "")
        var isOverflow: Bool { mask & UInt32(IN_Q_OVERFLOW) != 0 }
    }

    typealias Handler = @MainActor ([Event]) -> Void

    /// One subscriber's watch.
    struct Subscription: Hashable, Sendable {
        let descriptor: Int32
        let id: UUID
    }

    /// The descriptor, its read source, who listens to each watch descriptor, and the overflow
    /// burst under way (when it began, when the last overflow came).
    private struct State {
        var fd: Int32 = -1
        var source: DispatchSourceRead?
        var handlers: [Int32: [UUID: Handler]] = [:]
        var overflowBegan: DispatchTime?
        var lastOverflow = DispatchTime.now()
        var overflowSettle: TimeInterval = 0.2
    }

    private let state = Mutex(State())
    /// Where events are read (and an overflow burst is timed).
    let queue = DispatchQueue(label: "notula.inotify", qos: .utility)
    static let overflowMaximumDelay: TimeInterval = 2

    init() {}

    deinit {
        state.withLock { state in
            if let source = state.source { source.cancel() } else if state.fd >= 0 { close(state.fd) }
        }
    }

    /// How long the overflows must stop before subscribers hear of them.
    var overflowSettle: TimeInterval {
        get { state.withLock { $0.overflowSettle } }
        set { state.withLock { $0.overflowSettle = newValue } }
    }

    /// Watches `path` (a folder); `handler` gets its events on the main queue until
    /// `remove(_:)`. Throws when inotify is unavailable or the user's watches are used up
    /// (ENOSPC, `max_user_watches`; EMFILE, no instance to be had).
    func add(path: String, handler: @escaping Handler) throws -> Subscription {
        try state.withLock { state in
            if state.fd < 0 { try start(&state, path: path) }
            let descriptor = inotify_add_watch(state.fd, path, Self.mask | UInt32(IN_ONLYDIR))
            guard descriptor >= 0 else { throw StorageError(.listFolder, path: path) }
            let subscription = Subscription(descriptor: descriptor, id: UUID())
            state.handlers[descriptor, default: [:]][subscription.id] = handler
            return subscription
        }
    }

    /// Stops one subscriber; the kernel's watch goes with the last subscriber of its folder.
    func remove(_ subscription: Subscription) {
        state.withLock { state in
            guard var listeners = state.handlers[subscription.descriptor], listeners[subscription.id] != nil else { return }
            listeners[subscription.id] = nil
            if listeners.isEmpty {
                state.handlers[subscription.descriptor] = nil
                inotify_rm_watch(state.fd, subscription.descriptor)
            } else {
                state.handlers[subscription.descriptor] = listeners
            }
        }
    }

    /// Whether the subscription's folder is still watched (its folder was not deleted).
    func isActive(_ subscription: Subscription) -> Bool {
        state.withLock { $0.handlers[subscription.descriptor]?[subscription.id] != nil }
    }

    /// How many kernel watches are held (tests, benchmarks).
    var watchCount: Int {
        state.withLock { $0.handlers.count }
    }

    private func start(_ state: inout State, path: String) throws {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw StorageError(.listFolder, path: path) }
        state.fd = descriptor
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.drain(descriptor) }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        state.source = source
    }

    /// Reads every pending event and hands each watch's events, in order, to its subscribers.
    private func drain(_ descriptor: Int32) {
        var byWatch: [(Int32, [Event])] = []
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let headerSize = MemoryLayout<inotify_event>.size
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            while offset + headerSize <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameBytes = buffer[(offset + headerSize)..<min(count, offset + headerSize + length)]
                let name = PathBytes.string(nameBytes.prefix(while: { $0 != 0 }))  // bytes that are not UTF-8 kept
                offset += headerSize + length
                // Not for a watch (wd -1): every watch may have lost events.
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    overflowed = true
                    continue
                }
                if let last = byWatch.last, last.0 == watch {
                    byWatch[byWatch.count - 1].1.append(Event(mask: mask, name: name))
                } else {
                    byWatch.append((watch, [Event(mask: mask, name: name)]))
                }
            }
        }
        if overflowed { noteOverflow() }
        guard !byWatch.isEmpty else { return }
        // A watch whose folder went away ends (IN_IGNORED); the kernel may reuse its number.
        let ended = Set(byWatch.filter { $0.1.contains { $0.mask & UInt32(IN_IGNORED) != 0 } }.map(\.0))
        let deliveries = state.withLock { state in
            defer { for watch in ended { state.handlers[watch] = nil } }
            return byWatch.map { watch, events in (watch, state.handlers[watch] ?? [:], events) }
        }
        deliver(deliveries, ended: ended)
    }

    private func deliver(_ deliveries: [(Int32, [UUID: Handler], [Event])], ended: Set<Int32>) {
        DispatchQueue.main.async {
            for (watch, listeners, events) in deliveries {
                for (id, handler) in listeners {
                    // A subscriber removed since the read hears nothing more (its watch ended: it hears why).
                    guard ended.contains(watch) || self.isActive(Subscription(descriptor: watch, id: id)) else { continue }
                    handler(events)
                }
            }
        }
    }

    // MARK: Overflow

    /// Hub queue: an overflow was read. The first of a burst starts the clock.
    private func noteOverflow() {
        let (first, settle) = state.withLock { state -> (Bool, TimeInterval) in
            state.lastOverflow = .now()
            defer { if state.overflowBegan == nil { state.overflowBegan = state.lastOverflow } }
            return (state.overflowBegan == nil, state.overflowSettle)
        }
        if first { queue.asyncAfter(deadline: .now() + settle) { [weak self] in self?.endOverflowBurstIfQuiet() } }
    }

    /// Hub queue: once the overflows stopped (or went on too long), every subscriber hears of them.
    private func endOverflowBurstIfQuiet() {
        let outcome = state.withLock { state -> (deliveries: [(Int32, [UUID: Handler], [Event])], wait: TimeInterval?) in
            guard let began = state.overflowBegan else { return ([], nil) }
            let now = DispatchTime.now()
            let quiet = Double(now.uptimeNanoseconds - state.lastOverflow.uptimeNanoseconds) / 1e9
            let long = Double(now.uptimeNanoseconds - began.uptimeNanoseconds) / 1e9
            if quiet < state.overflowSettle && long < Self.overflowMaximumDelay {
                return ([], min(state.overflowSettle - quiet, Self.overflowMaximumDelay - long))
            }
            state.overflowBegan = nil
            return (state.handlers.map { ($0.key, $0.value, [Event.overflowed]) }, nil)
        }
        if let wait = outcome.wait {
            queue.asyncAfter(deadline: .now() + wait) { [weak self] in self?.endOverflowBurstIfQuiet() }
        } else if !outcome.deliveries.isEmpty {
            deliver(outcome.deliveries, ended: [])
        }
    }
}
