import Foundation

/// The lines the `make bench` reports print (`notula-…`), each written at once: the benchmark
/// reads the app's standard output while it runs.
nonisolated enum BenchmarkOutput {
    static func line(_ text: String) {
        print(text)
        fflush(nil)  // every stream: `stdout` is a C global that Swift 6 does not let us touch
    }
}
