import Foundation
import NotesCore

/// For acceptance tests and `make bench`: with NOTULA_REPORT_LINKS=1 the app prints what it
/// shows of links and tags as it changes — `notula-backlinks ID N`, `notula-tags
/// name:count,…`, `notula-link-open TITLE N` (notes found), `notula-link-address
/// desktop|refused ADDRESS`, `notula-links-renamed N`, `notula-links-restored N`,
/// `notula-completion N` — so a test waits on what the window shows, never on a fixed sleep.
enum LinksReport {
    static let isOn = ProcessInfo.processInfo.environment["NOTULA_REPORT_LINKS"] != nil

    static func backlinks(of id: String, _ found: [LibraryIndex.Backlink]) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-backlinks \(id) \(found.count) \(found.map(\.noteID).joined(separator: ","))")
    }

    static func tags(_ counts: [LibraryIndex.TagCount]) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-tags " + counts.map { "\($0.name):\($0.count)" }.joined(separator: ","))
    }

    static func opened(title: String, found: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-link-open \(found) \(title)")
    }

    /// A link's address was handed to the desktop, or refused (`notula-link-address desktop|refused ADDRESS`).
    static func address(_ address: String, handedToDesktop: Bool) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-link-address \(handedToDesktop ? "desktop" : "refused") \(address)")
    }

    static func completion(_ count: Int) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-completion \(count)")
    }

    static func renameAnswered(update: Bool) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-links-rename-answer \(update ? "update" : "leave")")
    }

    static func renamed(notes: [String]) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-links-renamed \(notes.count)")
    }

    static func renameUndone(notes: [String]) {
        guard isOn else { return }
        BenchmarkOutput.line("notula-links-restored \(notes.count)")
    }
}
