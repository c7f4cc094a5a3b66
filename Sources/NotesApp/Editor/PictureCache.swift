import Gtk

/// Decoded pictures kept for reuse (scrolling back, an edit that re-reads a line), least
/// recently used first out, bounded by the bytes their pixels take.
final class PictureCache {
    struct Key: Hashable {
        let path: String
        let fitWidth: Int
    }

    let capacityBytes: Int
    private(set) var byteCount = 0
    private var textures: [Key: Texture] = [:]
    /// Least recently used first.
    private var order: [Key] = []

    init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    var count: Int { textures.count }

    func texture(for key: Key) -> Texture? {
        guard let texture = textures[key] else { return nil }
        if let index = order.firstIndex(of: key) { order.remove(at: index) }
        order.append(key)
        return texture
    }

    func insert(_ texture: Texture, for key: Key) {
        if let old = textures.removeValue(forKey: key) {
            byteCount -= old.byteCount
            order.removeAll { $0 == key }
        }
        // A picture larger than the whole cache is shown but not kept.
        guard texture.byteCount <= capacityBytes else { return }
        textures[key] = texture
        order.append(key)
        byteCount += texture.byteCount
        while byteCount > capacityBytes, let oldest = order.first {
            order.removeFirst()
            if let removed = textures.removeValue(forKey: oldest) { byteCount -= removed.byteCount }
        }
    }

    func removeAll() {
        textures = [:]
        order = []
        byteCount = 0
    }
}
