import Foundation

/// Every regular file below a folder with its bytes, by its path relative to the folder: what a
/// move must carry over, compared before and after.
public enum FolderContents {
    public static func regularFiles(in folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let base = folder.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            result[String(url.standardizedFileURL.path.dropFirst(base.count + 1))] = try? Data(contentsOf: url)
        }
        return result
    }
}
