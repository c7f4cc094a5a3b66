/// Damage as files meet it: cut short, a byte flipped, a value replaced by an extreme number,
/// a wrong type, a NUL or other JSON. For fuzz tests of every file Notula reads back.
public enum FileDamage {
    static let replacements: [[UInt8]] = ["9223372036854775807", "-9223372036854775808", "1e400", "null", "\"x\"", "[]", "{}",
                                          "\u{0}", "-0", "NaN", "\"../../etc/passwd\"", "\"/etc/passwd\""].map { Array($0.utf8) }

    /// `bytes` damaged one way, chosen at random; never `bytes` themselves.
    public static func damaged(_ bytes: [UInt8], using random: inout some RandomNumberGenerator) -> [UInt8] {
        var result = bytes
        switch Int.random(in: 0..<3, using: &random) {
        case 0: result = Array(result.prefix(Int.random(in: 0...result.count, using: &random)))
        case 1 where !result.isEmpty: result[Int.random(in: 0..<result.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        default:
            let at = Int.random(in: 0..<max(result.count, 1), using: &random)
            result.replaceSubrange(min(at, result.count)..<min(result.count, at + Int.random(in: 1...6, using: &random)),
                                   with: replacements.randomElement(using: &random)!)
        }
        result.append(contentsOf: Array(" ".utf8))  // never the good file by chance
        return result
    }
}
