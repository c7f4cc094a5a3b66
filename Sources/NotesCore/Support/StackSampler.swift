import CStackSampler
import Foundation

/// For `make bench`: the call stack of one thread (the main thread) taken from another while it
/// is busy, so a stall of the window can be named (StallMonitor). The sampled thread gets
/// SIGPROF, whose handler (C: CStackSampler) records the return addresses; frames are given as
/// `file+0xoffset`, for `scripts/bench_stacks.py` to name outside the app. Installed only with
/// NOTULA_REPORT_STALLS.
public final class StackSampler: Sendable {
    private let target: pthread_t

    /// Samples the calling thread's stack from now on; nil when SIGPROF cannot be taken.
    public init?() {
        target = pthread_self()
        guard notula_stack_sampler_install() == 0 else { return nil }
    }

    /// The sampled thread's stack now, innermost first, or nil when it did not answer in time.
    public func sample(timeoutMilliseconds: Int32 = 50) -> [String]? {
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 64)
        let count = notula_stack_sample(target, &frames, Int32(frames.count), timeoutMilliseconds)
        guard count >= 0 else { return nil }
        return frames.prefix(Int(count)).map { address in
            var offset: UInt = 0
            let file = notula_stack_frame_file(address, &offset).map { String(cString: $0) } ?? "?"
            return "\(file)+0x\(String(offset, radix: 16))"
        }
    }
}
