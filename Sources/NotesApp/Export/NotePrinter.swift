import Foundation
import Gtk
import NotesCore

/// A note on paper (Ctrl+P) or in a PDF file (Export as PDF): `PrintableNote`'s blocks flowed
/// down the pages line by line — a paragraph breaks between its lines, a heading stays with
/// what follows it, a picture is fitted to the page — with "2 / 5" under each page of several.
final class NotePrinter {
    private let operation: PrintOperation
    private let blocks: [PrintBlock]
    /// The pictures that decoded (`PrintPreparation`), by path.
    private let pictures: [String: DecodedImage]
    /// What each page draws, laid out a slice at a time as printing begins.
    private var pages: [[Piece]] = [[]]
    /// How far the layout got: the next block, and the height used on the last page.
    private var nextBlock = 0
    private var y = 0.0
    private var releasesDrawnPages = false

    private enum Piece {
        case line(TextLayout, index: Int, x: Double, baseline: Double)
        case rule(x: Double, y: Double, width: Double)
        case picture(DecodedImage, x: Double, y: Double, width: Double, height: Double)
    }

    /// Room kept under the text for the page number, in points.
    private static let footerHeight = 24.0
    /// How long one slice of the layout may take: the window gets its frames in between
    /// (a note of a few hundred KB takes seconds to lay out).
    private static let sliceNanoseconds: UInt64 = 8_000_000

    init(title: String, printable: PrintableNote, pictures: [String: DecodedImage]) {
        operation = PrintOperation(jobName: title)
        blocks = printable.blocks
        self.pictures = pictures
        operation.onBeginPrint { [weak self] in
            self?.pages = [[]]
            self?.nextBlock = 0
            self?.y = 0
        }
        operation.onPaginate { [weak self] page in
            guard let self else { return 1 }
            return self.layOutSlice(on: page)
        }
        operation.onDrawPage { [weak self] page, index in self?.draw(index, on: page) }
    }

    /// The print dialog; `done` hears how it ended and how many pages went out.
    func runDialog(parent: Window?, done: @escaping (PrintOperation.Outcome, Int) -> Void) {
        operation.runDialog(parent: parent) { [self] outcome in done(outcome, pages.count) }
    }

    /// Writes the pages to a PDF at `path`, with no dialog. Each page's layouts are let go once
    /// it is drawn (a PDF draws each page once): freeing thousands at the end took a frame.
    func exportPDF(to path: String) -> (PrintOperation.Outcome, Int) {
        releasesDrawnPages = true
        let outcome = operation.exportPDF(to: path)
        return (outcome, pages.count)
    }

    // MARK: Layout

    /// Lays blocks out for about `sliceNanoseconds`; the page count once every block is placed.
    private func layOutSlice(on page: PrintPage) -> Int? {
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.sliceNanoseconds
        while nextBlock < blocks.count {
            layOut(nextBlock, on: page)
            nextBlock += 1
            if DispatchTime.now().uptimeNanoseconds >= deadline { return nextBlock < blocks.count ? nil : pages.count }
        }
        return pages.count
    }

    private func newPage() {
        pages.append([])
        y = 0
    }

    private func layOut(_ index: Int, on page: PrintPage) {
        let block = blocks[index]
        let bottom = page.height - Self.footerHeight
        let x = Double(block.level) * PrintableNote.indent
        let width = max(page.width - x, 72)
        if y > 0 { y += block.spaceBefore }
        switch block.content {
        case .text(let markup):
            let layout = page.layout(markup: markup, width: width)
            if block.keepWithNext, y > 0, y + height(of: layout) + followingLineHeight(after: index) > bottom { newPage() }
            for (lineIndex, line) in layout.lines.enumerated() {
                if y > 0, y + line.height > bottom { newPage() }
                let baseline = y + line.baseline - line.top
                pages[pages.count - 1].append(.line(layout, index: lineIndex, x: x, baseline: baseline))
                if lineIndex == 0, let marker = block.marker {
                    let markerLayout = page.layout(markup: "<span font_family=\"sans-serif\" size=\"\(Int(PrintableNote.bodySize * 1024))\">\(marker)</span>",
                                                   width: PrintableNote.indent)
                    pages[pages.count - 1].append(.line(markerLayout, index: 0, x: x - PrintableNote.indent + 2, baseline: baseline))
                }
                y += line.height
            }
        case .rule:
            if y + 8 > bottom { newPage() }
            pages[pages.count - 1].append(.rule(x: x, y: y + 4, width: width))
            y += 8
        case .picture(let path, let alt):
            guard let picture = pictures[path] else {
                let layout = page.layout(markup: PrintableNote.missingPictureMarkup(alt), width: width)
                for (lineIndex, line) in layout.lines.enumerated() {
                    if y > 0, y + line.height > bottom { newPage() }
                    pages[pages.count - 1].append(.line(layout, index: lineIndex, x: x, baseline: y + line.baseline - line.top))
                    y += line.height
                }
                return
            }
            // A pixel is a point at 72 dpi: pictures print at about their size on screen
            // (96 dpi), never wider than the text or taller than most of a page.
            let size = (width: Double(max(picture.naturalWidth, 1)), height: Double(max(picture.naturalHeight, 1)))
            var drawnWidth = min(size.width * 0.75, width)
            var drawnHeight = drawnWidth * size.height / size.width
            if drawnHeight > bottom * 0.9 {
                drawnHeight = bottom * 0.9
                drawnWidth = drawnHeight * size.width / size.height
            }
            if y > 0, y + drawnHeight > bottom { newPage() }
            pages[pages.count - 1].append(.picture(picture, x: x, y: y, width: drawnWidth, height: drawnHeight))
            y += drawnHeight
        }
    }

    private func height(of layout: TextLayout) -> Double {
        layout.lines.reduce(0) { $0 + $1.height }
    }

    /// Room for a line of the block after `index` (a heading is not left alone at a page's foot).
    private func followingLineHeight(after index: Int) -> Double {
        index + 1 < blocks.count ? PrintableNote.bodySize * 1.6 + blocks[index + 1].spaceBefore : 0
    }

    // MARK: Drawing

    private func draw(_ index: Int, on page: PrintPage) {
        guard pages.indices.contains(index) else { return }
        for piece in pages[index] {
            switch piece {
            case .line(let layout, let line, let x, let baseline):
                page.draw(layout, line: line, x: x, baseline: baseline)
            case .rule(let x, let y, let width):
                page.drawRule(x: x, y: y, width: width)
            case .picture(let picture, let x, let y, let width, let height):
                page.drawPicture(picture, x: x, y: y, width: width, height: height)
            }
        }
        if releasesDrawnPages { pages[index] = [] }
        if pages.count > 1 {
            // TRANSLATORS: under each printed page of a note; %1$d: this page, %2$d: how many pages
            let number = tr("%1$d / %2$d", index + 1, pages.count)
            let layout = page.layout(markup: "<span font_family=\"sans-serif\" size=\"\(8 * 1024)\" foreground=\"#77767b\">\(number)</span>", width: page.width)
            let width = layout.lines.first?.width ?? 0
            page.draw(layout, line: 0, x: (page.width - width) / 2, baseline: page.height - 6)
        }
    }
}
