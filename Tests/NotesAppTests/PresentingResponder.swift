import Gtk
import NotesCore
@testable import NotesApp

/// Stands in for the application at the end of the chain: records what reached it and
/// presents it with the real dialog presenter.
final class PresentingResponder: Responder {
    let presenter = ErrorDialogPresenter()
    private(set) var received: [Error] = []

    init(parent: Window) {
        presenter.parent = parent
    }

    override func presentError(_ error: Error, completion: @escaping @MainActor (Bool) -> Void) {
        received.append(error)
        if let failure = error as? RecoverableFailure {
            presenter.present(failure, completion: completion)
        } else {
            completion(false)
        }
    }
}
