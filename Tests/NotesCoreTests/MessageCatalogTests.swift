import Foundation
@testable import NotesCore
import TestSupport
import XCTest

/// Notula's own reader of msgfmt's catalogs: both byte orders, every plural rule gettext's
/// languages use, and damaged files read as no catalog rather than a crash.
final class MessageCatalogTests: XCTestCase {
    private let folder = TemporaryFolder()

    static let german = """
    msgid ""
    msgstr ""
    "Content-Type: text/plain; charset=UTF-8\\n"
    "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

    msgid "New Note"
    msgstr "Neue Notiz"

    msgid "%d note"
    msgid_plural "%d notes"
    msgstr[0] "%d Notiz"
    msgstr[1] "%d Notizen"

    msgid "Untranslated"
    msgstr ""

    """

    /// msgfmt --check, as `make translations` runs it.
    static func compile(po: String, to target: URL, arguments: [String] = []) throws {
        let source = target.deletingPathExtension().appendingPathExtension("po")
        try po.write(to: source, atomically: true, encoding: .utf8)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["--check"] + arguments + ["-o", target.path, source.path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        XCTAssertEqual(msgfmt.terminationStatus, 0, "msgfmt failed")
    }

    func testBothByteOrdersReadTheSame() throws {
        for endianness in ["little", "big"] {
            let file = folder.url.appendingPathComponent("\(endianness).mo")
            try Self.compile(po: Self.german, to: file, arguments: ["--endianness=\(endianness)"])
            let catalog = try XCTUnwrap(MessageCatalog(contentsOf: file), endianness)
            XCTAssertEqual(catalog.translation(of: "New Note"), "Neue Notiz", endianness)
            XCTAssertEqual(catalog.translation(of: "%d note", count: 1), "%d Notiz", endianness)
            XCTAssertEqual(catalog.translation(of: "%d note", count: 0), "%d Notizen", endianness)
            XCTAssertNil(catalog.translation(of: "Untranslated"), "an empty msgstr is no translation")
            XCTAssertNil(catalog.translation(of: "Missing"))
        }
    }

    /// Cut short anywhere, or with an offset pointing past the end: no catalog, no crash.
    func testADamagedCatalogIsNoCatalog() throws {
        let file = folder.url.appendingPathComponent("de.mo")
        try Self.compile(po: Self.german, to: file)
        let good = try Data(contentsOf: file)
        XCTAssertNotNil(MessageCatalog(data: good))
        for length in stride(from: 0, to: good.count - 1, by: 7) {
            XCTAssertNil(MessageCatalog(data: good.prefix(length)), "cut at \(length)")
        }
        var pointingOut = good
        pointingOut.replaceSubrange(28..<32, with: [0xff, 0xff, 0xff, 0x7f])  // the first msgid's length
        XCTAssertNil(MessageCatalog(data: pointingOut))
        var hugeCount = good
        hugeCount.replaceSubrange(8..<12, with: [0xff, 0xff, 0xff, 0xff])
        XCTAssertNil(MessageCatalog(data: hugeCount))
        XCTAssertNil(MessageCatalog(data: Data("not a catalog at all, just text".utf8)))
    }

    /// The rules of gettext's manual ("Plural forms"), checked on the counts that tell them apart.
    func testPluralRulesOfTheWorldsLanguages() throws {
        let cases: [(String, [UInt64: Int])] = [
            ("nplurals=1; plural=0;", [0: 0, 1: 0, 7: 0]),  // Japanese
            ("nplurals=2; plural=n != 1;", [0: 1, 1: 0, 2: 1]),  // German
            ("nplurals=2; plural=n>1;", [0: 0, 1: 0, 2: 1]),  // French
            ("nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
             [1: 0, 2: 1, 4: 1, 5: 2, 12: 2, 22: 1, 112: 2, 1_000_000: 2]),  // Polish
            ("nplurals=3; plural=n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2;",
             [1: 0, 11: 2, 21: 0, 3: 1, 13: 2, 25: 2]),  // Russian
            ("nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
             [0: 0, 1: 1, 2: 2, 3: 3, 11: 4, 100: 5, 102: 5, 103: 3]),  // Arabic
            ("nplurals=5; plural=n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4;",
             [1: 0, 2: 1, 5: 2, 8: 3, 11: 4]),  // Irish
            ("nplurals=2; plural=!(n==1);", [1: 0, 4: 1]),
            ("nplurals=2; plural=(n - 1) * 3 / 3 + 0 == 0 ? 0 : 1;", [1: 0, 0: 1, 2: 1]),  // arithmetic, wrapping
        ]
        for (header, expected) in cases {
            let rule = try XCTUnwrap(PluralRule(header: header), header)
            for (count, form) in expected {
                XCTAssertEqual(rule.form(for: count), form, "\(header) n=\(count)")
            }
        }
    }

    /// A rule that does not parse is no rule (the catalog falls back to English's); one that
    /// divides by zero or answers past the forms gives form 0.
    func testARuleThatDoesNotParseOrMisbehavesNeverCrashes() throws {
        for broken in ["nplurals=2; plural=n !=;", "nplurals=2; plural=(n==1;", "nplurals=0; plural=0;",
                       "nplurals=2; plural=n ? 1;", "plural=n;", "nplurals=2;", "nplurals=2; plural=n x 1;",
                       "nplurals=2; plural=" + String(repeating: "(", count: 500) + "n" + String(repeating: ")", count: 500) + ";",
                       "nplurals=2; plural=99999999999999999999999;"] {
            XCTAssertNil(PluralRule(header: broken), broken)
        }
        XCTAssertEqual(try XCTUnwrap(PluralRule(header: "nplurals=2; plural=n / 0 + n % 0;")).form(for: 5), 0)
        XCTAssertEqual(try XCTUnwrap(PluralRule(header: "nplurals=2; plural=n;")).form(for: 9), 0, "past the forms")
    }
}
