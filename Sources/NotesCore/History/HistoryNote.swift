import Foundation

/// A note that has a history: where it is now (nil once deleted for good with its history
/// kept), its title as of its newest version, and how many versions it has.
public struct HistoryNote: Equatable, Sendable {
    public let id: Int64
    public let path: String?
    public let title: String
    public let newest: Date
    public let count: Int
}
