import Dispatch
import Foundation
import Gtk
import NotesCore

/// A printed note's blocks and pictures, made before printing starts and off the main thread.
/// Pictures are decoded the way the editor decodes them (`PictureDecoder.read`: a regular file
/// of at most 64 MB, one of the formats Notula shows, at most 100 million pixels, refused
/// before any pixel exists): a decompression bomb the editor refuses no longer exhausts memory
/// on Print, and paging never waits on a decoder.
nonisolated enum PrintPreparation {
    /// Pixels across a picture is decoded at: twice an A4 page's text width in points, sharp
    /// on paper and bounded in memory.
    static let fitWidth = 1600

    /// Makes the printable note (`make`: Markdown parsed, a note of a few hundred KB takes tens
    /// of milliseconds) and decodes its pictures, off the main thread; calls `completion` on
    /// the main thread with both, the pictures that decoded by path (the others print as
    /// their descriptions).
    @MainActor static func prepare(_ make: @escaping @Sendable () -> PrintableNote,
                                   completion: @escaping @MainActor (PrintableNote, [String: DecodedImage]) -> Void) {
        DispatchQueue.global(qos: .userInitiated).async {
            let printable = make()
            let paths = printable.blocks.compactMap { block -> String? in
                if case .picture(let path, _) = block.content { return path }
                return nil
            }
            var pictures: [String: DecodedImage] = [:]
            for path in Set(paths) {
                if case .decoded(let image) = PictureDecoder.read(path, name: (path as NSString).lastPathComponent, fitWidth: fitWidth) {
                    pictures[path] = image
                }
            }
            let decoded = pictures
            DispatchQueue.main.async { completion(printable, decoded) }
        }
    }
}
