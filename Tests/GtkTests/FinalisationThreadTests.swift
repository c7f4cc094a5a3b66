import CGtk
import Foundation
@testable import Gtk
import TestSupport
import XCTest

/// Where GTK objects are finalised when the last Swift reference to a wrapper goes on another
/// thread (a background closure that captured a widget): always on the main thread (issue #12).
final class FinalisationThreadTests: GtkTestCase, @unchecked Sendable {  // XCTest uses it on the main thread only
    nonisolated required init(name: String, testClosure: @escaping (XCTestCase) throws -> Void) {
        super.init(name: name, testClosure: testClosure)
    }

    /// Filled by the weak-reference callback below (C callbacks cannot capture context).
    nonisolated static let finalisedOnMainThread = Shared<[Bool]>([])

    private func watchFinalisation(of object: Object) {
        g_object_weak_ref(object.raw.assumingMemoryBound(to: GObject.self), { _, _ in
            FinalisationThreadTests.finalisedOnMainThread.update { $0.append(Thread.isMainThread) }
        }, nil)
    }

    nonisolated func testAWrapperReleasedOnABackgroundThreadIsFinalisedOnTheMainThread() {
        MainActor.assumeIsolated {
            Self.finalisedOnMainThread.value = []
            var label: Label? = Label("made on the main thread")
            var list: IdListModel? = IdListModel(ids: ["a", "b"])
            watchFinalisation(of: label!)
            watchFinalisation(of: list!)
            let released = DispatchSemaphore(value: 0)
            // The background closure holds the last references and drops them there.
            DispatchQueue.global().async { [label, list] in
                _ = (label, list)
                released.signal()
            }
            label = nil
            list = nil
            XCTAssertEqual(released.wait(timeout: .now() + 5), .success)
            // The closure's captures are released after it returns: wait for both finalisations.
            XCTAssertTrue(spin(until: { Self.finalisedOnMainThread.value.count == 2 }), "both objects are finalised")
            XCTAssertEqual(Self.finalisedOnMainThread.value, [true, true])
        }
    }

    nonisolated func testAWrapperReleasedOnTheMainThreadIsFinalisedAtOnce() {
        MainActor.assumeIsolated {
            Self.finalisedOnMainThread.value = []
            var label: Label? = Label("short-lived")
            watchFinalisation(of: label!)
            label = nil
            XCTAssertEqual(Self.finalisedOnMainThread.value, [true])
        }
    }
}
