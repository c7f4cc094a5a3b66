import Foundation
@testable import NotesCore
import TestSupport
import XCTest

/// The gettext helper with a real catalog compiled by msgfmt: placeholders filled (reordered
/// too), plural forms chosen by the language's own rule, contexts kept apart, English when a
/// string has no translation.
final class LocalizationTests: XCTestCase {
    private let folder = TemporaryFolder()

    /// gettext reads LANGUAGE from the process's environment, not from the dictionary.
    private func start(language: String, folder: URL) {
        setenv("LANGUAGE", language, 1)
        Localization.start(environment: ["LANGUAGE": language, "NOTULA_LOCALEDIR": folder.path])
    }

    override func tearDown() {
        unsetenv("LANGUAGE")
        Localization.start(environment: [:])  // back to English for the other tests
        super.tearDown()
    }

    /// A catalog for the pseudo-language `ts` with Polish-like plurals (three forms), to prove the
    /// catalog's rule picks the form, not English's "1 or more".
    private func startWithCatalog() throws {
        let po = """
        msgid ""
        msgstr ""
        "Project-Id-Version: notula-test\\n"
        "PO-Revision-Date: 2026-01-01 00:00+0000\\n"
        "Last-Translator: test\\n"
        "Language-Team: test\\n"
        "Language: ts\\n"
        "MIME-Version: 1.0\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Content-Transfer-Encoding: 8bit\\n"
        "Plural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"

        msgid "New Note"
        msgstr "Nowa notatka"

        #, c-format
        msgid "“%1$s” moved to “%2$s”"
        msgstr "Do „%2$s” przeniesiono „%1$s”"

        #, c-format
        msgid "%d note"
        msgid_plural "%d notes"
        msgstr[0] "%d notatka"
        msgstr[1] "%d notatki"
        msgstr[2] "%d notatek"

        msgctxt "Trash age"
        msgid "Never"
        msgstr "Nigdy (kosz)"

        """
        let source = try folder.write("ts.po", po)
        let target = folder.url.appendingPathComponent("locale/ts/LC_MESSAGES", isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["--check", "-o", target.appendingPathComponent("notula.mo").path, source.path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        XCTAssertEqual(msgfmt.terminationStatus, 0, "msgfmt failed")
        start(language: "ts", folder: folder.url.appendingPathComponent("locale"))
    }

    func testTranslationsPluralFormsAndPlaceholdersComeFromTheCatalog() throws {
        try startWithCatalog()
        XCTAssertEqual(tr("New Note"), "Nowa notatka")
        XCTAssertEqual(tr("“%1$s” moved to “%2$s”", "Groceries", "Home"), "Do „Home” przeniesiono „Groceries”")
        XCTAssertEqual([1, 3, 5, 22, 112].map { trn("%d note", "%d notes", $0) },
                       ["1 notatka", "3 notatki", "5 notatek", "22 notatki", "112 notatek"])
        XCTAssertEqual(trc("Trash age", "Never"), "Nigdy (kosz)")
        XCTAssertEqual(tr("Never"), "Never", "a context keeps its translation to itself")
        XCTAssertEqual(tr("A sentence nobody translated: %s", "x"), "A sentence nobody translated: x")
        XCTAssertEqual(Localization.locale.identifier, "ts", "dates follow the language the window speaks")
    }

    func testEnglishWithoutACatalog() {
        start(language: "zz", folder: folder.url)
        XCTAssertEqual(tr("New Note"), "New Note")
        XCTAssertEqual(trn("%d note", "%d notes", 1), "1 note")
        XCTAssertEqual(trn("%d note", "%d notes", 3), "3 notes")
        XCTAssertEqual(trnc("Trash age", "%d day ago", "%d days ago", 7), "7 days ago")
        XCTAssertEqual(trc("Trash age", "Never"), "Never")
    }

    func testFormatFillsCPlaceholdersAndNeverCrashes() {
        XCTAssertEqual(Localization.format("%s and %s", ["a", "b"]), "a and b")
        XCTAssertEqual(Localization.format("%2$s before %1$s", ["a", "b"]), "b before a")
        XCTAssertEqual(Localization.format("%d%% done", ["50"]), "50% done")
        XCTAssertEqual(Localization.format("%s, %s and %s", ["a"]), "a, %s and %s", "a missing argument stays visible")
        XCTAssertEqual(Localization.format("trailing %", []), "trailing %")
        XCTAssertEqual(Localization.format("“%s”", ["Café ☕"]), "“Café ☕”")
    }

    /// The language asked for is the one shown, whether or not the machine has a locale for it
    /// (Debian 13's glibc ignores LANGUAGE under C.UTF-8, and most machines generate a few locales).
    func testTheLanguageAskedForComesFromLanguageThenTheMessagesLocale() {
        XCTAssertEqual(Localization.languages(environment: ["LANGUAGE": "de:fr", "LANG": "C.UTF-8"]), ["de", "fr"])
        XCTAssertEqual(Localization.languages(environment: ["LANG": "de_AT.UTF-8"]), ["de_AT.UTF-8"])
        XCTAssertEqual(Localization.languages(environment: ["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]), ["fr_FR.UTF-8"])
        XCTAssertEqual(Localization.languages(environment: ["LC_ALL": "pl_PL.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"]), ["pl_PL.UTF-8"])
        XCTAssertEqual(Localization.languages(environment: ["LC_ALL": "", "LANG": "de_DE.UTF-8"]), ["de_DE.UTF-8"])
        for english in ["C", "POSIX", "C.UTF-8", "C.utf8", ""] {
            XCTAssertEqual(Localization.languages(environment: ["LANG": english]), [], english)
        }
        XCTAssertEqual(Localization.languages(environment: ["LANGUAGE": "", "LANG": "C"]), [])
    }

    /// `de_AT.UTF-8` finds the `de` catalog; a name that is a path finds nothing.
    func testALocaleNameFindsTheCatalogOfItsLanguage() throws {
        let target = folder.url.appendingPathComponent("locale/de/LC_MESSAGES", isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try MessageCatalogTests.compile(po: MessageCatalogTests.german, to: target.appendingPathComponent("notula.mo"))
        unsetenv("LANGUAGE")
        Localization.start(environment: ["LANG": "de_AT.UTF-8@euro", "NOTULA_LOCALEDIR": folder.url.appendingPathComponent("locale").path])
        XCTAssertEqual(tr("New Note"), "Neue Notiz")
        XCTAssertEqual(MessageCatalog.candidates(for: "de_AT.UTF-8@euro"), ["de_AT@euro", "de_AT", "de@euro", "de"])
        XCTAssertEqual(MessageCatalog.candidates(for: "../../etc"), [])
        Localization.start(environment: ["LANG": "C.UTF-8", "NOTULA_LOCALEDIR": folder.url.appendingPathComponent("locale").path])
        XCTAssertEqual(tr("New Note"), "New Note", "C is English")
    }
}
