import Dispatch
import Foundation
import Gtk
import NotesCore

/// A printed note's pictures, decoded before printing starts, off the main thread and the way
/// the editor decodes them (`PictureDecoder.read`: a regular file of at most 64 MB, one of the
/// formats Notula shows, at most 100 million pixels, refused before any pixel exists): a
/// decompression bomb the editor refuses no longer exhausts memory on Print, and paging never
/// waits on a decoder.
nonisolated enum PrintPictures {
    /// Pixels across a picture is decoded at: twice an A4 page's text width in points, sharp
    /// on paper and bounded in memory.
    static let fitWidth = 1600

    /// Decodes the pictures of `printable` and calls `completion` on the main thread with
    /// those that decoded, by path (the others print as their descriptions).
    @MainActor static func decode(_ printable: PrintableNote, completion: @escaping @MainActor ([String: DecodedImage]) -> Void) {
        let paths = printable.blocks.compactMap { block -> String? in
            if case .picture(let path, _) = block.content { return path }
            return nil
        }
        guard !paths.isEmpty else { return completion([:]) }
        DispatchQueue.global(qos: .userInitiated).async {
            var pictures: [String: DecodedImage] = [:]
            for path in Set(paths) {
                if case .decoded(let image) = PictureDecoder.read(path, name: (path as NSString).lastPathComponent, fitWidth: fitWidth) {
                    pictures[path] = image
                }
            }
            let decoded = pictures
            DispatchQueue.main.async { completion(decoded) }
        }
    }
}
