import Foundation
import XCTest

/// Strings shown to the user are whole sentences with their values in them (issue #12: a
/// toast said "“\(note.title)” restored", literally). Reads the app's own sources: a string
/// literal with an escaped backslash before "(" shows "\(" instead of interpolating.
final class UserVisibleStringsTests: XCTestCase {
    func testNoStringLiteralShowsABackslashInsteadOfAValue() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 50, "the sources were not found at \(sources.path)")
        var offenders: [String] = []
        for file in files {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), code.contains("\"") else { continue }
                if code.contains(#"\\("#) { offenders.append("\(file.lastPathComponent):\(number + 1): \(code)") }
            }
        }
        XCTAssertEqual(offenders, [])
    }
}
