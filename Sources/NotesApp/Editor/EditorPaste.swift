import Foundation
import Gtk
import NotesCore

/// Every paste into the editor (Ctrl+V, Shift+Insert, the context menu's Paste) goes through
/// here instead of GTK's own, which converts whatever bytes the clipboard's owner sends into
/// text: when the owner changed a moment before, GDK still lists the previous owner's formats,
/// asks the new one for text, and a picture's bytes would land in the note. The bytes are read
/// raw and judged by themselves (`PastedBytes`): text goes in as text, a picture becomes an
/// attachment (`AttachmentInserter`), and anything else is refused with a notice.
final class EditorPaste {
    private weak var editor: EditorView?
    private let attachments: AttachmentInserter

    init(editor: EditorView, attachments: AttachmentInserter) {
        self.editor = editor
        self.attachments = attachments
        editor.textView.interceptPaste { [weak self] _ in self?.paste() ?? false }
    }

    /// True: taken here (GTK does not paste).
    private func paste() -> Bool {
        guard let editor, editor.isShowingNote, editor.isEditable else { return false }
        let offer = editor.textView.clipboardOffer
        // Where it goes, kept while the clipboard answers: keys typed meanwhile go after it.
        let place = editor.textView.markPastePlace()
        let takesAttachments = editor.noteLocation?() != nil
        if offer.files, takesAttachments {
            editor.textView.readClipboardFiles { [weak self] paths, _ in
                // Not local files (web addresses on the clipboard): paste them as text.
                guard let paths, !paths.isEmpty else { self?.pasteText(at: place, triedPicture: false); return }
                self?.addAttachments(paths.map { .file(URL(fileURLWithPath: $0)) }, at: place)
            }
        } else if offer.image, !offer.text, takesAttachments {
            pastePicture(at: place, orText: true)
        } else {
            pasteText(at: place, triedPicture: !takesAttachments)
        }
        return true
    }

    /// Pictures and files go in through the inserter, at the paste's place as it is now.
    private func addAttachments(_ sources: [AttachmentInserter.Source], at place: PastePlace) {
        defer { place.release() }
        guard let editor, let offset = editor.buffer.offset(of: place.start) else { return }
        attachments.add(sources, at: offset)
    }

    /// The clipboard's bytes asked for as text, then judged: the owner may be another one
    /// than GDK's formats say, and answer with a picture.
    private func pasteText(at place: PastePlace, triedPicture: Bool) {
        guard let editor else { return place.release() }
        let shown = editor.shownNoteSerial
        editor.textView.readClipboardBytes(mimeTypes: ["text/plain;charset=utf-8", "text/plain"], limit: PastedBytes.readLimit) { [weak self] read in
            guard let self, let editor = self.editor, editor.shownNoteSerial == shown else { return place.release() }
            switch read {
            case .bytes(let bytes, _):
                switch PastedBytes(bytes) {
                case .text(let text):
                    editor.textView.insertPasted(text, at: place)
                    PasteReport.pasted("text")
                case .picture where editor.noteLocation?() != nil:
                    self.addPicture(encoded: bytes, at: place)
                case .picture, .notText:
                    self.refuse(place)
                }
            case .tooLarge:
                // TRANSLATORS: a notice: what is on the clipboard is larger than a paste takes.
                self.refuse(place, tr("What is on the clipboard is too large to paste."))
            case .unavailable:
                // A picture-only owner refuses a request for text.
                if triedPicture { self.refuse(place) } else { self.pastePicture(at: place, orText: false) }
            }
        }
    }

    private func pastePicture(at place: PastePlace, orText: Bool) {
        guard let editor else { return place.release() }
        let shown = editor.shownNoteSerial
        editor.textView.readClipboardImageAsPNG { [weak self] png in
            guard let self, let editor = self.editor, editor.shownNoteSerial == shown else { return place.release() }
            if let png {
                self.addAttachments([.bytes(Data(png), name: AttachmentStore.pastedImageName())], at: place)
                PasteReport.pasted("picture")
            } else if orText {
                // The formats were the previous owner's: the one now may hold text.
                self.pasteText(at: place, triedPicture: true)
            } else {
                // TRANSLATORS: a toast: the clipboard's picture could not be read.
                self.refuse(place, tr("The picture on the clipboard could not be read."))
            }
        }
    }

    /// A picture's bytes that arrived for a request for text, decoded off the main thread.
    private func addPicture(encoded bytes: [UInt8], at place: PastePlace) {
        guard let editor else { return place.release() }
        let shown = editor.shownNoteSerial
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            // Its format by its bytes, decoded by that format's loader only, within the
            // editor's size limits.
            var png: [UInt8]?
            if let format = PictureFormat.of(bytes), format != .svg,
               case .decoded(let image) = PixbufDecoder.decode(bytes, type: format.loaderName, fitWidth: .max) {
                png = image.pngBytes()
            }
            DispatchQueue.main.async {
                guard let self, let editor = self.editor, editor.shownNoteSerial == shown else { return place.release() }
                guard let png else {
                    return self.refuse(place, tr("The picture on the clipboard could not be read."))
                }
                self.addAttachments([.bytes(Data(png), name: AttachmentStore.pastedImageName())], at: place)
                PasteReport.pasted("picture")
            }
        }
    }

    private func refuse(_ place: PastePlace, _ message: String? = nil) {
        place.release()
        // TRANSLATORS: a toast: the clipboard holds something that is not text (binary data); nothing was pasted.
        attachments.onNotice?(message ?? tr("The clipboard holds no text or picture that can be pasted."))
        PasteReport.pasted("refused")
    }
}
