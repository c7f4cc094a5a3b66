// notula-bench: the benchmarks' tool (not installed) that `make bench`'s scripts run on
// generated libraries; each mode prints its figures.
// Usage: notula-bench move SOURCE DESTINATION STATE        moves a whole library once (bench_move.py times it)
//        notula-bench move-switch SOURCE DESTINATION STATE CACHE carry|rebuild
//                                                           a move of all notes, then the switch (key=value figures)
//        notula-bench history FOLDER                        the note history (JSON)
//        notula-bench links FOLDER COUNT                    links and tags in the index (JSON)
//        notula-bench import SOURCE LIBRARY                 imports SOURCE's .note files (JSON)
import Foundation
import NotesCore

let arguments = CommandLine.arguments
let url = { (index: Int) in URL(fileURLWithPath: arguments[index]) }

switch (arguments.count, arguments.count > 1 ? arguments[1] : "") {
case (5, "move"):
    let mover = LibraryMover(source: url(2), destination: url(3), stateFolder: url(4))
    do {
        try mover.run(try mover.preflight())
    } catch {
        FileHandle.standardError.write(Data("move failed: \(error)\n".utf8))
        exit(1)
    }
case (7, "move-switch"):
    print(MoveSwitchBenchmark.run(source: url(2), destination: url(3), state: url(4), cache: url(5), carry: arguments[6] == "carry"))
case (3, "history"):
    print(HistoryBenchmark.run(in: url(2)))
case (4, "links"):
    guard let count = Int(arguments[3]) else { fallthrough }
    print(LinksBenchmark.run(in: url(2), count: count))
case (4, "import"):
    print(ImportBenchmark.run(source: url(2), library: url(3)))
default:
    FileHandle.standardError.write(Data("usage: notula-bench move|move-switch|history|links|import … (see Sources/notula-bench/main.swift)\n".utf8))
    exit(2)
}
