import Foundation

/// A fresh folder under /tmp, removed when the test ends.
public final class TemporaryFolder {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    public func write(_ name: String, _ text: String, modified: Date? = nil) throws -> URL {
        let file = file(name)
        try Data(text.utf8).write(to: file)
        if let modified { try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path) }
        return file
    }

    public var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
}
