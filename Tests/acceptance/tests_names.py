"""Acceptance test of names that are not UTF-8 (issue #28): a note "caf\\xe9.md" and a notebook
"Book\\xff" made by another program are listed (shown with "�"), edited and saved under their
own bytes, moved with every other note to a synced folder and back, and renamed to fix when
the window's notice is taken up."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import Notula, acceptance, check, name, press_in_window, role, wait_for  # noqa: E402
from tests_status_light import type_at_end  # noqa: E402
from tests_storage import choose_folder, click_button  # noqa: E402

CAFE = b"caf\xe9.md"
BOOK = b"Book\xff"


def names(folder):
    """The names in `folder` as the file system holds them (bytes), or an empty set."""
    try:
        return set(os.listdir(os.fsencode(folder)))
    except FileNotFoundError:
        return set()


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


@acceptance
def names_that_are_not_utf8_are_listed_edited_moved_and_fixed(binary, home):
    library = os.fsencode(home.library)
    os.makedirs(library, exist_ok=True)
    with open(os.path.join(library, CAFE), "wb") as handle:
        handle.write("Café plans\nMeet at noon".encode())
    os.makedirs(os.path.join(library, BOOK))
    with open(os.path.join(library, BOOK, b"Reading list.md"), "wb") as handle:
        handle.write(b"Reading list\n- Dune")
    with open(os.path.join(library, b"Plain.md"), "wb") as handle:
        handle.write(b"Plain")
    sync = os.path.join(home.root, "Sync")
    os.makedirs(os.path.join(sync, ".stfolder"))
    synced = os.fsencode(os.path.join(sync, "Notes"))
    app = Notula(binary, home)
    try:
        app.launch()
        # Listed: the note by its text's title, the notebook with a replacement character.
        wait_for(lambda: sorted(row.split(",")[0] for row in app.rows()) == ["Café plans", "Plain", "Reading list"], 8,
                 lambda: f"rows: {app.rows()}")
        wait_for(lambda: app.find(lambda a: name(a) == "Book\ufffd"), 5, "the notebook Book\\xff is not in the sidebar")
        wait_for(lambda: app.find(lambda a: "names in your notes folder are not valid text" in name(a)), 8,
                 "no notice offering to fix the names")

        # Edited and saved under its own name.
        app.click(wait_for(lambda: app.row_accessible("Café plans"), 5, "no row for caf\\xe9.md"))
        wait_for(lambda: "Meet at noon" in (app.editor_text() or ""), 5, "the note did not open")
        type_at_end(app, " sharp")
        wait_for(lambda: read(os.path.join(library, CAFE)).endswith(b"noon sharp"), 8,
                 lambda: f"the edit did not reach caf\\xe9.md: {sorted(names(library))}")
        # The save swaps its temporary with the note, then removes the temporary (holding the
        # old version by then): the folder settles once that save has ended.
        wait_for(lambda: names(library) == {CAFE, BOOK, b"Plain.md"} | ({b".notula"} & names(library)), 5,
                 lambda: f"a file was saved under another name: {sorted(names(library))}")

        # Moved with every other note to a synced folder, by its bytes, nothing left behind.
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(lambda: app.find(lambda a: name(a) == "Store notes in a Synced Folder"), 8, "Preferences did not open"))
        choose_folder(app, sync)
        wait_for(lambda: app.find(lambda a: "Move 3 notes" in name(a)), 8, "no confirmation before moving")
        click_button(app, "Move Notes")
        wait_for(lambda: {CAFE, BOOK, b"Plain.md"} <= names(synced) and not ({CAFE, BOOK, b"Plain.md"} & names(library)), 10,
                 lambda: f"after the move: synced {sorted(names(synced))}, local {sorted(names(library))}")
        check(read(os.path.join(synced, CAFE)).endswith(b"noon sharp"), "the note changed on the way")
        check(names(os.path.join(synced, BOOK)) == {b"Reading list.md"}, "the notebook's note did not arrive")
        press_in_window("Preferences", "Escape")  # it covers the notice: gone before the click below
        wait_for(lambda: app.find(lambda a: name(a) == "Store notes on This Computer") is None, 5, "Preferences did not close")

        # Rename to Fix: the names their bytes meant, everywhere the notes are now.
        wait_for(lambda: sorted(row.split(",")[0] for row in app.rows()) == ["Café plans", "Plain", "Reading list"], 8,
                 lambda: f"rows after the move: {app.rows()}")
        fix = wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "Rename to Fix"), 8, "no Rename to Fix button")
        app.click(fix)
        wait_for(lambda: {"café.md".encode(), "Bookÿ".encode(), b"Plain.md"} <= names(synced) and not ({CAFE, BOOK} & names(synced)), 8,
                 lambda: f"after Rename to Fix: {sorted(names(synced))}")
        check(read(os.path.join(synced, "café.md".encode())).endswith(b"noon sharp"), "the renamed note lost its text")
        wait_for(lambda: app.find(lambda a: name(a) == "Bookÿ"), 5, "the sidebar does not show the fixed notebook name")
        wait_for(lambda: sorted(row.split(",")[0] for row in app.rows()) == ["Café plans", "Plain", "Reading list"], 8,
                 lambda: f"rows after fixing: {app.rows()}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
