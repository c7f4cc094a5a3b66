import Foundation
import Gtk
import NotesCore

/// Spelling in the editor (issue #31): which dictionary checks the shown note, the context
/// menu's spelling items, and the keys.
///
/// - Language: the note's own (`NoteLanguages`, `.notula/languages.txt` in the library, chosen
///   from the context menu's "Spelling Language" submenu), else the one chosen in Preferences,
///   else the user's language (`SpellingLanguage.systemDefault`).
/// - Right-click on a marked word, or the Menu key / Shift+F10 with the cursor in one: up to 5
///   suggestions (choosing one is one edit Ctrl+Z takes back), Add to Dictionary (Enchant's
///   personal word list), Ignore All (until quit). The items follow the text view's own
///   (Cut, Copy, Paste…), as GTK places extra items.
/// - F7 selects the next misspelled word, Shift+F7 the one before (wrapping around); words
///   past the view are checked as the search reaches them.
final class EditorSpelling {
    let marks: SpellingMarks
    /// The spelling sections of the text view's context menu: the suggestions, Add and Ignore,
    /// the note's language. Each is empty when it does not apply.
    let menuSections = [Menu(), Menu(), Menu()]
    private var suggestionsMenu: Menu { menuSections[0] }
    private var wordMenu: Menu { menuSections[1] }
    private var languageSection: Menu { menuSections[2] }
    private let textView: TextView
    private let buffer: TextBuffer
    private let broker: SpellingBroker
    private let languageMenu = Menu()
    private let suggestionActions = (0..<5).map { SimpleAction(name: "suggestion-\($0)") }
    private let addAction = SimpleAction(name: "add")
    private let ignoreAction = SimpleAction(name: "ignore")
    private let languageAction = SimpleAction(name: "language", choice: "")
    /// The word the menu is for, and its suggestions.
    private var menuWord: (range: Range<Int>, word: String, suggestions: [String])?

    /// Whether words are checked at all (Preferences).
    private(set) var isEnabled = true
    /// The language chosen in Preferences; nil: the user's own.
    private(set) var defaultLanguage: String?
    private var skipAllCaps = true
    /// The note's own language, when it has one.
    private(set) var noteLanguage: String?
    /// A note was shown: until then there is nothing to check, and no dictionary is loaded
    /// (Hunspell's takes ~9 MB: an empty library, or a window not showing a note yet, needs none).
    private var hasShownNote = false
    /// Where the shown note is (for its language).
    var noteLocation: (() -> NoteLocation?)?
    /// A failure the user should hear of (the note's language could not be saved).
    var onError: ((Error) -> Void)?

    init(textView: TextView, buffer: TextBuffer, marks: SpellingMarks, broker: SpellingBroker = .shared) {
        self.textView = textView
        self.buffer = buffer
        self.marks = marks
        self.broker = broker
        for (index, action) in suggestionActions.enumerated() {
            action.onActivate { [weak self] _ in self?.correct(with: index) }
        }
        addAction.onActivate { [weak self] _ in self?.addOrIgnore(add: true) }
        ignoreAction.onActivate { [weak self] _ in self?.addOrIgnore(add: false) }
        languageAction.onChangeState { [weak self] action, tag in
            action.choice = tag
            self?.chooseNoteLanguage(tag.isEmpty ? nil : tag)
        }
        textView.addActions(suggestionActions + [addAction, ignoreAction, languageAction], prefix: "spelling")

        let secondary = ClickGesture(button: 3)
        secondary.runBeforeWidget()
        secondary.onPressed { [weak self] _, _, x, y in
            guard let self else { return }
            self.prepareMenu(atOffset: self.textView.offset(atViewPoint: x, y))
        }
        textView.addController(secondary)
        let keys = KeyController()
        keys.runBeforeWidget()
        keys.onKeyPressed { [weak self] _, keyval, modifiers in
            guard let self else { return false }
            let mods = modifiers & Key.modifierMask
            if keyval == Key.menu && mods == 0 || keyval == Key.f10 && mods == Key.shiftMask {
                // The menu opens after this, at the cursor: make it the cursor word's.
                self.prepareMenu(atOffset: self.buffer.cursorOffset)
                return false
            }
            guard keyval == Key.f7, mods & ~Key.shiftMask == 0 else { return false }
            self.selectNextMisspelling(backward: mods == Key.shiftMask)
            return true
        }
        textView.addController(keys)
        prepareMenu(atOffset: nil)
    }

    // MARK: Which dictionary

    /// Preferences changed (or were read at start).
    func configure(enabled: Bool, defaultLanguage: String?, skipAllCaps: Bool) {
        isEnabled = enabled
        self.defaultLanguage = defaultLanguage
        self.skipAllCaps = skipAllCaps
        apply()
    }

    /// Another note is shown: its own language, if it has one.
    func noteShown() {
        hasShownNote = true
        if let location = noteLocation?() {
            noteLanguage = NoteLanguages(library: location.library).language(ofNoteAt: location.noteID)
        } else {
            noteLanguage = nil
        }
        apply()
    }

    /// The language checking the shown note now (nil: none, spelling off or no dictionary).
    var language: String? { marks.dictionary?.language }

    /// The language that would check notes without one of their own.
    var effectiveDefaultLanguage: String? {
        let installed = broker.languages
        if let defaultLanguage, let match = SpellingLanguage.bestMatch(for: defaultLanguage, installed: installed) { return match }
        return SpellingLanguage.systemDefault(installed: installed)
    }

    /// Checks with the dictionary the note should have. One not loaded yet is loaded off the
    /// main thread (a start or a note switch never waits for it), then used.
    private func apply() {
        languageAction.choice = noteLanguage ?? ""
        guard isEnabled, hasShownNote else { return marks.use(nil, skipAllCaps: skipAllCaps) }
        guard broker.isReady(nil) else { return broker.prepare(nil) { [weak self] in self?.apply() } }
        let installed = broker.languages
        let tag = noteLanguage.flatMap { SpellingLanguage.bestMatch(for: $0, installed: installed) } ?? effectiveDefaultLanguage
        guard broker.isReady(tag) else { return broker.prepare(tag) { [weak self] in self?.apply() } }
        marks.use(tag.flatMap { broker.dictionary(for: $0) }, skipAllCaps: skipAllCaps)
    }

    /// The note's own language (nil: back to the default), kept in the library so it syncs.
    func chooseNoteLanguage(_ tag: String?) {
        guard let location = noteLocation?() else { return }
        do {
            try NoteLanguages(library: location.library).set(tag, forNoteAt: location.noteID)
        } catch {
            languageAction.choice = noteLanguage ?? ""
            onError?(OperationError(.chooseLanguage, note: NoteText.title(of: buffer.leadingText(4096)), underlying: error))
            return
        }
        noteLanguage = tag
        apply()
    }

    // MARK: The context menu

    /// Fills the spelling section for the marked word at `offset` (empty when there is none),
    /// and the language submenu.
    func prepareMenu(atOffset offset: Int?) {
        menuSections.forEach { $0.removeAll() }
        menuWord = nil
        if let offset, let dictionary = marks.dictionary, let marked = marks.markedWord(atOffset: offset) {
            let suggestions = dictionary.suggestions(for: marked.word, limit: suggestionActions.count)
            menuWord = (marked.range, marked.word, suggestions)
            if suggestions.isEmpty {
                // TRANSLATORS: shown greyed in the context menu of a misspelled word the dictionary has no fix for.
                suggestionsMenu.appendInactive(tr("No Suggestions"))
            }
            for (index, suggestion) in suggestions.enumerated() {
                suggestionsMenu.append(suggestion, action: "spelling.suggestion-\(index)")
            }
            // TRANSLATORS: context menu of a misspelled word: adds it to the personal word list.
            wordMenu.append(tr("Add to Dictionary"), action: "spelling.add")
            // TRANSLATORS: context menu of a misspelled word: never mark it again until Notula quits.
            wordMenu.append(tr("Ignore All"), action: "spelling.ignore")
        }
        languageMenu.removeAll()
        // Only once the languages are known (listing them never holds up a start).
        if isEnabled, broker.isReady(nil), !broker.languages.isEmpty {
            // TRANSLATORS: stands for a spelling language when no dictionary is installed.
            let defaultName = effectiveDefaultLanguage.map { SpellingLanguage.displayName($0) } ?? tr("None")
            // TRANSLATORS: the spelling language a note has when none is chosen for it; %s names it ("Default (English (United States))").
            languageMenu.append(tr("Default (%s)", defaultName), action: "spelling.language::")
            for tag in SpellingLanguage.sortedByName(broker.languages) {
                languageMenu.append(SpellingLanguage.displayName(tag), action: "spelling.language::\(tag)")
            }
            // TRANSLATORS: a submenu of the editor's context menu: the language this note is checked in.
            languageSection.appendSubmenu(tr("Spelling Language"), languageMenu)
        }
    }

    /// The suggestions the menu offers now (tests read them).
    var offeredSuggestions: [String] { menuWord?.suggestions ?? [] }

    /// Replaces the menu's word with suggestion `index`, as one edit.
    func correct(with index: Int) {
        guard let (range, word, suggestions) = menuWord, index < suggestions.count, textView.isEditable,
              buffer.text(in: range) == word else { return }
        buffer.replace(range, with: suggestions[index])
        menuWord = nil
    }

    private func addOrIgnore(add: Bool) {
        guard let word = menuWord?.word, let dictionary = marks.dictionary else { return }
        menuWord = nil
        // Right at once for this run; the personal list is written off the main thread (it
        // may wait a moment for another Enchant application's lock).
        dictionary.ignore(word)
        if add {
            dictionary.add(word) { [weak self] error in
                guard let error else { return }
                // Why the word will not last.
                let problem = (error as? PersonalWordList.Problem)?.description ?? String(describing: error)
                self?.onError?(RecoverableFailure(
                    // TRANSLATORS: %s is the word the user chose Add to Dictionary for.
                    failureReason: tr("“%s” could not be added to your personal word list", word),
                    // TRANSLATORS: %s says why the personal word list cannot be written.
                    recoverySuggestion: tr("%s Until Notula quits, the word is not marked.", problem),
                    recoveryOptions: [], underlyingError: error))
            }
        }
        marks.wordsChanged()
    }

    // MARK: Next misspelling

    /// Selects the next (or previous) misspelled word from the cursor and shows it; false
    /// when the note has none.
    @discardableResult
    func selectNextMisspelling(backward: Bool = false) -> Bool {
        guard marks.dictionary != nil else { return false }
        let selection = buffer.selection
        let count = buffer.lineCount
        let cursorLine = buffer.line(atOffset: backward ? selection.lowerBound : selection.upperBound)
        // Each line once, from the cursor's, wrapping around; the cursor's again at the end.
        for step in 0...count {
            let line = backward ? ((cursorLine - step) % count + count) % count : (cursorLine + step) % count
            marks.ensureChecked(line)
            let start = buffer.startOffset(ofLine: line)
            let end = line + 1 < count ? buffer.startOffset(ofLine: line + 1) : buffer.characterCount
            var runs = marks.markedRanges(in: start..<end)
            if step == 0 {
                runs = runs.filter { backward ? $0.upperBound < selection.lowerBound : $0.lowerBound >= selection.upperBound }
            } else if step == count {
                runs = runs.filter { backward ? $0.lowerBound >= selection.lowerBound : $0.upperBound <= selection.upperBound }
            }
            if let found = backward ? runs.last : runs.first {
                buffer.selection = found
                textView.scrollToCursor()
                return true
            }
        }
        return false
    }
}
