import Foundation

extension NoteDocument {
    /// Every read, save and revert failure comes here (after UIDocument). The state is set by
    /// the caller; the error goes to `errorPresenter` when the user can be asked, or is recorded
    /// for later when not (quitting, a move in progress).
    public func handleError(_ error: Error, userInteractionPermitted: Bool) {
        handleError(error, userInteractionPermitted: userInteractionPermitted, retry: nil, giveUp: nil)
    }

    /// As above; when the chosen recovery option recovered, `retry` runs the failed operation
    /// again (it reports its own outcome); otherwise `giveUp` runs.
    func handleError(_ error: Error, userInteractionPermitted: Bool, retry: (() -> Void)?, giveUp: (() -> Void)?) {
        if userInteractionPermitted, let presenter = errorPresenter {
            presenter(self, error) { [weak self] recovered in
                self?.finishedHandlingError(error, recovered: recovered)
                if recovered, let retry { retry() } else { giveUp?() }
            }
        } else {
            userInteractionNoLongerPermitted(forError: error)
            finishedHandlingError(error, recovered: false)
            giveUp?()
        }
    }

    /// The error was dealt with; when recovered the document is no longer in `savingError`.
    public func finishedHandlingError(_ error: Error, recovered: Bool) {
        guard recovered else { return }
        lastError = nil
        state.remove(.savingError)
    }

    /// No one can be asked now: keep the error (and the text, in a draft) to present later.
    public func userInteractionNoLongerPermitted(forError error: Error) {
        deferredErrors.append(error)
        if hasUnsavedChanges && !isReadOnly { keepDraft(reason: "save failed") }
    }

    /// Hands over the errors kept while no one could be asked, once someone can.
    public func takeDeferredErrors() -> [Error] {
        defer { deferredErrors = [] }
        return deferredErrors
    }
}
