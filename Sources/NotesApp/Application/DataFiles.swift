import Foundation

/// Where Notula's own data files are (style schemes): `share/notula` of an install (the XDG
/// data folders, or beside the binary's `bin/`), or, running from a build folder, the source
/// tree's `data/`, found by walking up from the binary.
enum DataFiles {
    static func folder(containing relativePath: String) -> URL? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [URL] = []
        let home = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory() + "/.local/share"
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for dir in [home] + dirs.split(separator: ":").map(String.init) {
            candidates.append(URL(fileURLWithPath: dir).appendingPathComponent("notula"))
        }
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        candidates.append(binary.deletingLastPathComponent().appendingPathComponent("share/notula"))
        var folder = binary
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("data"))
            folder.deleteLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(relativePath).path) }
    }
}
