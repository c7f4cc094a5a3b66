import Gtk
import NotesCore

/// Following the text: which lines are picture lines, kept in step with every insertion and
/// deletion (only the lines an edit touched are read again; entries after them shift).
extension InlinePictures {
    func textInserted(at offset: Int) {
        let line = buffer.line(atOffset: offset)
        let added = buffer.lineCount - knownLineCount
        knownLineCount = buffer.lineCount
        relines(old: line...line, new: line...(line + max(added, 0)), shift: added)
    }

    func textDeleted(at offset: Int) {
        let line = buffer.line(atOffset: offset)
        let removed = knownLineCount - buffer.lineCount
        knownLineCount = buffer.lineCount
        relines(old: line...(line + max(removed, 0)), new: line...line, shift: -removed)
    }

    /// The old lines `old` became the new lines `new`; lines after them moved by `shift`.
    private func relines(old: ClosedRange<Int>, new: ClosedRange<Int>, shift: Int) {
        let first = firstEntry(atOrAfter: old.lowerBound)
        var last = first
        while last < entries.count, entries[last].line <= old.upperBound { last += 1 }
        let replaced = entries[first..<last]
        for entry in entries[last...] { entry.line += shift }
        // Read the new lines (only those that can be picture lines cost more than a search).
        var found: [Entry] = []
        var recycled = Dictionary(replaced.map { ($0.picture, $0) }, uniquingKeysWith: { first, _ in first })
        let start = buffer.startOffset(ofLine: new.lowerBound)
        let end = new.upperBound + 1 < buffer.lineCount ? buffer.startOffset(ofLine: new.upperBound + 1) : buffer.characterCount
        let text = buffer.text(in: start..<end)
        if text.contains("![") {
            for (index, lineText) in LineBreaks.lines(of: text).enumerated() where lineText.contains("![") {
                guard let picture = PictureLine.parse(lineText) else { continue }
                let entry = recycled.removeValue(forKey: picture) ?? Entry(line: 0, picture: picture)
                entry.line = new.lowerBound + index
                found.append(entry)
            }
        }
        for entry in recycled.values { release(entry, forget: true) }
        entries.replaceSubrange(first..<last, with: found)
        // A line split at its end hands the tag to the new line: tags are set again on all.
        if !definedTags.isEmpty, !replaced.isEmpty || !found.isEmpty || text.contains("\n") || shift != 0 {
            for name in definedTags { buffer.removeTag(name, from: start..<end) }
            for entry in found where entry.reserved > 0 { tag(entry, height: entry.reserved, force: true) }
        }
        if !found.isEmpty || !replaced.isEmpty || shift != 0 { scheduleLayout() }
    }

    func firstEntry(atOrAfter line: Int) -> Int {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].line < line { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
