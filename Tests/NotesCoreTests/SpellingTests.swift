import Foundation
import NotesCore
import TestSupport
import XCTest

/// Enchant 2 with the real Hunspell dictionaries (hunspell-en-us, hunspell-de-de).
final class SpellingTests: XCTestCase {
    private var config: TemporaryFolder!

    override func setUp() {
        super.setUp()
        // The personal word list goes here, not into the user's own.
        config = TemporaryFolder()
        setenv("ENCHANT_CONFIG_DIR", config.url.path, 1)
    }

    override func tearDown() {
        unsetenv("ENCHANT_CONFIG_DIR")
        config = nil
        super.tearDown()
    }

    private func dictionary(_ language: String, broker: SpellingBroker = SpellingBroker()) throws -> SpellingDictionary {
        try XCTUnwrap(broker.dictionary(for: language), "no \(language) dictionary: install hunspell-\(language.lowercased().replacingOccurrences(of: "_", with: "-"))")
    }

    func testEnglishAndGermanAreInstalledAndCheck() throws {
        let broker = SpellingBroker()
        XCTAssertTrue(broker.languages.contains("en_US"), "\(broker.languages)")
        XCTAssertTrue(broker.languages.contains("de_DE"), "\(broker.languages)")
        let english = try dictionary("en_US", broker: broker)
        XCTAssertTrue(english.isCorrect("misspelled"))
        XCTAssertFalse(english.isCorrect("mispelled"))
        XCTAssertTrue(english.isCorrect("don't"))
        XCTAssertTrue(english.isCorrect("don’t"))
        let german = try dictionary("de_DE", broker: broker)
        XCTAssertTrue(german.isCorrect("Rechtschreibung"))
        XCTAssertFalse(german.isCorrect("Rechtschreibng"))
        XCTAssertTrue(german.isCorrect("Straße"))
        XCTAssertTrue(german.isCorrect("Mutter-Kind"))
    }

    func testSuggestionsAreAtMostFiveAndHoldTheFix() throws {
        let english = try dictionary("en_US")
        let suggestions = english.suggestions(for: "mispelled")
        XCTAssertTrue(suggestions.contains("misspelled"), "\(suggestions)")
        XCTAssertLessThanOrEqual(suggestions.count, 5)
        XCTAssertTrue(try dictionary("de_DE").suggestions(for: "Rechtschreibng").contains("Rechtschreibung"))
    }

    func testAddedWordsAreWrittenToThePersonalListAndReadBackByANewBroker() throws {
        let english = try dictionary("en_US")
        XCTAssertFalse(english.isCorrect("Notulaish"))
        english.add("Notulaish")
        XCTAssertTrue(english.isCorrect("Notulaish"))
        let list = try String(contentsOf: config.url.appendingPathComponent("en_US.dic"), encoding: .utf8)
        XCTAssertTrue(list.contains("Notulaish"), list)
        // Another broker (as after a restart) reads it back.
        XCTAssertTrue(try dictionary("en_US").isCorrect("Notulaish"))
    }

    func testIgnoredWordsHoldForTheRunOnly() throws {
        let broker = SpellingBroker()
        let english = try dictionary("en_US", broker: broker)
        english.ignore("Zorblax")
        XCTAssertTrue(english.isCorrect("Zorblax"))
        XCTAssertTrue(try dictionary("en_US", broker: broker).isCorrect("Zorblax"))
        let list = (try? String(contentsOf: config.url.appendingPathComponent("en_US.dic"), encoding: .utf8)) ?? ""
        XCTAssertFalse(list.contains("Zorblax"), list)
        XCTAssertFalse(try dictionary("en_US").isCorrect("Zorblax"))
    }

    func testAMissingDictionaryIsNilAndNamesItsPackage() {
        let broker = SpellingBroker()
        XCTAssertNil(broker.dictionary(for: "xx_YY"))
        XCTAssertNil(broker.dictionary(for: ""))
        XCTAssertEqual(SpellingLanguage.package(for: "fr_FR"), "hunspell-fr-fr")
    }

    func testTheDefaultLanguageFollowsTheEnvironment() {
        let installed = ["de_DE", "de_LU", "en_US"]
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LANG": "de_DE.UTF-8"]), "de_DE")
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LANG": "de_AT.UTF-8"]), "de_DE")
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LANG": "en_GB.UTF-8", "LANGUAGE": "de:en"]), "de_DE")
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LANG": "C.UTF-8", "LANGUAGE": "de"]), "de_DE")
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LANG": "C.UTF-8"]), "en_US")
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LC_MESSAGES": "de_LU.UTF-8"]), "de_LU")
        XCTAssertEqual(SpellingLanguage.systemDefault(installed: installed, environment: ["LANG": "fr_FR.UTF-8"]), "en_US")
        XCTAssertNil(SpellingLanguage.systemDefault(installed: [], environment: ["LANG": "fr_FR.UTF-8"]))
        XCTAssertEqual(SpellingLanguage.displayName("de_DE", environment: ["LANG": "en_US.UTF-8"]), "German (Germany)")
        XCTAssertEqual(SpellingLanguage.displayName("en_US", environment: ["LANG": "de_DE.UTF-8"]), "Englisch (Vereinigte Staaten)")
    }

    func testANotesLanguageIsKeptInTheLibraryAndFollowsItIntoNotebooks() throws {
        let library = TemporaryFolder()
        let languages = NoteLanguages(library: library.url)
        XCTAssertNil(languages.language(ofNoteAt: "note-1.md"))
        try languages.set("de_DE", forNoteAt: "note-1.md")
        try languages.set("en_US", forNoteAt: "Work/note-2.md")
        XCTAssertEqual(languages.language(ofNoteAt: "Other/note-1.md"), "de_DE")
        XCTAssertEqual(languages.load(), ["note-1.md": "de_DE", "note-2.md": "en_US"])
        try languages.set(nil, forNoteAt: "note-1.md")
        XCTAssertEqual(NoteLanguages(library: library.url).load(), ["note-2.md": "en_US"])
        // Hidden: never a note, and the library lists nothing new.
        XCTAssertEqual(library.names, [".notula"])
    }

    func testAMarkdownCorpusMarksOnlyMisspelledProse() throws {
        let english = try dictionary("en_US")
        let text = """
        Shoping list
        - [ ] buy **fressh** bread at https://exmple.org/brd
        `grpe` and ```inline``` code, then [teh plan](../Wrk/Plann.md)
        ```
        let mispeled = 1
        ```
        mail bob@exmple.org about NASA and teh notes.md file
        """
        let lines = text.components(separatedBy: "\n")
        var state = MarkdownBlockState.outside
        var marked: [String] = []
        for (index, line) in lines.enumerated() {
            let scalars = Array(line.unicodeScalars)
            for range in ProseWords.ranges(in: line, index: index, entering: state, previous: index > 0 ? lines[index - 1] : nil,
                                           next: index + 1 < lines.count ? lines[index + 1] : nil) {
                let word = String(String.UnicodeScalarView(scalars[range]))
                if !english.isCorrect(word) { marked.append(word) }
            }
            state = MarkdownLineStyler.exitState(of: line, entering: state)
        }
        XCTAssertEqual(marked, ["Shoping", "fressh", "teh", "teh"])
    }
}
