import Dispatch
import Foundation
import Gtk
import NotesCore
#if canImport(Glibc)
import Glibc
#endif

/// Why a picture line shows a placeholder instead of its picture.
nonisolated enum PictureProblem: Equatable, Sendable {
    case missing(String)
    case refused(String)
    case notAPicture(String)
    case tooLarge(width: Int, height: Int)
    case fileTooLarge(String)
    case unreadable(String, reason: String)

    /// What the placeholder says.
    var message: String {
        switch self {
        // TRANSLATORS: %s is a file name ("x.png") that a note shows as a picture.
        case .missing(let name): tr("Picture not found: %s", name)
        // TRANSLATORS: %s is a link's address; the picture is outside the notes folder and is not shown.
        case .refused(let name): tr("Not shown: %s is outside the notes folder", name)
        // TRANSLATORS: %s is a file name.
        case .notAPicture(let name): tr("Not a picture: %s", name)
        // TRANSLATORS: %s is a picture's size in pixels ("60000 × 60000").
        case .tooLarge(let width, let height): tr("Too large to show (%s)", "\(width) × \(height)")
        // TRANSLATORS: %s is a file name; the file is too big to read as a picture.
        case .fileTooLarge(let name): tr("Too large to show: %s", name)
        // TRANSLATORS: first %s is a file name, second why it could not be read.
        case .unreadable(let name, let reason): tr("Cannot read %s: %s", name, reason)
        }
    }
}

/// Reads and decodes pictures one at a time on a background queue, each from bytes read as
/// notes are (`RegularFile`: a regular file — a FIFO or a device is never opened, so nothing
/// blocks —, not a symbolic link: the resolver already followed links and checked their real
/// path is in the library), no bigger than `maxFileBytes` (a 500 MB file is refused by its
/// size, unread), an animated GIF cut to its first frame, SVG rendered from bytes alone so it
/// can load nothing else. Results come back on the main thread.
final class PictureDecoder {
    enum Outcome: @unchecked Sendable {  // DecodedImage is Sendable; the enum is built once and handed over
        case decoded(DecodedImage)
        case failed(PictureProblem)
    }

    nonisolated static let maxFileBytes = 64 * 1024 * 1024
    private let queue = DispatchQueue(label: "notula.pictures", qos: .userInitiated)
    private(set) var isBusy = false

    /// Decodes the file at `url` (as the resolver gave it) to fit `fitWidth` pixels.
    func decode(_ url: URL, name: String, fitWidth: Int, completion: @escaping @MainActor (Outcome) -> Void) {
        isBusy = true
        queue.async {
            let outcome = Self.read(url.path, name: name, fitWidth: fitWidth)
            DispatchQueue.main.async { [weak self] in
                self?.isBusy = false
                completion(outcome)
            }
        }
    }

    nonisolated static func read(_ path: String, name: String, fitWidth: Int) -> Outcome {
        var bytes: [UInt8]
        do {
            bytes = [UInt8](try RegularFile.read(URL(fileURLWithPath: path), maximumBytes: maxFileBytes).data)
        } catch {
            let code = (error as? StorageError)?.code ?? EIO
            switch code {
            case ENOENT, ENOTDIR: return .failed(.missing(name))
            case EFBIG: return .failed(.fileTooLarge(name))
            case EINVAL, EISDIR: return .failed(.notAPicture(name))  // a FIFO, a device, a folder: never opened
            default: return .failed(.unreadable(name, reason: String(cString: strerror(code))))
            }
        }
        guard let format = PictureFormat.of(bytes), PictureBytes.looksComplete(bytes) else { return .failed(.notAPicture(name)) }
        if format == .gif, let first = PictureBytes.firstFrameOfGIF(bytes) { bytes = first }
        switch PixbufDecoder.decode(bytes, type: format.loaderName, fitWidth: fitWidth) {
        case .decoded(let image): return .decoded(image)
        case .tooLarge(let width, let height): return .failed(.tooLarge(width: width, height: height))
        case .notAPicture: return .failed(.notAPicture(name))
        }
    }
}
