import Foundation

/// What the notes list knows of one note without opening it.
public struct NoteSummary: Equatable, Sendable {
    /// Stable identity: the file's path inside the library ("note.md", "Work/note.md"); the
    /// file name is generated once and never renamed, the folder changes only when the user
    /// moves the note to another notebook.
    public let id: String
    /// The notebook (folder) the note is in, relative to the library; "" for the top.
    public var notebook: String { (id as NSString).deletingLastPathComponent }
    /// The library folder: one URL shared by every note (a URL per note cost memory and
    /// time with 100,000 notes); `url` is made when asked for.
    private let library: URL
    public var url: URL { library.appendingPathComponent(id) }
    public var title: String
    public var preview: String
    public var modified: Date
    /// When the note was made: the date in a Notula note's file name, else (a file from
    /// another program) its modification time. For sorting by creation.
    public var created: Date
    /// False when the file is not valid UTF-8: it opens read-only and is never rewritten.
    /// (Also false for a file that could not be read at all: `unreadableReason` says why.)
    public var isValidText: Bool
    /// `indexRow`, 0 for none. Four bytes here fill the padding after `isValidText`.
    private var storedIndexRow: Int32 = 0
    /// What few notes have (a reason, a size, conflict copies), in one reference: 100,000
    /// summaries are 88 bytes each, not 112 (issue #46).
    private var rare: Rare?

    private final class Rare: Sendable {
        let unreadableReason: String?
        let mightBeLarge: Bool
        let conflictCopies: [String]

        init(unreadableReason: String?, mightBeLarge: Bool, conflictCopies: [String]) {
            (self.unreadableReason, self.mightBeLarge, self.conflictCopies) = (unreadableReason, mightBeLarge, conflictCopies)
        }
    }

    /// A note with none of the rare things has no `Rare`.
    private mutating func setRare(unreadableReason: String?, mightBeLarge: Bool, conflictCopies: [String]) {
        rare = unreadableReason == nil && !mightBeLarge && conflictCopies.isEmpty
            ? nil : Rare(unreadableReason: unreadableReason, mightBeLarge: mightBeLarge, conflictCopies: conflictCopies)
    }

    /// Why the file cannot be read (no permission), or nil: the list shows it greyed, with
    /// the reason, instead of leaving it out without a word.
    public var unreadableReason: String? {
        get { rare?.unreadableReason }
        set { setRare(unreadableReason: newValue, mightBeLarge: mightBeLarge, conflictCopies: conflictCopies) }
    }
    /// The note may be too large to open unasked (`LargeNote`): the list never opens it by
    /// itself at start.
    public var mightBeLarge: Bool {
        get { rare?.mightBeLarge ?? false }
        set { setRare(unreadableReason: unreadableReason, mightBeLarge: newValue, conflictCopies: conflictCopies) }
    }
    /// Conflict copies a sync client left beside this note (file names): the note is in conflict.
    public var conflictCopies: [String] {
        get { rare?.conflictCopies ?? [] }
        set { setRare(unreadableReason: unreadableReason, mightBeLarge: mightBeLarge, conflictCopies: newValue) }
    }
    /// The note's row in the library index (what a search's `IndexRows` name), or nil before
    /// the index has it (or past 2³¹ rows, which a search then does not find). Not part of what
    /// a summary says: left out of `==`.
    public var indexRow: Int64? {
        get { storedIndexRow == 0 ? nil : Int64(storedIndexRow) }
        set { storedIndexRow = newValue.flatMap { Int32(exactly: $0) } ?? 0 }
    }

    /// What the list says under the title: why the file cannot be read, else that it is not
    /// UTF-8 text (in the language shown now), else the preview. An unreadable file was never
    /// read, so it is not called "not UTF-8".
    public var shownPreview: String {
        if let unreadableReason { return unreadableReason }
        return isValidText ? preview : NoteLibrary.notUTF8Preview
    }

    public static func == (a: NoteSummary, b: NoteSummary) -> Bool {
        a.id == b.id && a.library == b.library && a.title == b.title && a.preview == b.preview && a.modified == b.modified
            && a.created == b.created && a.isValidText == b.isValidText && a.unreadableReason == b.unreadableReason
            && a.mightBeLarge == b.mightBeLarge && a.conflictCopies == b.conflictCopies
    }

    public init(id: String, url: URL, title: String, preview: String, modified: Date, created: Date? = nil, isValidText: Bool) {
        var library = url
        for _ in id.split(separator: "/") { library.deleteLastPathComponent() }
        self.init(id: id, library: library, title: title, preview: preview, modified: modified, created: created, isValidText: isValidText)
    }

    /// A note of the library folder `library` (its file is `library/id`).
    public init(id: String, library: URL, title: String, preview: String, modified: Date, created: Date? = nil, isValidText: Bool) {
        self.id = id
        self.library = library
        self.title = title
        self.preview = preview
        self.modified = modified
        self.created = created ?? modified
        self.isValidText = isValidText
    }

    /// Newest first; ties by title, then id, so the order is stable.
    public static func newestFirst(_ a: NoteSummary, _ b: NoteSummary) -> Bool {
        if a.modified != b.modified { return a.modified > b.modified }
        if a.title != b.title { return a.title.localizedStandardCompare(b.title) == .orderedAscending }
        return a.id < b.id
    }
}
