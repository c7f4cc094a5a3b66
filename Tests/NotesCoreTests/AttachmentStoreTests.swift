import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Files come into `attachments/` as private copies, atomically, and a failure leaves nothing.
final class AttachmentStoreTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var library: URL!
    private var store: AttachmentStore!

    override func setUp() {
        folder = TemporaryFolder()
        library = folder.url.appendingPathComponent("Notes")
        try? FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        store = AttachmentStore(library: library)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }

    private var attachmentNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.folder.path)) ?? []).sorted()
    }

    func testCopyKeepsTheSourceAndIsPrivate() throws {
        let source = try folder.write("Report 2026.pdf", "%PDF-1.7 report")
        let path = try store.add(copyOf: source)
        XCTAssertEqual(path, "attachments/Report 2026.pdf")
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent(path)), Data("%PDF-1.7 report".utf8))
        XCTAssertTrue(FileManager.default.fileExists(atPath: source.path), "copied, never moved")
        XCTAssertEqual(try mode(library.appendingPathComponent(path).path), 0o600)
        XCTAssertEqual(try mode(store.folder.path), 0o700)
    }

    func testSameNameTwiceGetsANumberAndBothStay() throws {
        let first = try store.add(Data("one".utf8), suggestedName: "photo.png")
        let second = try store.add(Data("two".utf8), suggestedName: "Photo.PNG")
        let third = try store.add(Data("three".utf8), suggestedName: "photo.png")
        XCTAssertEqual([first, second, third], ["attachments/photo.png", "attachments/Photo-2.PNG", "attachments/photo-3.png"])
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent(first), encoding: .utf8), "one")
        XCTAssertEqual(try String(contentsOf: library.appendingPathComponent(third), encoding: .utf8), "three")
        XCTAssertEqual(attachmentNames.count, 3, "no temporaries left")
    }

    func testUnsafeSuggestedNamesAreMadeSafe() throws {
        XCTAssertEqual(try store.add(Data("x".utf8), suggestedName: "a:b/c.png"), "attachments/a-b-c.png")
        XCTAssertEqual(try store.add(Data("x".utf8), suggestedName: "../../etc/passwd"), "attachments/-..-etc-passwd")
        XCTAssertEqual(try store.add(Data("x".utf8), suggestedName: "NUL.txt"), "attachments/NUL_.txt")
    }

    func testLargeFileIsCopiedWhole() throws {
        // Larger than several chunks and not a multiple of one.
        var bytes = [UInt8](repeating: 0, count: 3 * AttachmentStore.chunkSize + 12_345)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        let source = folder.file("big.bin")
        try Data(bytes).write(to: source)
        let path = try store.add(copyOf: source)
        XCTAssertEqual(try Data(contentsOf: library.appendingPathComponent(path)), Data(bytes))
    }

    func testSymbolicLinkGivenByTheUserIsFollowed() throws {
        let target = try folder.write("real.png", "png")
        let link = folder.file("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let path = try store.add(copyOf: link)
        XCTAssertEqual(path, "attachments/link.png")
        let info = try FileManager.default.attributesOfItem(atPath: library.appendingPathComponent(path).path)
        XCTAssertEqual(info[.type] as? FileAttributeType, .typeRegular)
    }

    func testFIFOAndFolderAreRefusedWithoutBlockingAndLeaveNothing() throws {
        let fifo = folder.file("pipe.png")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertThrowsError(try store.add(copyOf: fifo)) { error in
            XCTAssertEqual((error as? StorageError)?.code, EINVAL)
            XCTAssertNotNil((error as? StorageError)?.reason)
        }
        XCTAssertThrowsError(try store.add(copyOf: folder.url)) { XCTAssertEqual(($0 as? StorageError)?.code, EISDIR) }
        XCTAssertThrowsError(try store.add(copyOf: folder.file("missing.png"))) { XCTAssertEqual(($0 as? StorageError)?.code, ENOENT) }
        XCTAssertEqual(attachmentNames, [])
    }

    func testFullDiskFailsBeforeWritingAndLeavesNothing() throws {
        let disk = try SmallDisk(kilobytes: 256)
        let small = AttachmentStore(library: disk.url)
        let source = folder.file("big.bin")
        try Data(count: 1024 * 1024).write(to: source)
        XCTAssertThrowsError(try small.add(copyOf: source)) { XCTAssertEqual(($0 as? StorageError)?.code, ENOSPC) }
        XCTAssertThrowsError(try small.add(Data(count: 1024 * 1024), suggestedName: "big.png")) { XCTAssertEqual(($0 as? StorageError)?.code, ENOSPC) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: small.folder.path), [])
        // What fits goes in.
        XCTAssertEqual(try small.add(Data(count: 10_000), suggestedName: "small.png"), "attachments/small.png")
    }

    func testReadOnlyDiskFailsWithEROFS() throws {
        let disk = try SmallDisk(kilobytes: 256)
        try disk.remountReadOnly()
        let readOnly = AttachmentStore(library: disk.url)
        XCTAssertThrowsError(try readOnly.add(Data("x".utf8), suggestedName: "x.png")) { XCTAssertEqual(($0 as? StorageError)?.code, EROFS) }
    }

    func testAttachmentsInTheWayAsAFileOrLinkIsNotWrittenThrough() throws {
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: store.folder, withDestinationURL: elsewhere)
        XCTAssertThrowsError(try store.add(Data("x".utf8), suggestedName: "x.png"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
    }
}
