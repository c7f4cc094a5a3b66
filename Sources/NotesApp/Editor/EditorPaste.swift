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
        let offset = editor.buffer.cursorOffset
        let takesAttachments = editor.noteLocation?() != nil
        if offer.files, takesAttachments {
            editor.textView.readClipboardFiles { [weak self] paths, _ in
                // Not local files (web addresses on the clipboard): paste them as text.
                guard let paths, !paths.isEmpty else { self?.pasteText(orPictureAt: offset, triedPicture: false); return }
                self?.attachments.add(paths.map { .file(URL(fileURLWithPath: $0)) }, at: offset)
            }
        } else if offer.image, !offer.text, takesAttachments {
            pastePicture(at: offset, orText: true)
        } else {
            pasteText(orPictureAt: offset, triedPicture: !takesAttachments)
        }
        return true
    }

    /// The clipboard's bytes asked for as text, then judged: the owner may be another one
    /// than GDK's formats say, and answer with a picture.
    private func pasteText(orPictureAt offset: Int, triedPicture: Bool) {
        guard let editor else { return }
        let shown = editor.shownNoteSerial
        editor.textView.readClipboardBytes(mimeTypes: ["text/plain;charset=utf-8", "text/plain"], limit: PastedBytes.readLimit) { [weak self] read in
            guard let self, let editor = self.editor, editor.shownNoteSerial == shown else { return }
            switch read {
            case .bytes(let bytes, _):
                switch PastedBytes(bytes) {
                case .text(let text):
                    editor.textView.insertPasted(text)
                    PasteReport.pasted("text")
                case .picture where editor.noteLocation?() != nil:
                    self.addPicture(encoded: bytes, at: offset)
                case .picture, .notText:
                    self.refuse()
                }
            case .tooLarge:
                // TRANSLATORS: a notice: what is on the clipboard is larger than a paste takes.
                self.refuse(tr("What is on the clipboard is too large to paste."))
            case .unavailable:
                // A picture-only owner refuses a request for text.
                if triedPicture { self.refuse() } else { self.pastePicture(at: offset, orText: false) }
            }
        }
    }

    private func pastePicture(at offset: Int, orText: Bool) {
        guard let editor else { return }
        let shown = editor.shownNoteSerial
        editor.textView.readClipboardImageAsPNG { [weak self] png in
            guard let self, let editor = self.editor, editor.shownNoteSerial == shown else { return }
            if let png {
                self.attachments.add([.bytes(Data(png), name: AttachmentStore.pastedImageName())], at: offset)
                PasteReport.pasted("picture")
            } else if orText {
                // The formats were the previous owner's: the one now may hold text.
                self.pasteText(orPictureAt: offset, triedPicture: true)
            } else {
                // TRANSLATORS: a toast: the clipboard's picture could not be read.
                self.refuse(tr("The picture on the clipboard could not be read."))
            }
        }
    }

    /// A picture's bytes that arrived for a request for text, decoded off the main thread.
    private func addPicture(encoded bytes: [UInt8], at offset: Int) {
        guard let editor else { return }
        let shown = editor.shownNoteSerial
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            let png = Texture.pngBytes(decoding: bytes)
            DispatchQueue.main.async {
                guard let self, let editor = self.editor, editor.shownNoteSerial == shown else { return }
                guard let png else {
                    return self.refuse(tr("The picture on the clipboard could not be read."))
                }
                self.attachments.add([.bytes(Data(png), name: AttachmentStore.pastedImageName())], at: offset)
                PasteReport.pasted("picture")
            }
        }
    }

    private func refuse(_ message: String? = nil) {
        // TRANSLATORS: a toast: the clipboard holds something that is not text (binary data); nothing was pasted.
        attachments.onNotice?(message ?? tr("The clipboard holds no text or picture that can be pasted."))
        PasteReport.pasted("refused")
    }
}
