import Foundation
import NotesCore
import Synchronization

/// The figure for scripts/bench_move.py: from the end of a move of all notes until the
/// destination's list is complete (its reconcile ended, as the window's "index ready"), with the
/// index carried over or without (the destination indexed from the start). As in the app: the
/// source library is opened and indexed by a `LiveLibrary`, its watching stops for the move,
/// then it switches to the destination. Prints one line of `key=value` figures.
@MainActor
enum MoveSwitchBenchmark {
    static func run(source: URL, destination: URL, state: URL, cache: URL, carry: Bool) -> String {
        let live = LiveLibrary(folder: source, createsFolder: false, indexFolder: cache)
        var listed: Date?, complete: Date?, changedNotes = 0
        live.onEvent = { event in
            switch event {
            case .listed:
                listed = listed ?? Date()
            case .changed(let changes): changedNotes += changes.upserted.count + changes.removed.count
            case .reconciled: complete = Date()
            default: break
            }
        }
        let indexing = Date()
        live.open()
        while complete == nil { RunLoop.main.run(until: Date().addingTimeInterval(0.005)) }
        let indexedSource = complete!.timeIntervalSince(indexing)
        live.stopWatching()

        let mover = LibraryMover(source: source, destination: destination, stateFolder: state)
        let moveStart = Date()
        var figures: [String] = []
        do {
            let plan = try mover.preflight()
            let carryOver = carry ? IndexCarryOver(source: source, destination: destination, cacheFolder: cache) : nil
            let moved = try mover.run(plan)
            let moveEnd = Date()
            (listed, complete, changedNotes) = (nil, nil, 0)
            // As the app does: carried over on the indexing queue, just before the switch opens the index.
            let carried = CarryOutcome()
            if let carryOver { live.beforeNextSwitch { carried.set(carryOver.finish(moved)) } }
            live.switchTo(destination, createsFolder: false)
            while complete == nil { RunLoop.main.run(until: Date().addingTimeInterval(0.001)) }
            figures = [
                "mode=\(carry ? "carry" : "rebuild")", "notes=\(live.index?.summaries().count ?? 0)", "source_indexed_s=\(format(indexedSource))",
                "move_s=\(format(moveEnd.timeIntervalSince(moveStart)))",
                "carry_s=\(format(carried.finished?.timeIntervalSince(moveEnd) ?? 0))",
                "listed_s=\(format(listed!.timeIntervalSince(moveEnd)))", "complete_s=\(format(complete!.timeIntervalSince(moveEnd)))",
                "changed_after_listing=\(changedNotes)",
                "kept=\(carried.result?.kept ?? 0)", "read_again=\(carried.result?.readAgain ?? 0)",
            ]
        } catch {
            figures = ["failed=\(error)"]
        }
        live.close()
        return figures.joined(separator: " ")
    }

    private static func format(_ seconds: TimeInterval) -> String { String(format: "%.3f", seconds) }
}

/// What the carry on the indexing queue did, and when it ended.
private final class CarryOutcome: Sendable {
    private let state = Mutex<(LibraryIndex.Carried?, Date?)>((nil, nil))
    func set(_ result: LibraryIndex.Carried?) { state.withLock { $0 = (result, Date()) } }
    var result: LibraryIndex.Carried? { state.withLock { $0.0 } }
    var finished: Date? { state.withLock { $0.1 } }
}
