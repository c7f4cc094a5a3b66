// notula-crash-writer: a test helper (not installed). Saves one note through NoteDocument in
// an endless loop so the crash test can SIGKILL it at random instants and check the file.
// Usage: notula-crash-writer NOTE_PATH FIRST_VERSION
// Version n of the text is "version n\n" + n-dependent filler + "\nend n\n" (sizes vary, so a
// torn write would show as a bad length or a missing end line).
import Foundation
import NotesCore

guard CommandLine.arguments.count == 3, let firstVersion = Int(CommandLine.arguments[2]) else {
    FileHandle.standardError.write(Data("usage: notula-crash-writer NOTE_PATH FIRST_VERSION\n".utf8))
    exit(2)
}
setvbuf(stdout, nil, _IOLBF, 0)
let url = URL(fileURLWithPath: CommandLine.arguments[1])
let document = NoteDocument(fileURL: url, autosaveDelay: 3600, autosaveMaximumDelay: 3600)
var opened = false
document.open { opened = $0 }
while !opened { RunLoop.main.run(until: Date().addingTimeInterval(0.001)) }
print("ready")
var version = firstVersion
while true {
    document.edit(CrashWriterText.version(version))
    do {
        try document.saveAndWait()
    } catch {
        print("save failed: \(error)")
        exit(1)
    }
    version += 1
}
