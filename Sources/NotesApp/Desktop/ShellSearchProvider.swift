import Dispatch
import Foundation
import Gtk
import NotesCore

/// GNOME Shell's search provider (`org.gnome.Shell.SearchProvider2` at `objectPath`, named
/// in share/gnome-shell/search-providers): the desktop's search finds notes by every term in
/// their titles and texts (AND, as the interface says), through the library index. Searches
/// run on a queue of their own and answer from what is indexed; the main loop only hands
/// calls over. Each call holds the application, so a service started by the call (no
/// window) stays until it has been idle for the inactivity timeout.
final class ShellSearchProvider {
    static let objectPath = "/io/github/notula/Notula/SearchProvider"
    static let interfaceXML = """
        <node>
          <interface name="org.gnome.Shell.SearchProvider2">
            <method name="GetInitialResultSet"><arg type="as" name="terms" direction="in"/><arg type="as" name="results" direction="out"/></method>
            <method name="GetSubsearchResultSet"><arg type="as" name="previous_results" direction="in"/><arg type="as" name="terms" direction="in"/><arg type="as" name="results" direction="out"/></method>
            <method name="GetResultMetas"><arg type="as" name="identifiers" direction="in"/><arg type="aa{sv}" name="metas" direction="out"/></method>
            <method name="ActivateResult"><arg type="s" name="identifier" direction="in"/><arg type="as" name="terms" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
            <method name="LaunchSearch"><arg type="as" name="terms" direction="in"/><arg type="u" name="timestamp" direction="in"/></method>
          </interface>
        </node>
        """
    private var object: DBusObject?
    private let queue = DispatchQueue(label: "notula.shell-search", qos: .userInitiated)
    /// The library's index once it can be read (`then` may wait for a start's listing).
    var index: (@escaping @MainActor (LibraryIndex?) -> Void) -> Void = { $0(nil) }
    /// Keeps the application running while a call is answered.
    var hold: () -> Void = {}
    var release: () -> Void = {}
    /// A result chosen (a note id and the terms): the window shows that note at the match.
    var onActivate: ((String, [String]) -> Void)?
    /// "Search in Notula": the window with the search field filled.
    var onLaunchSearch: (([String]) -> Void)?

    /// Exports the provider on the session bus (nothing when there is none).
    func export() {
        object = DBusObject(path: Self.objectPath, interfaceXML: Self.interfaceXML) { [weak self] call in self?.handle(call) }
    }

    private func handle(_ call: DBusCall) {
        switch call.method {
        case "GetInitialResultSet":
            search(call.strings(at: 0), call)
        case "GetSubsearchResultSet":
            // Searched again, not only among the previous results: those are capped, and a
            // note past the cap that holds the longer terms must not be lost.
            search(call.strings(at: 1), call)
        case "GetResultMetas":
            metas(call.strings(at: 0), call)
        case "ActivateResult":
            // No id of ours is longer: a longer one is refused unread (nothing laid out).
            guard let id = call.string(at: 0), id.utf8.count <= LibraryNoteID.maxLength else {
                return call.fail("org.freedesktop.DBus.Error.InvalidArgs", message: "no note identifier")
            }
            onActivate?(id, LibraryIndex.acceptedShellTerms(call.strings(at: 1)) ?? [])
            call.returnNothing()
        case "LaunchSearch":
            onLaunchSearch?(LibraryIndex.acceptedShellTerms(call.strings(at: 0)) ?? [])
            call.returnNothing()
        default:
            call.fail("org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(call.method)")
        }
    }

    private func search(_ terms: [String], _ call: DBusCall) {
        let received = MonotonicClock.now()
        guard LibraryIndex.acceptedShellTerms(terms) != nil else {
            // Answered at once: no index, no queue, nothing waits behind it.
            call.returnStrings([])
            return DesktopReport.shellSearch(call.method, count: 0, milliseconds: (MonotonicClock.now() - received) * 1000)
        }
        answer(call, { index in index.shellSearch(terms) }, empty: []) { call, ids in
            call.returnStrings(ids)
            DesktopReport.shellSearch(call.method, count: ids.count, milliseconds: (MonotonicClock.now() - received) * 1000)
        }
    }

    private func metas(_ ids: [String], _ call: DBusCall) {
        let icon = notulaApplicationID
        let received = MonotonicClock.now()
        answer(call, { index in index.shellResults(ids, terms: []) }, empty: []) { call, results in
            call.returnDictionaries(results.map { result in
                [("id", result.noteID), ("name", result.title), ("description", result.line), ("gicon", icon)]
            })
            DesktopReport.shellSearch(call.method, count: results.count, milliseconds: (MonotonicClock.now() - received) * 1000)
        }
    }

    /// Runs `work` on the index off the main thread, then `reply` on the main thread.
    private func answer<T: Sendable>(_ call: DBusCall, _ work: @escaping @Sendable (LibraryIndex) -> T, empty: T,
                                     reply: @escaping @MainActor (DBusCall, T) -> Void) {
        hold()
        index { [queue, weak self] index in
            guard let index else {
                reply(call, empty)
                self?.release()
                return
            }
            queue.async {
                let result = work(index)
                DispatchQueue.main.async {
                    reply(call, result)
                    self?.release()
                }
            }
        }
    }
}
