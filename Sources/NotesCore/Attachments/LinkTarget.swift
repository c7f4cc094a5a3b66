import Foundation

/// What a relative link in a note leads to.
public enum LinkTarget: Equatable, Sendable {
    /// A note of the library (its id), to open in Notula.
    case note(String)
    /// Any other file inside the library (may be missing: the caller checks).
    case file(URL)
}
