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
        try english.add("Notulaish")
        XCTAssertTrue(english.isCorrect("Notulaish"))
        let list = try String(contentsOf: config.url.appendingPathComponent("en_US.dic"), encoding: .utf8)
        XCTAssertTrue(list.contains("Notulaish"), list)
        // Another broker (as after a restart) reads it back.
        XCTAssertTrue(try dictionary("en_US").isCorrect("Notulaish"))
    }

    /// Loads `language` on another thread: a hostile personal list must not hold it up.
    private func loadWithin(_ seconds: Double, _ language: String = "en_US", broker: SpellingBroker) throws -> SpellingDictionary {
        let loaded = expectation(description: "the dictionary loads")
        nonisolated(unsafe) var dictionary: SpellingDictionary?
        DispatchQueue.global().async {
            dictionary = broker.dictionary(for: language)
            loaded.fulfill()
        }
        wait(for: [loaded], timeout: seconds)
        return try XCTUnwrap(dictionary)
    }

    func testAFIFOAsThePersonalListNeitherBlocksNorIsRead() throws {
        let list = config.url.appendingPathComponent("en_US.dic").path
        XCTAssertEqual(mkfifo(list, 0o600), 0)
        let broker = SpellingBroker()
        let english = try loadWithin(10, broker: broker)
        XCTAssertTrue(english.isCorrect("misspelled"))
        let problem = try XCTUnwrap(broker.personalListProblem("en_US"))
        XCTAssertTrue(problem.description.contains("named pipe"), problem.description)
        XCTAssertTrue(problem.description.contains(list), problem.description)
        // Add to Dictionary says it cannot keep the word, and still accepts it for the run.
        XCTAssertThrowsError(try english.add("Quorblinax")) { error in
            XCTAssertTrue("\(error)".contains("named pipe"), "\(error)")
        }
        XCTAssertTrue(english.isCorrect("Quorblinax"))
        var info = stat()
        XCTAssertEqual(lstat(list, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO was replaced")
    }

    func testADeviceOrAHugeListIsRefusedAtOnce() throws {
        let list = config.url.appendingPathComponent("en_US.dic")
        XCTAssertEqual(symlink("/dev/zero", list.path), 0)
        let broker = SpellingBroker()
        _ = try loadWithin(10, broker: broker)
        XCTAssertTrue(try XCTUnwrap(broker.personalListProblem("en_US")).description.contains("device"))

        // 200 MB (sparse): not read, said so; adding a word still works (it is a file).
        unlink(list.path)
        XCTAssertTrue(FileManager.default.createFile(atPath: list.path, contents: Data("Zorblatt\n".utf8)))
        XCTAssertEqual(truncate(list.path, 200 << 20), 0)
        let other = SpellingBroker()
        let english = try loadWithin(10, broker: other)
        XCTAssertTrue(try XCTUnwrap(other.personalListProblem("en_US")).description.contains("4 MB"))
        XCTAssertFalse(english.isCorrect("Zorblatt"))
    }

    func testAFolderAsThePersonalListMakesAddSayWhy() throws {
        try FileManager.default.createDirectory(at: config.url.appendingPathComponent("en_US.dic"), withIntermediateDirectories: false)
        let broker = SpellingBroker()
        let english = try loadWithin(10, broker: broker)
        XCTAssertTrue(try XCTUnwrap(broker.personalListProblem("en_US")).description.contains("folder"))
        XCTAssertThrowsError(try english.add("Quorblinax")) { error in
            XCTAssertTrue("\(error)".contains("folder"), "\(error)")
        }
    }

    func testThePersonalListIsReadAsEnchantWritesItAndAppendedOnALineOfItsOwn() throws {
        let list = config.url.appendingPathComponent("en_US.dic")
        // A byte-order mark, a comment, a line that is not UTF-8, no newline at the end.
        var bytes = Data([0xEF, 0xBB, 0xBF]) + Data("Frobnicatr\n# Zorblatt\n".utf8)
        bytes += Data([0x51, 0xFF, 0x0A]) + Data("Quuxify".utf8)
        try bytes.write(to: list)
        let broker = SpellingBroker()
        let english = try loadWithin(10, broker: broker)
        XCTAssertNil(broker.personalListProblem("en_US"))
        XCTAssertTrue(english.isCorrect("Frobnicatr"))
        XCTAssertTrue(english.isCorrect("Quuxify"))
        XCTAssertFalse(english.isCorrect("Zorblatt"))
        try english.add("Notulaish")
        XCTAssertEqual(try Data(contentsOf: list), bytes + Data("\nNotulaish\n".utf8))
        // Enchant itself never wrote into the user's folder.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: config.url.path), ["en_US.dic"])
    }

    func testAddingTheFirstWordMakesTheListAndItsFolders() throws {
        let deep = config.url.appendingPathComponent("home/.config/enchant")
        setenv("ENCHANT_CONFIG_DIR", deep.path, 1)
        let english = try loadWithin(10, broker: SpellingBroker())
        try english.add("Notulaish")
        XCTAssertEqual(try String(contentsOf: deep.appendingPathComponent("en_US.dic"), encoding: .utf8), "Notulaish\n")
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
