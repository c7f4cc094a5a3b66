import Foundation

/// A recoverable error: it tells the user what failed, why, and offers buttons that fix it (after NSError's
/// localizedFailureReason, localizedRecoverySuggestion, localizedRecoveryOptions and
/// recoveryAttempter). The first option is the default (Enter).
public struct RecoverableFailure: Error, CustomStringConvertible {
    public struct Option: Equatable, Sendable {
        public enum Role: Equatable, Sendable {
            /// The suggested way out (Enter); normally the first option.
            case `default`
            /// Leaves things as they are (Escape).
            case cancel
            /// Discards something; shown in red.
            case destructive
            case normal
        }
        public let title: String
        public let role: Role
        public init(_ title: String, role: Role = .normal) {
            self.title = title
            self.role = role
        }
    }

    /// What failed, as a short sentence naming the note and the action ("“Groceries” could not be saved").
    public let failureReason: String
    /// Why, and what the user can do about it.
    public let recoverySuggestion: String
    public let recoveryOptions: [Option]
    /// Runs the option the user chose; nil when the options only dismiss.
    public let recoveryAttempter: RecoveryAttempter?
    /// The error this one explains (errno, GIO, …).
    public let underlyingError: Error?

    public init(failureReason: String, recoverySuggestion: String, recoveryOptions: [Option],
                recoveryAttempter: RecoveryAttempter? = nil, underlyingError: Error? = nil) {
        self.failureReason = failureReason
        self.recoverySuggestion = recoverySuggestion
        // TRANSLATORS: the button of an error dialog that only dismisses it.
        self.recoveryOptions = recoveryOptions.isEmpty ? [Option(tr("OK"), role: .default)] : recoveryOptions
        self.recoveryAttempter = recoveryAttempter
        self.underlyingError = underlyingError
    }

    /// Builds the error and its attempter from titled actions, in order (first = default).
    public init(failureReason: String, recoverySuggestion: String, actions: [RecoveryAction], underlyingError: Error? = nil) {
        self.init(failureReason: failureReason, recoverySuggestion: recoverySuggestion,
                  recoveryOptions: actions.map(\.option), recoveryAttempter: ClosureRecoveryAttempter(actions),
                  underlyingError: underlyingError)
    }

    /// Two errors that would show the same dialog are one (merged while queued).
    public var presentationKey: String {
        ([failureReason, recoverySuggestion] + recoveryOptions.map(\.title)).joined(separator: "\u{1F}")
    }

    /// The option Escape answers: the cancel option, else nil (Escape then chooses nothing).
    public var cancelOptionIndex: Int? { recoveryOptions.firstIndex { $0.role == .cancel } }

    public var description: String { "\(failureReason) \(recoverySuggestion)" }

    /// `text` cut to at most `limit` characters, its middle replaced by "…" (the start says
    /// what failed, the end what to do).
    public static func shortened(_ text: String, limit: Int) -> String {
        guard text.count > limit, limit > 1 else { return text }
        let head = (limit - 1) * 2 / 3, tail = limit - 1 - head
        return String(text.prefix(head)) + "…" + String(text.suffix(tail))
    }

    /// Runs option `index`; `completion(true)` when the failure no longer stands and the
    /// action that failed should be tried again.
    @MainActor
    public func attemptRecovery(optionIndex index: Int, completion: @escaping @MainActor (Bool) -> Void) {
        guard let recoveryAttempter, recoveryOptions.indices.contains(index) else { completion(false); return }
        recoveryAttempter.attemptRecovery(optionIndex: index, completion: completion)
    }
}

/// Runs a chosen recovery option, asynchronously, and reports whether it recovered. Recovery
/// happens where the dialog was answered: on the main actor.
public protocol RecoveryAttempter: Sendable {
    @MainActor func attemptRecovery(optionIndex: Int, completion: @escaping @MainActor (Bool) -> Void)
}

/// One button of a recoverable error and what it does. `perform` calls its argument with
/// whether it recovered (true: the failed action is retried).
public struct RecoveryAction: Sendable {
    public let option: RecoverableFailure.Option
    public let perform: @MainActor (@escaping @MainActor (Bool) -> Void) -> Void

    public init(_ title: String, role: RecoverableFailure.Option.Role = .normal,
                perform: @escaping @MainActor (@escaping @MainActor (Bool) -> Void) -> Void) {
        option = RecoverableFailure.Option(title, role: role)
        self.perform = perform
    }

    /// "Try Again": recovered, so the caller retries.
    // TRANSLATORS: a button of an error dialog: do the failed action again.
    public static func retry(_ title: String = tr("Try Again")) -> RecoveryAction {
        RecoveryAction(title, role: .default) { $0(true) }
    }

    /// Leaves things as they are (Escape).
    // TRANSLATORS: a button of an error dialog: leave things as they are.
    public static func cancel(_ title: String = tr("Cancel")) -> RecoveryAction {
        RecoveryAction(title, role: .cancel) { $0(false) }
    }
}

/// An attempter built from titled closures.
public struct ClosureRecoveryAttempter: RecoveryAttempter, Sendable {
    private let actions: [RecoveryAction]
    public init(_ actions: [RecoveryAction]) { self.actions = actions }

    public func attemptRecovery(optionIndex: Int, completion: @escaping @MainActor (Bool) -> Void) {
        guard actions.indices.contains(optionIndex) else { completion(false); return }
        actions[optionIndex].perform(completion)
    }
}
