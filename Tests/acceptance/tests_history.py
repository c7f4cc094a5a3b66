"""Version history on the real binary: type, wait, type more; Browse Versions (Ctrl+Shift+H)
lists the versions kept meanwhile; restoring the older one puts it in the editor and the
file, and one Ctrl+Z brings back the newer text. The history lives outside the library."""
import os
import stat
import time

from notula_driver import (Notula, acceptance, check, children, find_one, history_versions, name, role, screenshot,
                           wait_file, wait_for)


def version_rows(app):
    """The rows of Browse Versions' list, newest first (their accessible names)."""
    return [name(a) for a in app.find_all(lambda a: role(a) == "push button" and ("While editing" in name(a) or "Opened" in name(a)
                                                                                 or "Closed" in name(a) or "Before" in name(a)))]


@acceptance
def restoring_an_older_version_is_an_edit_that_undo_takes_back(binary, home):
    # The default policy: the first save of the writing keeps a version at once, later saves
    # at most every 5 minutes (leaving the note keeps one too).
    app = Notula(binary, home)
    try:
        app.launch()
        app.focus()
        file_name = app.new_note()
        app.type("Shopping")
        app.key("Return")
        app.type("milk")
        wait_file(home, file_name, b"Shopping\nmilk")
        time.sleep(1.5)  # wait, then type more
        app.key("Return")
        app.type("eggs")
        newer = "Shopping\nmilk\neggs"
        wait_file(home, file_name, newer.encode())

        app.key("ctrl+shift+h")
        wait_for(lambda: version_rows(app), 5, "Browse Versions lists no version")
        rows = version_rows(app)
        check(all(" ago" in row or "now" in row.lower() for row in rows), f"rows without relative dates: {rows}")
        chosen = wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a) == "Chosen Version"), 5, "no Chosen Version column")
        current = app.find(lambda a: role(a) == "text" and name(a) == "Current Text")
        check(current is not None, "no Current Text column")

        def text_of(acc):
            text = acc.queryText()
            return text.getText(0, text.characterCount)

        # The newest version is chosen first: the writing as it was saved before "eggs".
        wait_for(lambda: text_of(chosen) not in ("", newer), 5, lambda: f"the chosen version shows {text_of(chosen)!r}")
        older = text_of(chosen)
        check(newer.startswith(older) and "milk" in older, f"the version kept while writing is {older!r}")
        check(text_of(current) == newer, f"the current text column shows {text_of(current)!r}")
        app.click(chosen)  # the pointer off the list (its tooltip would cover a row)
        screenshot("browse-versions.png")
        app.click(app.button(lambda n: n == "Restore"))
        wait_for(lambda: app.editor_text() == older, 5, lambda: f"the editor holds {app.editor_text()!r}")
        wait_file(home, file_name, older.encode())
        app.click_editor()
        app.key("ctrl+z")
        wait_for(lambda: app.editor_text() == newer, 5, lambda: f"after Ctrl+Z the editor holds {app.editor_text()!r}")
        wait_file(home, file_name, newer.encode())

        store = os.path.join(home.data, "notula", "History")
        check(stat.S_IMODE(os.stat(store).st_mode) == 0o700, "the history folder is not private (0700)")
        check(stat.S_IMODE(os.stat(os.path.join(store, "history.sqlite")).st_mode) == 0o600, "the history file is not 0600")
        check(not any("History" in n or n.endswith(".sqlite") for n in home.library_names()), "history files in the library")
        kept = [origin for path, origin, _ in history_versions(home) if path.endswith(file_name)]
        check("beforeRestore" in kept, f"the text Restore replaced is not kept as a version: {kept}")
    finally:
        app.cleanup()


@acceptance
def every_notes_history_marks_a_note_another_program_deleted(binary, home):
    """Issue #28: Browse Versions ▸ All Notes listed a note another program had deleted as if it
    were there. Its heading says "(deleted)"; its versions can still be read."""
    home.write_note("trip.md", "Trip\nday 1: museum\n", age_seconds=60)
    home.write_note("gone.md", "Gone soon\nlast words\n", age_seconds=600)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Trip", "Gone soon"])
        app.click(app.row_accessible("Gone soon"))  # opened: a version is kept
        wait_for(lambda: (app.editor_text() or "").startswith("Gone soon"), 5, "Gone soon did not open")
        app.click(app.row_accessible("Trip"))
        wait_for(lambda: (app.editor_text() or "").startswith("Trip"), 5, "Trip did not open")
        wait_for(lambda: any(path.endswith("gone.md") for path, _, _ in history_versions(home)), 5, "no version of gone.md kept")
        os.remove(os.path.join(home.library, "gone.md"))  # by another program: Notula is not told why
        app.wait_rows(["Trip"], timeout=5)
        app.focus()
        app.key("ctrl+shift+h")
        versions = wait_for(lambda: next((w for w in children(app.accessible_app()) if name(w) == "Versions of “Trip”"), None), 5,
                            "Browse Versions did not open")
        app.click(wait_for(lambda: find_one(versions, lambda a: role(a) == "push button" and name(a) == "All Notes"), 5,
                           "no All Notes in Browse Versions"))
        headings = lambda: [name(a) for a in app.find_all(lambda a: role(a) == "label" and name(a).startswith(("Trip", "Gone soon")))]
        wait_for(lambda: "Gone soon (deleted)" in headings(), 5, lambda: f"the deleted note is not marked: {headings()}")
        check("Trip" in headings() and "Trip (deleted)" not in headings(), f"the note still there is marked: {headings()}")
        screenshot("history-all-notes-deleted.png")
        app.key("Escape")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
