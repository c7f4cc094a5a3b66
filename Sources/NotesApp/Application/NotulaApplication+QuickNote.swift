import Foundation
import Gtk
import NotesCore

/// Quick notes (issue #48): `notula --quick-note` shows the Quick Note window (in the running
/// instance when there is one, else alone, without the main window); `notula --quick-note TEXT`
/// (or `-` for standard input) files the text as a new note without any window and prints the
/// new file's path. The running instance's watcher lists it as any new file.
extension NotulaApplication {
    /// `--quick-note` with text: filed here, in the launching process; the exit status. Nil
    /// when no text was given (the window is wanted).
    func fileQuickNote() -> Int32? {
        let text: String?
        do {
            text = try QuickNote.text(fromArguments: Self.positionalArguments(), standardInput: Self.readStandardInput)
        } catch let refusal as QuickNote.Refusal {
            return Self.fail(refusal.message)
        } catch {
            return Self.fail(error.localizedDescription)
        }
        guard let text else { return nil }
        do {
            let note = try QuickNote.file(text, in: NoteLibrary(folder: storage.libraryFolder), createIfMissing: !storage.isSynced)
            print(note.url.path)
            return 0
        } catch {
            let explanation = ErrorTranslator.explain(error, action: .create, note: nil)
            return Self.fail(explanation.failureReason + ". " + explanation.recoverySuggestion)
        }
    }

    /// The Quick Note window, made when not open (nothing more: no main window).
    func showQuickNote() {
        if let open = windows.quickNote { return open.present() }
        let quick = QuickNoteWindow(application: app, appResponder: self, library: storage.libraryFolder,
                                    createsFolder: !storage.isSynced, drafts: drafts)
        configure(quick.editor)
        quick.onNoteMade = { [weak self] note in
            // Listed in the main window now, not only when its watcher sees the file.
            guard let controller = self?.windows.main?.controller, let id = controller.id(of: note.url) else { return }
            controller.live.refresh([id])
        }
        quick.window.onDestroy { [weak self] _ in
            self?.windows.quickNote = nil
            self?.quitIfLastWindowClosed()
        }
        windows.quickNote = quick
        quick.present()
    }

    /// The command line's arguments that are not options, as bytes (no repair of invalid
    /// UTF-8: `QuickNote` refuses it); "--" ends the options.
    private static func positionalArguments() -> [[UInt8]] {
        var result: [[UInt8]] = []
        var optionsEnded = false
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if !optionsEnded, bytes == Array("--".utf8) { optionsEnded = true; continue }
            if !optionsEnded, bytes.first == 0x2D, bytes.count > 1 { continue }
            result.append(bytes)
        }
        return result
    }

    /// Standard input, at most `limit` bytes.
    private static func readStandardInput(_ limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < limit {
            let count = read(STDIN_FILENO, &chunk, min(chunk.count, limit - bytes.count))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    private static func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data(("notula: " + message + "\n").utf8))
        return 1
    }
}
