import Foundation

/// A quick note (issue #48): text jotted down from anywhere — `notula --quick-note "milk"`,
/// `… --quick-note -` (standard input) or the small Quick Note window — filed as a new note at
/// the top of the library, through the same exclusive create as New Note (another program's
/// file of the same name is never replaced). Text from outside is bounded and checked: UTF-8
/// without NUL bytes, no larger than the editor opens a note; blank text makes no note.
public enum QuickNote {
    /// Why text given from outside is not filed.
    public enum Refusal: Error, Equatable {
        case blank
        case notText
        case tooLarge(bytes: Int)

        public var message: String {
            switch self {
            // TRANSLATORS: `notula --quick-note TEXT` refused: the text was empty or only spaces.
            case .blank: return tr("There is no text to keep: no note was made.")
            // TRANSLATORS: `notula --quick-note` refused bytes that are not UTF-8 text.
            case .notText: return tr("The text is not valid UTF-8 text (or holds NUL bytes): no note was made.")
            // TRANSLATORS: %s is a size such as "4 MB".
            case .tooLarge: return tr("The text is larger than %s, the most a note may hold: no note was made.", "\(LargeNote.maximumBytes / 1_048_576) MB")
            }
        }
    }

    /// The text of the command line's arguments after the options (`bytes`, each as given),
    /// joined by spaces; "-" alone stands for `standardInput`, read up to one byte past the
    /// limit. Nil when none was given (the window is wanted).
    public static func text(fromArguments arguments: [[UInt8]], standardInput: (Int) -> [UInt8]) throws -> String? {
        guard !arguments.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for (index, argument) in arguments.enumerated() {
            if index > 0 { bytes.append(0x20) }
            bytes += argument == [0x2D] ? standardInput(LargeNote.maximumBytes + 1) : argument
            if bytes.count > LargeNote.maximumBytes { throw Refusal.tooLarge(bytes: bytes.count) }
        }
        return try text(from: bytes)
    }

    /// Bytes from outside as a note's text, or why not.
    public static func text(from bytes: [UInt8]) throws -> String {
        guard bytes.count <= LargeNote.maximumBytes else { throw Refusal.tooLarge(bytes: bytes.count) }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { throw Refusal.notText }
        guard !isBlank(text) else { throw Refusal.blank }
        return text.hasSuffix("\n") ? text : text + "\n"  // a line, as a text file's last one is
    }

    /// Nothing but spaces and line breaks: no note is made of it.
    public static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { CharacterSet.whitespacesAndNewlines.contains($0) }
    }

    /// Files `text` as a new note at the top of `library`; the folder is made when missing
    /// only if `createIfMissing` (a local library, never a synced one).
    public static func file(_ text: String, in library: NoteLibrary, createIfMissing: Bool, now: Date = Date()) throws -> NoteSummary {
        if isBlank(text) { throw Refusal.blank }
        return try library.createNote(in: "", contents: Data(text.utf8), now: now, createIfMissing: createIfMissing)
    }
}
