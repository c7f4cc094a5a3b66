import Foundation

/// A link in the error chain (after NSResponder). An error climbs from the responder where it
/// happened to the application: each responder may change it in `willPresentError` or handle
/// it there (return nil); the last one presents it. In the app the chain is the widget tree,
/// so the chain lives on the main actor.
@MainActor
open class Responder {
    public init() {}

    /// Where errors go next; nil at the end of the chain.
    open var nextResponder: Responder? { nil }

    /// Where an error goes when its responder has no next one although it is not the end (a
    /// widget detached from the window as the error came): the application. An error is
    /// never dropped on the way up.
    public static weak var endOfChain: Responder?

    /// Change the error (add context, options) or return nil when it was dealt with here.
    open func willPresentError(_ error: Error) -> Error? { error }

    /// Lets `willPresentError` see the error, then passes it on. The completion receives
    /// whether the user's chosen option recovered (the caller then retries what failed).
    open func presentError(_ error: Error, completion: @escaping @MainActor (Bool) -> Void) {
        guard let error = willPresentError(error) else { completion(false); return }
        guard let next = nextResponder ?? (self === Responder.endOfChain ? nil : Responder.endOfChain) else {
            completion(false)
            return
        }
        next.presentError(error, completion: completion)
    }
}
