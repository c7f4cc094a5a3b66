import Foundation
import TestSupport
import XCTest
@testable import NotesCore

final class PreferencesTests: XCTestCase {
    func testMissingFileMeansNotChosenYet() {
        let folder = TemporaryFolder()
        let loaded = PreferencesStore(configFolder: folder.url.appendingPathComponent("notula")).load()
        XCTAssertNil(loaded.preferences.storage)
        XCTAssertNil(loaded.problem)
    }

    func testRoundTripIsPlainJSONWrittenAtomically() throws {
        let folder = TemporaryFolder()
        let store = PreferencesStore(configFolder: folder.url.appendingPathComponent("notula"))
        try store.save(Preferences(storage: .synced, syncedFolder: "/home/ann/Sync/Notes"))
        XCTAssertEqual(store.load().preferences, Preferences(storage: .synced, syncedFolder: "/home/ann/Sync/Notes"))
        let json = try String(contentsOf: store.url, encoding: .utf8)
        XCTAssertTrue(json.contains("\"storage\" : \"synced\""), json)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.url.deletingLastPathComponent().path), ["preferences.json"])
        let local = URL(fileURLWithPath: "/home/ann/.local/share/notula/Notes")
        XCTAssertEqual(store.load().preferences.libraryFolder(localLibrary: local).path, "/home/ann/Sync/Notes")
        XCTAssertEqual(Preferences(storage: .local).libraryFolder(localLibrary: local), local)
    }

    /// Loads a preferences.json holding `json`, as an older version or a hand edit left it.
    private func load(_ json: String) throws -> (preferences: Preferences, problem: String?) {
        let folder = TemporaryFolder()
        let store = PreferencesStore(configFolder: folder.url)
        try Data(json.utf8).write(to: store.url)
        return store.load()
    }

    func testFilesFromBeforeTheStyleChoiceStillLoadAndFollowTheSystem() throws {
        let loaded = try load(#"{"storage": "synced", "syncedFolder": "/home/ann/Sync/Notes"}"#)
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.preferences, Preferences(storage: .synced, syncedFolder: "/home/ann/Sync/Notes"))
        XCTAssertNil(loaded.preferences.colorScheme)
    }

    func testStyleChoiceRoundTripsNextToTheStorageChoice() throws {
        let folder = TemporaryFolder()
        let store = PreferencesStore(configFolder: folder.url)
        try store.save(Preferences(storage: .local, colorScheme: .dark))
        XCTAssertEqual(store.load().preferences, Preferences(storage: .local, colorScheme: .dark))
        XCTAssertTrue(try String(contentsOf: store.url, encoding: .utf8).contains("\"colorScheme\" : \"dark\""))
        try store.save(Preferences(storage: .local))
        XCTAssertFalse(try String(contentsOf: store.url, encoding: .utf8).contains("colorScheme"), "no choice, no key")
    }

    func testUnknownStyleFollowsTheSystemAndKeepsTheRest() throws {
        let loaded = try load(#"{"storage": "local", "colorScheme": "sepia"}"#)
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.preferences, Preferences(storage: .local, colorScheme: .system))
    }

    func testTrashIsEmptiedAfter30DaysUnlessChosenOtherwise() throws {
        XCTAssertEqual(try load(#"{"storage": "local"}"#).preferences.trashRetentionDays, 30, "files from before the choice")
        XCTAssertEqual(try load(#"{"storage": "local", "emptyTrashAfterDays": 7}"#).preferences.trashRetentionDays, 7)
        XCTAssertNil(try load(#"{"storage": "local", "emptyTrashAfterDays": 0}"#).preferences.trashRetentionDays, "never")
    }

    func testDamagedFileGivesDefaultsAndAMessage() throws {
        let folder = TemporaryFolder()
        let store = PreferencesStore(configFolder: folder.url)
        try Data("{\"storage\": \"cloud\"".utf8).write(to: store.url)
        let loaded = store.load()
        XCTAssertEqual(loaded.preferences, Preferences())
        XCTAssertTrue(loaded.problem?.contains("damaged") ?? false)
    }

    func testAHandEditTypoKeepsTheFileAndTheSyncedFolder() throws {
        // One missing comma: the synced folder must not be lost (new notes would go to the
        // local library), and the damaged file must be kept, never written over.
        let folder = TemporaryFolder()
        let store = PreferencesStore(configFolder: folder.url)
        let damaged = "{\n  \"colorScheme\" : \"dark\"\n  \"storage\" : \"synced\",\n  \"syncedFolder\" : \"\\/home\\/ann\\/Sync\\/Notes\"\n}\n"
        try Data(damaged.utf8).write(to: store.url)
        let loaded = store.load(now: Date(timeIntervalSince1970: 0))
        XCTAssertEqual(loaded.preferences.storage, .synced)
        XCTAssertEqual(loaded.preferences.syncedFolder, "/home/ann/Sync/Notes")
        XCTAssertEqual(loaded.preferences.colorScheme, .dark)
        let kept = folder.url.appendingPathComponent("preferences.json.damaged-19700101-000000")
        XCTAssertEqual(try String(contentsOf: kept, encoding: .utf8), damaged)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url.path), "nothing written until the user chooses")
        XCTAssertTrue(loaded.problem?.contains(kept.path) ?? false)
        XCTAssertTrue(loaded.problem?.contains("/home/ann/Sync/Notes") ?? false)
    }

    func testUnreadableFileGivesDefaultsAndAMessage() throws {
        let folder = TemporaryFolder()
        let store = PreferencesStore(configFolder: folder.url)
        try FileManager.default.createDirectory(at: store.url, withIntermediateDirectories: true)  // a folder where the file should be
        let loaded = store.load()
        XCTAssertEqual(loaded.preferences, Preferences())
        XCTAssertNotNil(loaded.problem)
    }

    func testKnownSyncFoldersAreFound() throws {
        let home = TemporaryFolder()
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("Sync/.stfolder"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("Nextcloud"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.url.appendingPathComponent("Dropbox-not-it"), withIntermediateDirectories: true)
        let found = SyncFolderDetector.find(home: home.url)
        XCTAssertEqual(found.map(\.client), ["Syncthing", "Nextcloud"])
        XCTAssertEqual(found.first?.notesFolder.lastPathComponent, "Notes")
        try FileManager.default.removeItem(at: home.url.appendingPathComponent("Sync/.stfolder"))
        XCTAssertEqual(SyncFolderDetector.find(home: home.url).map(\.client), ["Nextcloud"], "~/Sync without Syncthing's marker is not Syncthing's")
    }

    func testSyncedLibraryIsNeverCreatedWhenMissing() {
        let folder = TemporaryFolder()
        let missing = folder.url.appendingPathComponent("unmounted/Notes")
        XCTAssertThrowsError(try NoteLibrary(folder: missing).prepare(createIfMissing: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }
}
