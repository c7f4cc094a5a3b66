import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// When the user's inotify watches run out, the library says so once and rescans instead of
/// going silently stale (issue #11, defect 4). Needs root to lower
/// `fs.inotify.max_user_watches` for a moment (as in CI).
@MainActor
final class WatchLimitTests: XCTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    private let limitFile = "/proc/sys/fs/inotify/max_user_watches"

    nonisolated func testRunningOutOfWatchesFallsBackToRescansAndSaysSoOnce() throws {
        try MainActor.assumeIsolated {
            guard getuid() == 0, let original = try? String(contentsOfFile: limitFile, encoding: .utf8),
                  FileManager.default.isWritableFile(atPath: limitFile) else {
                throw cannotRun("needs root to lower max_user_watches")
            }
            let folder = TemporaryFolder()
            for index in 0..<40 {
                try FileManager.default.createDirectory(at: folder.file("Book \(index)"), withIntermediateDirectories: false)
            }
            var messages: [String] = []
            var rescans = 0
            let watcher = LibraryWatcher(library: folder.url) { _ in }
            watcher.rescanInterval = 0.2
            watcher.onDegraded = { messages.append($0) }
            watcher.onRescan = { rescans += 1 }
            // Room for about 10 more watches for this user (every process of root counts).
            let inUse = Self.watchesOfThisUser()
            try "\(inUse + 10)\n".write(toFile: limitFile, atomically: false, encoding: .utf8)
            defer { try? original.write(toFile: limitFile, atomically: false, encoding: .utf8) }
            watcher.watch(notebooks: (0..<40).map { "Book \($0)" })
            try original.write(toFile: limitFile, atomically: false, encoding: .utf8)

            XCTAssertFalse(watcher.unwatched.isEmpty, "some notebooks could not be watched")
            XCTAssertTrue(watcher.unwatched.values.allSatisfy { $0 == ENOSPC })
            XCTAssertEqual(messages.count, 1)
            XCTAssertTrue(messages.first?.contains("max_user_watches") ?? false)
            XCTAssertTrue(MainQueue.run(until: { rescans >= 2 }, timeout: 5), "rescans instead of watching")
            watcher.watch(notebooks: (0..<40).map { "Book \($0)" })  // the limit is back: every folder is watched again
            XCTAssertTrue(watcher.unwatched.isEmpty)
            XCTAssertEqual(messages.count, 1, "said once")
        }
    }

    /// inotify watches held by this user's processes now.
    static func watchesOfThisUser() -> Int {
        var count = 0
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
            var info = stat()
            guard stat("/proc/\(pid)", &info) == 0, info.st_uid == getuid() else { continue }
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fdinfo")) ?? [] {
                guard let text = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8) else { continue }
                count += text.components(separatedBy: "inotify wd:").count - 1
            }
        }
        return count
    }
}
