import Dispatch
import Gtk
import NotesCore

/// The editor pane: a word-wrapping Markdown editor (GtkSourceView, styled as you type by
/// `MarkdownHighlighter`, spelling marked by `SpellingMarks` under `EditorSpelling`, with
/// `MarkdownKeys`, `TaskBoxes`, `EditorLinks`, a `FindBar`, `EditorOutline` and, when chosen,
/// `EditorVim`), a banner for notes that need a word (read-only, deleted on disk), and a
/// placeholder while no note is open. It reports that the text changed and how (typed, undone, redone) without
/// copying it; whoever saves reads `text` then. Styling never changes the text.
/// As the first responder of the text view it handles "this note is read-only" inline: the
/// banner flashes instead of a dialog.
final class EditorView: Responder {
    let root = Stack()
    let buffer = SourceBuffer()
    let textView: SourceView
    let highlighter: MarkdownHighlighter
    /// Misspelled words marked, their menu, the note's language.
    private(set) var spelling: EditorSpelling!
    let findBar: FindBar
    private(set) var keys: MarkdownKeys!
    private(set) var tasks: TaskBoxes!
    private(set) var links: EditorLinks!
    /// `[[Title]]` links: opening, missing ones marked.
    private(set) var noteLinks: EditorNoteLinks!
    /// Suggestions after `[[` and `#`.
    private(set) var completion: LinkCompletion!
    /// Pictures and files pasted, dropped or inserted: copied into the library, then linked.
    private(set) var attachments: AttachmentInserter!
    /// Ctrl+V: the clipboard read and judged before anything goes into the note.
    private var paste: EditorPaste!
    /// Grows each time another note (or none) is shown: work that outlives a note checks it.
    private(set) var shownNoteSerial = 0
    private(set) var pictures: InlinePictures!
    private let readableWidth: ReadableWidth
    private let scroller = ScrolledWindow()
    private let banner = Box(.horizontal, spacing: 8)
    private let bannerLabel = Label()
    let bannerButton = Button(label: "")
    private var bannerAction: (() -> Void)?
    /// Words and characters, under the text.
    private(set) var counts: NoteCounts!
    /// Vim keys and their command bar, under the text (Preferences).
    private(set) var vim: EditorVim!
    /// The note's headings, from a button under the text.
    private(set) var outline: EditorOutline!
    private var isLoading = false
    /// Set by the buffer's undo/redo signals; the next change is of that kind.
    private var pendingKind: DocumentChangeKind?

    /// The user changed the text (not a load).
    var onChange: ((DocumentChangeKind) -> Void)?
    /// Where the shown note is now (nil: none). Asked each time, since a move of every note
    /// changes it while the note stays open: pictures and links are read against it.
    var noteLocation: (() -> NoteLocation?)?

    init(dark: Bool = false) {
        textView = SourceView(buffer: buffer)
        // Every edit keeps the note's line breaks: no "\r" comes in, none meets a "\n" (first,
        // so the find bar's and the highlighter's handlers see only the edits made).
        buffer.rewriteEdits { buffer, range, text in
            LineBreaks.guarded(LineBreaks.Edit(range: range, text: text), character: buffer.character(at:)).map { ($0.range, $0.text) }
        }
        highlighter = MarkdownHighlighter(buffer: buffer, dark: dark)
        findBar = FindBar(buffer: buffer, textView: textView)
        readableWidth = ReadableWidth(textView: textView, scroller: scroller)
        EditorView.loadStyleSchemes()
        textView.setTextMargins(horizontal: ReadableWidth.minimumMargin, vertical: 18)
        textView.setPixelsBetweenLines(above: 0, below: 2)
        textView.addCSSClass("editor")
        textView.accessibleLabel = tr("Note text")
        textView.vexpand = true
        textView.hexpand = true
        super.init()
        root.owner = self
        setDark(dark)
        keys = MarkdownKeys(textView: textView, buffer: buffer)
        tasks = TaskBoxes(textView: textView, buffer: buffer, scroller: scroller)
        links = EditorLinks(textView: textView, buffer: buffer)
        attachments = AttachmentInserter(editor: self)
        paste = EditorPaste(editor: self, attachments: attachments)
        links.noteLocation = { [weak self] in self?.noteLocation?() }
        links.goToHeading = { [weak self] fragment in self?.goToHeading(fragment) ?? false }
        noteLinks = EditorNoteLinks(textView: textView, buffer: buffer, links: links, dark: dark)
        noteLinks.visibleLines = { [weak self] in self?.visibleLines ?? 0...80 }
        noteLinks.enteringState = { [weak self] line in self?.highlighter.state(enteringLine: line) ?? .outside }
        completion = LinkCompletion(textView: textView, buffer: buffer)
        completion.isEditable = { [weak self] in self?.isEditable ?? false }
        buffer.onCursorMoved { [weak self] _ in
            guard let self, !self.isLoading else { return }
            self.completion.update()
        }
        // After the highlighter, whose block states the marks read as edits come in.
        spelling = EditorSpelling(textView: textView, buffer: buffer, marks: SpellingMarks(buffer: buffer, dark: dark))
        spelling.noteLocation = { [weak self] in self?.noteLocation?() }
        spelling.onError = { [weak self] error in self?.presentError(error) { _ in } }
        spelling.marks.visibleLines = { [weak self] in self?.visibleLines ?? 0...80 }
        spelling.marks.linesThatFit = { [weak self] in self?.linesThatFit ?? 0...80 }
        spelling.marks.enteringState = { [weak self] line in self?.highlighter.state(enteringLine: line) ?? .outside }
        // The context menu's own items: spelling, then links (after GTK's Cut, Copy, Paste…).
        let extraMenu = Menu()
        for section in spelling.menuSections + [links.menu] { extraMenu.appendSection(section) }
        textView.setExtraMenu(extraMenu)
        pictures = InlinePictures(textView: textView, buffer: buffer, scroller: scroller)
        pictures.noteLocation = { [weak self] in self?.noteLocation?() }
        highlighter.onRestyled = { [weak self] lines in
            self?.tasks.textChanged(lines)
            self?.spelling.marks.restyled()
        }
        highlighter.visibleLines = { [weak self] in self?.visibleLines ?? 0...80 }
        scroller.onScrolled { [weak self] _ in self?.viewMoved() }
        scroller.onWidthChanged { [weak self] _ in self?.viewMoved() }
        tasks.toggle = { [weak self] line in self?.keys.toggleTask(atLine: line) }
        tasks.visibleLines = { [weak self] in self?.visibleLines ?? 0...0 }

        bannerLabel.wraps = true
        bannerLabel.xalign = 0
        bannerLabel.hexpand = true
        banner.addCSSClass("read-only-banner")
        banner.append(bannerLabel)
        banner.append(bannerButton)
        banner.isVisible = false
        bannerButton.onClicked { [weak self] _ in self?.bannerAction?() }

        scroller.scrollVerticallyOnly()
        scroller.child = textView
        scroller.vexpand = true

        counts = NoteCounts(buffer: buffer)
        vim = EditorVim(textView: textView)
        keys.standsAside = { [weak self] in self?.vim.takesCommands ?? false }
        outline = EditorOutline(textView: textView, buffer: buffer)
        let footer = Box(.horizontal)
        footer.append(outline.root)
        footer.append(vim.root)
        footer.append(counts.root)
        let page = Box(.vertical)
        page.append(banner)
        page.append(findBar.root)
        page.append(scroller)
        page.append(footer)

        let placeholder = Label(tr("Select a note, or press Ctrl+N to write a new one"))
        placeholder.addCSSClass("empty-state")
        placeholder.wraps = true

        root.add(page, name: "editor")
        root.add(placeholder, name: "placeholder")
        root.visibleChildName = "placeholder"
        root.hexpand = true

        // Typing into a read-only note is an error the user should hear about, inline.
        let keys = KeyController()
        keys.onKeyPressed { [weak self] _, _, modifiers in
            guard let self, !self.textView.isEditable, self.isShowingNote, modifiers & Key.controlMask == 0 else { return false }
            self.presentError(DocumentError.readOnly(note: NoteText.title(of: self.leadingText))) { _ in }
            return false
        }
        textView.addController(keys)
        buffer.onUndo { [weak self] _ in self?.pendingKind = .undone }
        buffer.onRedo { [weak self] _ in self?.pendingKind = .redone }
        buffer.onChanged { [weak self] _ in
            guard let self, !self.isLoading else { return }
            let kind = self.pendingKind ?? .done
            self.pendingKind = nil
            self.onChange?(kind)
            self.completion.update()
            self.noteLinks.needsMarking()
        }
    }

    /// The whole text (a copy: read it when saving, not per keystroke).
    var text: String { buffer.text }

    /// The beginning of the text, enough for a title and a preview.
    var leadingText: String { buffer.leadingText(4096) }

    /// Shows a note's text; loading is not an edit and cannot be undone. Returns false when
    /// the editor could not take the text exactly (the note must then never be saved from it).
    @discardableResult
    func show(text: String, editable: Bool) -> Bool {
        shownNoteSerial += 1
        quietly { buffer.load(text) }
        highlighter.restyleAll(text: text, fresh: true)
        spelling.noteShown()
        spelling.marks.recheckAll()
        findBar.textReplaced()
        completion.hide()
        noteLinks.needsMarking(after: 0)
        isEditable = editable
        root.visibleChildName = "editor"
        counts.noteShown()
        outline.noteShown()
        return buffer.holdsExactly(text)
    }

    /// The lines on screen. Lines GTK has not laid out yet have no height, so right after a long
    /// text is loaded the range could reach far down: no more than fit at the smallest size.
    var visibleLines: ClosedRange<Int> {
        guard textView.isMapped else { return 0...80 }
        let visible = textView.visibleLines
        return visible.lowerBound...min(visible.upperBound, visible.lowerBound + fittingLineCount)
    }

    /// Right after a load, before GTK has laid the new text out (it then places every line at
    /// the top): the lines from the top one that fit at the smallest size.
    var linesThatFit: ClosedRange<Int> {
        guard textView.isMapped else { return 0...80 }
        let top = textView.visibleLines.lowerBound
        return top...top + fittingLineCount
    }

    private var fittingLineCount: Int { textView.visibleRectangle.height / TaskBoxes.smallestLineHeight + 2 }

    /// Light or dark: the Markdown tags' colours and GtkSourceView's scheme (find matches).
    func setDark(_ dark: Bool) {
        highlighter.setDark(dark)
        spelling?.marks.setDark(dark)
        noteLinks?.setDark(dark)
        if !buffer.setStyleScheme(MarkdownTheme.schemeID(dark: dark)) {
            buffer.setStyleScheme(MarkdownTheme.fallbackSchemeID(dark: dark))
        }
    }

    /// Spelling as Preferences say: on or off, the default language, acronyms skipped or not.
    func configureSpelling(_ preferences: Preferences) {
        spelling.configure(enabled: preferences.checkSpelling ?? true, defaultLanguage: preferences.spellingLanguage,
                           skipAllCaps: preferences.spellingSkipsAllCaps ?? true)
    }

    /// Centre the text at a comfortable line length on wide windows (Preferences).
    var usesReadableWidth: Bool {
        get { readableWidth.isOn }
        set { readableWidth.isOn = newValue }
    }

    /// Vim's keys in the text (Preferences).
    var usesVimKeys: Bool {
        get { vim.isOn }
        set { vim.isOn = newValue }
    }

    /// The text's size in percent (`EditorZoom` sets the font for every editor; the readable
    /// width follows here).
    var zoomPercent: Int = EditorZoom.normal {
        didSet { readableWidth.scale = Double(zoomPercent) / 100 }
    }

    /// Our style schemes: installed beside the binary's share folder, in the XDG data folders,
    /// or — running from a build folder — in the source tree's data/ (found upwards).
    private static var schemesLoaded = false
    private static func loadStyleSchemes() {
        guard !schemesLoaded else { return }
        schemesLoaded = true
        if let folder = DataFiles.folder(containing: "styles/notula-light.xml") {
            GtkSourceRuntime.addStyleFolder(folder.appendingPathComponent("styles").path)
        }
    }

    /// Replaces the text from disk (a reload), keeping the cursor and the scroll position.
    func replaceText(_ text: String) {
        let old = buffer.text
        let diff = LineDiff(old: old, new: text)
        if !diff.matches.isEmpty {
            // Only the lines that changed: the cursor and the view stay where they are.
            quietly { buffer.replaceLines(diff.hunks.map { (lines: $0.oldLines, text: $0.newText) }) }
            // GTK also ends lines at a lone "\r" or U+2029, where the diff does not: check.
            if buffer.text == text {
                highlighter.restyleAll(text: text, fresh: false)
                spelling.marks.recheckAll()
                noteLinks.needsMarking(after: 0)
                return
            }
        }
        let cursor = buffer.cursorOffset
        let top = textView.topVisibleOffset
        quietly { buffer.load(text) }
        // Nothing in common: follow the cursor's line, not its offset, as far as that goes.
        buffer.cursorOffset = LineDiff.mapOffset(cursor, from: old, to: text)
        textView.scrollToTop(ofOffset: LineDiff.mapOffset(top, from: old, to: text))
        highlighter.restyleAll(text: text, fresh: true)
        spelling.marks.recheckAll()
        noteLinks.needsMarking(after: 0)
    }

    /// Replaces the text as the user's own edit (restoring a version): only the lines that
    /// differ change, as one step Ctrl+Z takes back.
    func replaceTextAsEdit(_ text: String) {
        let old = buffer.text
        // GTK also ends lines at "\r", U+2028 and U+2029, where the diff does not: then the whole text.
        if (old + text).unicodeScalars.contains(where: { $0 == "\r" || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return buffer.replace(0..<buffer.characterCount, with: text)
        }
        buffer.replaceLines(LineDiff(old: old, new: text).hunks.map { (lines: $0.oldLines, text: $0.newText) }, undoable: true)
    }

    var isEditable: Bool {
        get { textView.isEditable }
        set {
            textView.isEditable = newValue
            tasks.scheduleLayout(force: true)  // a read-only note's task boxes cannot be clicked
        }
    }

    // MARK: Responder

    override var nextResponder: Responder? { root.ancestorOwner as? Responder }

    /// "This note is read-only" is said here, in the banner, not in a dialog.
    override func willPresentError(_ error: Error) -> Error? {
        let underlying = (error as? OperationError)?.underlying ?? error
        guard case DocumentError.readOnly = underlying else { return error }
        if bannerText == nil {
            let why = ErrorTranslator.explain(underlying, action: nil, note: nil).recoverySuggestion
            // TRANSLATORS: %s says why and what to do (one or more sentences).
            setBanner(tr("This note is read-only: %s", why))
        }
        banner.addCSSClass("flash")
        let banner = self.banner
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.6) { banner.removeCSSClass("flash") }
        return nil
    }

    /// A message above the text, with an optional button; nil hides it.
    func setBanner(_ message: String?, action: (label: String, run: () -> Void)? = nil) {
        bannerLabel.text = message ?? ""
        banner.isVisible = message != nil
        bannerAction = action?.run
        bannerButton.label = action?.label ?? ""
        bannerButton.isVisible = action != nil
    }

    var bannerText: String? { banner.isVisible ? bannerLabel.text : nil }

    func showPlaceholder() {
        shownNoteSerial += 1
        quietly { buffer.load("") }
        spelling.marks.recheckAll()
        findBar.close()
        completion.hide()
        setBanner(nil)
        root.visibleChildName = "placeholder"
    }

    var isShowingNote: Bool { root.visibleChildName == "editor" }
    var scrollOffset: Double {
        get { scroller.verticalOffset }
        set { scroller.verticalOffset = newValue }
    }

    /// How far the text can scroll (tests wait for layout with it).
    var scrollUpperBoundForTesting: Double { scroller.verticalUpperBound }

    func focusText() { textView.grabFocus() }

    /// Puts the cursor at character `offset` (clamped to the text), scrolled into view, and the
    /// keyboard in the text.
    /// Puts the cursor at the heading a link's `#fragment` names, at the top of the view;
    /// false when the note has no such heading (the cursor stays).
    @discardableResult
    func goToHeading(_ fragment: String) -> Bool {
        guard let heading = NoteOutline(text: buffer.text).heading(named: fragment), heading.line < buffer.lineCount else { return false }
        outline.goTo(line: heading.line)
        focusText()
        return true
    }

    func placeCursor(at offset: Int) {
        buffer.cursorOffset = min(max(offset, 0), buffer.characterCount)
        textView.scrollToCursor()
        focusText()
    }

    /// Markdown and spelling follow what is on screen.
    private func viewMoved() {
        highlighter.viewMoved()
        spelling.marks.viewMoved()
    }

    private func quietly(_ body: () -> Void) {
        isLoading = true
        highlighter.isSuspended = true
        spelling?.marks.isSuspended = true
        body()
        highlighter.isSuspended = false
        spelling?.marks.isSuspended = false
        isLoading = false
        pendingKind = nil
    }
}
