import Foundation
import XCTest

/// Strings shown to the user are whole sentences with their values in them (issue #12: a
/// toast said "“\(note.title)” restored", literally), in the user's language (issue #16).
/// Reads the app's own sources.
final class UserVisibleStringsTests: XCTestCase {
    /// Every line of code (comments skipped) of the app's Swift sources, with its place.
    private func codeLines() throws -> [(place: String, code: String)] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        XCTAssertGreaterThan(files.count, 50, "the sources were not found at \(sources.path)")
        var lines: [(String, String)] = []
        for file in files {
            for (number, line) in try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n").enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if !code.hasPrefix("//") { lines.append(("\(file.lastPathComponent):\(number + 1)", code)) }
            }
        }
        return lines
    }

    /// A string literal with an escaped backslash before "(" shows "\(" instead of interpolating.
    func testNoStringLiteralShowsABackslashInsteadOfAValue() throws {
        let offenders = try codeLines().filter { $0.code.contains("\"") && $0.code.contains(#"\\("#) }
        XCTAssertEqual(offenders.map { "\($0.place): \($0.code)" }, [])
    }

    /// Words handed straight to a label, button, tooltip, screen reader, toast, menu or error
    /// text bypass the translations: they go through tr/trn. (The pseudo-locale acceptance test
    /// catches what this cannot see: text built elsewhere and shown later.)
    func testTextForTheUserGoesThroughTranslation() throws {
        let setters = [#"Label\("#, #"Button\(label: "#, #"\.text = "#, #"\.label = "#, #"tooltip = "#,
                       #"accessibleLabel = "#, #"accessibleDescription = "#, #"placeholder(Text)? = "#,
                       #"failureReason: "#, #"recoverySuggestion: "#, #"RecoveryAction\("#, #"\.cancel\("#,
                       #"title: "#, #"heading: "#, #"\.show\("#, #"Section\.append\("#, #"\.title = "#,
                       #"description: "#]
        let pattern = try NSRegularExpression(pattern: "(" + setters.joined(separator: "|") + #")"[A-Za-z]"#)
        let offenders = try codeLines().filter { line in
            pattern.firstMatch(in: line.code, range: NSRange(line.code.startIndex..., in: line.code)) != nil
                && !line.code.contains(#"title = "Notula""#)  // the app's name, as the window manager shows it
        }
        XCTAssertEqual(offenders.map { "\($0.place): \($0.code)" }, [])
    }
}
