"""Version history on the real binary: type, wait, type more; Browse Versions (Ctrl+Shift+H)
lists the versions kept meanwhile; restoring the older one puts it in the editor and the
file, and one Ctrl+Z brings back the newer text. The history lives outside the library."""
import os
import stat
import time

import pyatspi

from notula_driver import Notula, acceptance, check, has_state, name, role, screenshot, wait_file, wait_for


def version_rows(app):
    """The rows of Browse Versions' list, newest first (their accessible names)."""
    return [name(a) for a in app.find_all(lambda a: role(a) == "push button" and ("While editing" in name(a) or "Opened" in name(a)
                                                                                 or "Closed" in name(a) or "Before" in name(a)))]


@acceptance
def restoring_an_older_version_is_an_edit_that_undo_takes_back(binary, home):
    # Versions while editing every 2 s instead of every few minutes: the test cannot wait minutes.
    app = Notula(binary, home, extra_env={"NOTULA_HISTORY_INTERVAL": "2"})
    try:
        app.launch()
        app.focus()
        app.key("ctrl+n")
        wait_for(lambda: len(home.md_files()) == 1 and has_state(app.editor(), pyatspi.STATE_FOCUSED), 5, "Ctrl+N gave no note")
        file_name = home.md_files()[0]
        app.type("Shopping")
        app.key("Return")
        app.type("milk")
        older = b"Shopping\nmilk"
        wait_file(home, file_name, older)
        app.key("Return")  # wait, then type more: the next save is more than 2 s later
        time.sleep(2.5)
        app.type("eggs")
        newer = b"Shopping\nmilk\neggs"
        wait_file(home, file_name, newer)

        app.key("ctrl+shift+h")
        wait_for(lambda: len(version_rows(app)) >= 2, 5, lambda: f"Browse Versions lists {version_rows(app)}")
        rows = version_rows(app)
        check(all("ago" in row or "now" in row.lower() for row in rows), f"rows without relative dates: {rows}")
        chosen = wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a) == "Chosen Version"), 5, "no Chosen Version column")
        current = app.find(lambda a: role(a) == "text" and name(a) == "Current Text")
        check(current is not None, "no Current Text column")

        def text_of(acc):
            text = acc.queryText()
            return text.getText(0, text.characterCount)

        wait_for(lambda: text_of(chosen) == newer.decode(), 5, lambda: f"the newest version is not chosen first: {text_of(chosen)!r}")
        row = app.find(lambda a: role(a) == "push button" and name(a) == rows[1])
        app.click(row)
        wait_for(lambda: text_of(chosen) == older.decode(), 5, lambda: f"the older version shows {text_of(chosen)!r}")
        check(text_of(current) == newer.decode(), f"the current text column shows {text_of(current)!r}")
        app.click(chosen)  # the pointer off the list (its tooltip would cover a row)
        screenshot("browse-versions.png")
        app.click(app.button(lambda n: n == "Restore This Version"))
        wait_for(lambda: app.editor_text() == older.decode(), 5, lambda: f"the editor holds {app.editor_text()!r}")
        wait_file(home, file_name, older)
        app.click(app.editor())
        app.key("ctrl+z")
        wait_for(lambda: app.editor_text() == newer.decode(), 5, lambda: f"after Ctrl+Z the editor holds {app.editor_text()!r}")
        wait_file(home, file_name, newer)

        store = os.path.join(home.data, "notula", "History")
        check(stat.S_IMODE(os.stat(store).st_mode) == 0o700, "the history folder is not private (0700)")
        check(stat.S_IMODE(os.stat(os.path.join(store, "history.sqlite")).st_mode) == 0o600, "the history file is not 0600")
        check(not any("History" in n or n.endswith(".sqlite") for n in home.library_names()), "history files in the library")
    finally:
        app.cleanup()
