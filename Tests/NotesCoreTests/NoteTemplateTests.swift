import Foundation
import TestSupport
import XCTest
@testable import NotesCore

/// Issue #48: templates are the notes of a "Templates" notebook at any depth, named by their
/// file names; a note made from one has its placeholders filled, its title first when asked,
/// and its relative links leading where they led from the template's folder.
final class NoteTemplateTests: LibraryIndexTestCase {
    private let date = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 …, UTC
    private let utc = TimeZone(identifier: "UTC")!

    func testTemplatesAreTheNotesOfATemplatesNotebookNamedByTheirFiles() {
        XCTAssertTrue(NoteTemplate.isTemplate("Templates/Today.md"))
        XCTAssertTrue(NoteTemplate.isTemplate("Work/templates/Meeting.md"), "any depth, any case")
        XCTAssertFalse(NoteTemplate.isTemplate("Templates.md"), "a note named so is not in the notebook")
        XCTAssertFalse(NoteTemplate.isTemplate("My Templates/Today.md"))
        XCTAssertEqual(NoteTemplate.name(of: "Work/Templates/Weekly review.md"), "Weekly review")
        XCTAssertEqual(NoteTemplate.name(of: "Templates/.hidden"), ".hidden")
    }

    func testPlaceholdersAreFilledTheCursorMarkedAndTheTitleFirst() {
        XCTAssertEqual(NoteTemplate.isoDate(date, timeZone: utc), "2026-11-18")
        let filled = NoteTemplate.fill("# {{date}}\n\n{{title}} at {{time}}\n- [ ] {{cursor}}\nend", templateID: "Templates/Today.md",
                                       notebook: "", title: "2026-11-18", titleFirst: true, date: date, timeZone: utc)
        XCTAssertEqual(filled.text, "# 2026-11-18\n\n2026-11-18 at 11:06\n- [ ] \nend", "the template's first line is the title")
        XCTAssertEqual(filled.cursor, "# 2026-11-18\n\n2026-11-18 at 11:06\n- [ ] ".unicodeScalars.count)
        let titled = NoteTemplate.fill("Tasks\n- [ ] {{cursor}}{{cursor}}", templateID: "Templates/Today.md", notebook: "", title: "2026-11-18",
                                       titleFirst: true, date: date, timeZone: utc)
        XCTAssertEqual(titled.text, "2026-11-18\nTasks\n- [ ] ", "the title above a template that does not say it; one cursor")
        XCTAssertEqual(titled.cursor, "2026-11-18\nTasks\n- [ ] ".unicodeScalars.count)
        XCTAssertNil(NoteTemplate.fill("no cursor", templateID: "Templates/x.md", notebook: "", title: "T", titleFirst: false, date: date).cursor)
    }

    func testRelativeLinksLeadWhereTheyLedFromTheTemplatesFolder() {
        let filled = NoteTemplate.fill("{{date}}\n![logo](../attachments/logo.png) [web](https://example.org/a.png)",
                                       templateID: "Templates/Today.md", notebook: "", title: "2026-11-18", titleFirst: true,
                                       date: date, timeZone: utc)
        XCTAssertEqual(filled.text, "2026-11-18\n![logo](attachments/logo.png) [web](https://example.org/a.png)")
        let deeper = NoteTemplate.fill("![logo](../attachments/logo.png)", templateID: "Templates/Today.md", notebook: "Work/Daily",
                                       title: "x", titleFirst: false, date: date, timeZone: utc)
        XCTAssertEqual(deeper.text, "![logo](../../attachments/logo.png)")
    }

    func testTheIndexFindsTemplatesAndLeavesThemOutOfTitlesAndTheDesktopsSearch() throws {
        try onDiskAndInMemory {
            write("Templates/Today.md", "# {{date}}\n\nplan the day\n")
            write("Work/Templates/Meeting.md", "Meeting\n\nplan the agenda\n")
            write("today.md", "Today\n\nplan nothing\n")
            write("templates.md", "Templates\n\nplan\n")
            let index = try makeIndex()
            _ = try reconciled(index)
            XCTAssertEqual(index.templateIDs(), ["Templates/Today.md", "Work/Templates/Meeting.md"])
            XCTAssertEqual(index.notesNotTemplates(titled: TitleKey.of("Meeting")), [])
            XCTAssertEqual(index.notesNotTemplates(titled: TitleKey.of("today")), ["today.md"])
            XCTAssertEqual(Set(index.shellSearch(["plan"])), ["today.md", "templates.md"], "templates are not found from the desktop")
        }
    }
}
