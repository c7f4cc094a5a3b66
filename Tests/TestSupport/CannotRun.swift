import Foundation
import XCTest

/// Whether this is a CI run (`.ci/run` sets CI=true).
public let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

/// What a test throws when it cannot run here, with why. On a developer's machine that is a
/// skip (XCTSkip, counted and shown); under CI — root, with every tool `make deps-test`
/// installs — it is a failure: a test skipped there would pass having checked nothing.
public func cannotRun(_ reason: String, file: StaticString = #filePath, line: UInt = #line) -> Error {
    isCI ? SkippedUnderCI(reason: reason) : XCTSkip(reason, file: file, line: line)
}

/// A skip under CI: reported as the test's failure.
public struct SkippedUnderCI: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "a test may not be skipped under CI (CI=true): \(reason)" }
}
