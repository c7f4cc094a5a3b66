// notula-crash-writer: a test helper (not installed) that the crash tests SIGKILL at random
// instants, then check what is on disk, and the other program of the race tests.
// (The benchmarks' tool is notula-bench.)
// Usage: notula-crash-writer NOTE_PATH FIRST_VERSION   saves one note through NoteDocument in a loop
//        notula-crash-writer move SOURCE DESTINATION STATE   moves a whole library once
//        notula-crash-writer index LIBRARY CACHE              indexes a library (LibraryIndex) once
//        notula-crash-writer other-writer SEED REPORT FOLDER…  another program writing notes (`OtherWriter`)
// Version n of the text is "version n\n" + n-dependent filler + "\nend n\n" (sizes vary, so a
// torn write would show as a bad length or a missing end line).
import Foundation
import NotesCore

/// Writes a line at once (unbuffered): the parent test reads the pipe line by line and may kill
/// this process any moment after.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

if CommandLine.arguments.count >= 5, CommandLine.arguments[1] == "other-writer", let seed = UInt64(CommandLine.arguments[2]) {
    OtherWriter.run(seed: seed, report: CommandLine.arguments[3], folders: Array(CommandLine.arguments[4...]))
}

if CommandLine.arguments.count == 5, CommandLine.arguments[1] == "move" {
    let mover = LibraryMover(source: URL(fileURLWithPath: CommandLine.arguments[2]),
                             destination: URL(fileURLWithPath: CommandLine.arguments[3]),
                             stateFolder: URL(fileURLWithPath: CommandLine.arguments[4]))
    do {
        let plan = try mover.preflight()
        say("ready")
        try mover.run(plan)
        say("moved")
        exit(0)
    } catch {
        say("move failed: \(error)")
        exit(1)
    }
}

if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "index" {
    say("ready")
    do {
        let index = try LibraryIndex(library: NoteLibrary(folder: URL(fileURLWithPath: CommandLine.arguments[2])),
                                     cacheFolder: URL(fileURLWithPath: CommandLine.arguments[3]))
        _ = try index.reconcile { _ in say("batch") }
        while !index.indexWaitingTexts().progress.isComplete { say("texts") }  // as the app: rows, then texts
        say("indexed")
        exit(0)
    } catch {
        say("index failed: \(error)")
        exit(1)
    }
}

guard CommandLine.arguments.count == 3, let firstVersion = Int(CommandLine.arguments[2]) else {
    FileHandle.standardError.write(Data("usage: notula-crash-writer NOTE_PATH FIRST_VERSION\n".utf8))
    exit(2)
}
let url = URL(fileURLWithPath: CommandLine.arguments[1])
let document = NoteDocument(fileURL: url, autosaveDelay: 3600, autosaveMaximumDelay: 3600)
var opened: Bool?
document.open { opened = $0 }
while opened == nil { RunLoop.main.run(until: Date().addingTimeInterval(0.001)) }
guard opened == true else {
    say("open failed")
    exit(1)
}
say("ready")
var version = firstVersion
while true {
    document.edit(CrashWriterText.version(version))
    do {
        try document.saveAndWait()
    } catch {
        say("save failed: \(error)")
        exit(1)
    }
    version += 1
}
