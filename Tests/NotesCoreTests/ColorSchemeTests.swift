import Foundation
import XCTest
@testable import NotesCore

final class ColorSchemeTests: XCTestCase {
    func testPortalValuesFollowTheFreedesktopSpecification() {
        XCTAssertEqual(SystemColorScheme(portalValue: 0, themeName: "Adwaita"), .noPreference)
        XCTAssertEqual(SystemColorScheme(portalValue: 1, themeName: "Adwaita"), .preferDark)
        XCTAssertEqual(SystemColorScheme(portalValue: 2, themeName: "Adwaita"), .preferLight)
        XCTAssertEqual(SystemColorScheme(portalValue: 7, themeName: "Adwaita"), .noPreference, "values from a newer spec")
        XCTAssertEqual(SystemColorScheme(portalValue: 2, themeName: "Adwaita-dark"), .preferLight, "the portal wins over the theme")
    }

    func testWithoutAPortalADarkThemeNameCountsAsDark() {
        XCTAssertEqual(SystemColorScheme(portalValue: nil, themeName: nil), .noPreference)
        XCTAssertEqual(SystemColorScheme(portalValue: nil, themeName: "Adwaita"), .noPreference)
        XCTAssertEqual(SystemColorScheme(portalValue: nil, themeName: "Adwaita-dark"), .preferDark)
        XCTAssertEqual(SystemColorScheme(portalValue: nil, themeName: "Yaru-Dark"), .preferDark)
        XCTAssertEqual(SystemColorScheme(portalValue: nil, themeName: "darkness"), .noPreference)
    }

    func testTheChoiceInPreferencesOverridesTheSystem() {
        let systems: [SystemColorScheme] = [.noPreference, .preferDark, .preferLight]
        XCTAssertEqual(systems.map { ColorScheme.system.usesDarkStyle(system: $0) }, [false, true, false])
        XCTAssertEqual(systems.map { ColorScheme.light.usesDarkStyle(system: $0) }, [false, false, false])
        XCTAssertEqual(systems.map { ColorScheme.dark.usesDarkStyle(system: $0) }, [true, true, true])
    }

    /// About shows `notulaVersion`; the AppStream file lists releases newest first.
    func testVersionMatchesTheNewestReleaseInTheMetainfo() throws {
        let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let metainfo = try String(contentsOf: repo.appendingPathComponent("data/\(notulaApplicationID).metainfo.xml.in"), encoding: .utf8)
        let newest = try XCTUnwrap(metainfo.range(of: #"<release version="([^"]+)""#, options: .regularExpression))
        XCTAssertEqual(metainfo[newest], #"<release version="\#(notulaVersion)""#)
    }
}
