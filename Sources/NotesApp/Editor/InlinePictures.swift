import Dispatch
import Foundation
import Gtk
import NotesCore

/// Shows the picture of each picture line (a line holding only `![alt](address)`) below that
/// line, without changing the text: a text tag gives the line `pixels-below-lines` as tall as
/// the picture, and a GtkPicture laid over the text view sits in that space. Only pictures
/// within about a screen of the view are decoded and have widgets; farther ones keep their
/// space (their size is remembered) and let go of their pixels, which a bounded cache may
/// keep. Edits are followed line by line: only the lines an edit touched are read again.
final class InlinePictures {
    /// One picture line.
    final class Entry {
        var line: Int
        let picture: PictureLine
        /// The file the resolver accepted (nil: refused or not resolved yet).
        var file: URL?
        var texture: Texture?
        /// The width `texture` was decoded to fit (the column then, in device pixels).
        var textureFitWidth = 0
        var problem: PictureProblem?
        var isDecoding = false
        /// The picture widget or the placeholder, while near the view.
        var widget: Widget?
        var placeholder: PicturePlaceholder?
        var frame: (x: Int, y: Int, width: Int, height: Int)?
        /// The height reserved below the line (0: none yet), and the tag giving it.
        var reserved = 0

        init(line: Int, picture: PictureLine) {
            self.line = line
            self.picture = picture
        }

        var spokenName: String { picture.alt.isEmpty ? picture.fileName : picture.alt }
    }

    let textView: TextView
    let buffer: TextBuffer
    let cache: PictureCache
    private let decoder = PictureDecoder()
    /// Picture lines, in line order.
    /// (Set by InlinePictures+Lines as the text changes.)
    var entries: [Entry] = []
    var knownLineCount = 1
    /// Pictures' own sizes by path, so space is kept right before (and after) they are decoded.
    private var naturalSizes: [String: (width: Int, height: Int)] = [:]
    private(set) var definedTags: Set<String> = []
    private var isScheduled = false
    /// Where the shown note is (its library and folder: addresses are read against it).
    var noteLocation: () -> NoteLocation? = { nil }
    /// Called once the pictures near the view are all shown or placeheld (benchmarks, tests).
    var onSettled: (() -> Void)?
    /// Hands a file's address to the desktop's viewer (tests keep the desktop's applications closed).
    var showOnDesktop: ((String) -> Void)?
    /// Shows a folder in the file manager (tests keep it closed).
    var showFolder: ((URL) -> Void)?
    /// Every address handed to the desktop and every folder shown, in order (tests read them;
    /// set by InlinePictures+Clicks).
    var opened: [String] = []
    var shownFolders: [URL] = []
    /// Where the files were resolved against: when the note's place changes (every note moved
    /// to another folder while it stays open), what was resolved is read again.
    private var resolvedAt: NoteLocation?

    static let gap = 6
    static let pendingHeight = 24

    init(textView: TextView, buffer: TextBuffer, scroller: ScrolledWindow, cacheBytes: Int = 64 * 1024 * 1024) {
        self.textView = textView
        self.buffer = buffer
        cache = PictureCache(capacityBytes: cacheBytes)
        knownLineCount = buffer.lineCount
        buffer.onInserted { [weak self] _, offset, _ in self?.textInserted(at: offset) }
        buffer.onDeleted { [weak self] _, offset in self?.textDeleted(at: offset) }
        scroller.onScrolled { [weak self] _ in self?.scheduleLayout() }
        scroller.onWidthChanged { [weak self] _ in self?.scheduleLayout() }
        textView.onMap { [weak self] _ in self?.scheduleLayout() }
        installClicks()
    }

    // MARK: Space below the line

    /// The width of the text column.
    private var columnWidth: Int {
        max(textView.visibleRectangle.width - textView.leftMargin - textView.rightMargin, 48)
    }

    /// The size a picture of `natural` size is shown at: the column's width at most, never larger.
    private func shownSize(_ natural: (width: Int, height: Int)) -> (width: Int, height: Int) {
        let width = min(natural.width, columnWidth)
        return (max(width, 1), max(1, Int((Double(natural.height) * Double(width) / Double(max(natural.width, 1))).rounded())))
    }

    func tag(_ entry: Entry, height: Int, force: Bool = false) {
        guard force || entry.reserved != height else { return }
        let range = lineRange(entry.line)
        for name in definedTags { buffer.removeTag(name, from: range) }
        entry.reserved = height
        let name = "picture-space-\(height)"
        if !definedTags.contains(name) {
            buffer.defineTag(name, style: TextTagStyle(pixelsBelow: height + 2 * Self.gap))
            definedTags.insert(name)
        }
        buffer.applyTag(name, to: buffer.lineTagRange(entry.line))
    }

    func lineRange(_ line: Int) -> Range<Int> {
        let start = buffer.startOffset(ofLine: line)
        return start..<(line + 1 < buffer.lineCount ? buffer.startOffset(ofLine: line + 1) : buffer.characterCount)
    }

    /// The height to keep for an entry now.
    private func wantedHeight(_ entry: Entry) -> Int {
        if entry.problem != nil { return PicturePlaceholder.height }
        if let file = entry.file, let natural = naturalSizes[file.path] { return shownSize(natural).height }
        return Self.pendingHeight
    }

    // MARK: Layout

    func scheduleLayout() {
        guard !isScheduled else { return }
        isScheduled = true
        DispatchQueue.main.async { [weak self] in
            guard let self else { return }
            self.isScheduled = false
            self.layout()
        }
    }

    /// Whether every picture near the view is shown or says why not, and nothing waits.
    var isSettled: Bool {
        !isScheduled && !isMeasuring && !decoder.isBusy && entries.allSatisfy { $0.widget == nil || isReady($0) }
    }

    /// Lines near the view were not laid out yet: look again shortly (GTK lays out the rest of
    /// the text in idle steps), until they are.
    private func waitForMeasuring(_ unmeasured: Bool) {
        guard unmeasured != isMeasuring else { return }
        isMeasuring = unmeasured
        guard unmeasured else { return }
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) { [weak self] in
            guard let self, self.isMeasuring else { return }
            self.isMeasuring = false
            self.layout()
        }
    }

    private var isMeasuring = false

    /// The pictures with widgets now (tests count them).
    var shownEntries: [Entry] { entries.filter { $0.widget != nil } }

    private var lastColumnWidth = 0

    func layout() {
        guard textView.isMapped, !entries.isEmpty else { return }
        let location = noteLocation()
        if let location, location != resolvedAt {
            if resolvedAt != nil { forgetResolved() }
            resolvedAt = location
        }
        let column = columnWidth
        if column != lastColumnWidth {
            lastColumnWidth = column
            for entry in entries where entry.reserved > 0 { tag(entry, height: wantedHeight(entry)) }
        }
        let visible = textView.visibleRectangle
        let near = textView.line(atBufferY: visible.y - visible.height)...textView.line(atBufferY: visible.y + 2 * visible.height)
        let first = firstEntry(atOrAfter: near.lowerBound)
        var index = first
        var nearEntries: [Entry] = []
        var unmeasured = false
        while index < entries.count, entries[index].line <= near.upperBound {
            // A line GTK has not laid out yet has no height, so every line after it seems near
            // (a long note just shown, a jump far down on a busy machine): it waits until measured.
            if textView.verticalRange(ofLine: entries[index].line).height == 0 {
                unmeasured = true
            } else {
                nearEntries.append(entries[index])
            }
            index += 1
        }
        waitForMeasuring(unmeasured)
        let nearIDs = Set(nearEntries.map(ObjectIdentifier.init))
        for entry in entries where entry.widget != nil && !nearIDs.contains(ObjectIdentifier(entry)) { release(entry, forget: false) }
        for entry in nearEntries {
            if entry.file == nil, entry.problem == nil, let location { resolve(entry, in: location) }
            if !isReady(entry), entry.problem == nil, let file = entry.file,
               let texture = cache.texture(for: PictureCache.Key(path: file.path, fitWidth: fitWidth)) {
                entry.texture = texture
                entry.textureFitWidth = fitWidth
            }
            tag(entry, height: wantedHeight(entry))
            place(entry, drawn: visible)
        }
        decodeNext(among: nearEntries, visible: visible)
    }

    private func resolve(_ entry: Entry, in location: NoteLocation) {
        switch LibraryLinkResolver(library: location.library).resolve(entry.picture.address, from: location) {
        case .success(.file(let url)): entry.file = url
        case .success(.note): entry.problem = .notAPicture(entry.picture.fileName)
        case .failure: entry.problem = .refused(entry.picture.fileName)
        }
    }

    /// The width pictures are decoded to fit: the column in device pixels, exactly, so a
    /// picture is drawn unscaled (GTK 4.8's cairo renderer would otherwise filter every
    /// picture on screen down to its size on every frame). After a resize the old pixels are
    /// shown, scaled, until the new ones are decoded.
    private var fitWidth: Int { lastColumnWidth * max(textView.scaleFactor, 1) }

    /// Whether the entry shows what it should: its placeholder, or pixels decoded for this column.
    private func isReady(_ entry: Entry) -> Bool {
        entry.problem != nil || (entry.texture != nil && entry.textureFitWidth == fitWidth)
    }

    private func decodeNext(among near: [Entry], visible: TextView.Rectangle) {
        guard !decoder.isBusy else { return }
        let middle = visible.y + visible.height / 2
        let waiting = near.filter { !isReady($0) && $0.file != nil }
        guard let next = waiting.min(by: { abs(($0.frame?.y ?? 0) - middle) < abs(($1.frame?.y ?? 0) - middle) }), let file = next.file else {
            if near.allSatisfy(isReady) { settled() }
            return
        }
        let width = fitWidth
        next.isDecoding = true
        decoder.decode(file, name: next.picture.fileName, fitWidth: width) { [weak self, weak next] outcome in
            guard let self else { return }
            next?.isDecoding = false
            let key = PictureCache.Key(path: file.path, fitWidth: width)
            switch outcome {
            case .decoded(let image):
                let texture = Texture(image)
                self.naturalSizes[file.path] = (image.naturalWidth, image.naturalHeight)
                self.cache.insert(texture, for: key)
                // Every line showing this file (the same picture twice) takes it while near.
                for entry in self.entries where entry.file == file && entry.widget != nil {
                    entry.texture = texture
                    entry.textureFitWidth = width
                }
            case .failed(let problem):
                for entry in self.entries where entry.file == file { entry.problem = problem }
            }
            self.layout()
        }
    }

    /// For `make bench` (scripts/bench_pictures.py): with NOTULA_REPORT_PICTURES set, each time
    /// the pictures near the view are all shown, once the frame showing them is painted:
    /// `notula-pictures-painted <monotonic seconds> <pictures shown> <cached bytes>`.
    private static let reports = ProcessInfo.processInfo.environment["NOTULA_REPORT_PICTURES"] != nil
    private var reportedShown: Set<ObjectIdentifier> = []

    private func settled() {
        onSettled?()
        guard Self.reports else { return }
        let shown = Set(entries.filter { $0.texture != nil }.map(ObjectIdentifier.init))
        guard !shown.isEmpty, shown != reportedShown else { return }
        reportedShown = shown
        let cached = cache.byteCount
        textView.onNextFramePainted {
            BenchmarkOutput.line("notula-pictures-painted \(MonotonicClock.now()) \(shown.count) \(cached)")
        }
    }

    /// Shows the entry's widget in the space below its line. Only a picture within a quarter of a
    /// screen of the `drawn` rectangle holds its pixels: GTK draws every overlay, on screen or
    /// not, and GTK 4.8's cairo renderer copies each texture it draws on every frame.
    private func place(_ entry: Entry, drawn visible: TextView.Rectangle) {
        // Under the line's last row of text (the line's own height may not count the space
        // just reserved until GTK lays it out again).
        let lastRow = textView.rectangle(atOffset: max(lineRange(entry.line).upperBound - 1, buffer.startOffset(ofLine: entry.line)))
        let height = entry.reserved
        let width: Int
        if entry.problem != nil {
            width = min(columnWidth, 520)
        } else if let file = entry.file, let natural = naturalSizes[file.path] {
            width = shownSize(natural).width
        } else {
            width = min(columnWidth, 160)
        }
        let frame = (x: textView.leftMargin, y: lastRow.y + lastRow.height + Self.gap, width: width, height: height)
        let margin = visible.height / 4
        let isDrawn = frame.y + frame.height >= visible.y - margin && frame.y <= visible.y + visible.height + margin
        let widget = widget(for: entry, isDrawn: isDrawn)
        widget.setSizeRequest(width: frame.width, height: frame.height)
        if entry.frame.map({ $0 != frame }) ?? true { textView.moveOverlay(widget, x: frame.x, y: frame.y) }
        entry.frame = frame
    }

    /// Widgets laid over the text stay there, hidden, for the next picture near the view
    /// (as the task boxes do): as many exist as were ever near the view at once.
    private var sparePictures: [Picture] = []
    private var sparePlaceholders: [PicturePlaceholder] = []

    private func widget(for entry: Entry, isDrawn: Bool) -> Widget {
        if let problem = entry.problem {
            if entry.placeholder == nil {
                if entry.widget != nil { release(entry, forget: false) }
                let placeholder = sparePlaceholders.popLast() ?? makePlaceholder()
                placeholder.root.isVisible = true
                entry.placeholder = placeholder
                entry.widget = placeholder.root
                entry.frame = nil
            }
            entry.placeholder!.message = problem.message
            return entry.placeholder!.root
        }
        let picture: Picture
        if let existing = entry.widget as? Picture {
            picture = existing
        } else {
            picture = sparePictures.popLast() ?? makePicture()
            picture.isVisible = true
            picture.alternativeText = entry.spokenName
            picture.tooltip = entry.picture.title ?? entry.spokenName
            entry.widget = picture
            entry.frame = nil
        }
        let shown = isDrawn ? entry.texture : nil
        if picture.texture !== shown { picture.texture = shown }
        return picture
    }

    private func makePicture() -> Picture {
        let picture = Picture()
        picture.addCSSClass("inline-picture")
        // Presses are taken by the text view: see installClicks.
        picture.canTarget = false
        textView.addOverlay(picture, x: 0, y: 0)
        return picture
    }

    private func makePlaceholder() -> PicturePlaceholder {
        let placeholder = PicturePlaceholder()
        placeholder.root.canTarget = false
        textView.addOverlay(placeholder.root, x: 0, y: 0)
        return placeholder
    }

    /// Hides the entry's widget (kept for another picture) and lets go of its pixels (the
    /// cache may keep them); `forget`: the line is gone, so is the space kept for it.
    func release(_ entry: Entry, forget: Bool) {
        if let placeholder = entry.placeholder {
            placeholder.root.isVisible = false
            sparePlaceholders.append(placeholder)
        } else if let picture = entry.widget as? Picture {
            picture.texture = nil
            picture.isVisible = false
            sparePictures.append(picture)
        }
        entry.widget = nil
        entry.placeholder = nil
        entry.texture = nil
        entry.frame = nil
        if forget { entry.reserved = 0 }
    }

    /// The shown note, or its place, may have changed (another note, a move of every note):
    /// the next layout compares the note's location with the one files were resolved against.
    func noteChanged() {
        scheduleLayout()
    }

    /// Forgets what was resolved against the note's old place (the cache is keyed by file path).
    private func forgetResolved() {
        for entry in entries {
            release(entry, forget: false)
            entry.file = nil
            entry.problem = nil
        }
    }
}
