"""Finding and ordering notes on the real binary: full-text search (Ctrl+F, accents and case
ignored, Escape clears) and pins (first in the list, kept in the library's .notula/pinned.txt,
so they survive a restart and a move to the synced folder)."""
import os
import time

from notula_driver import Notula, acceptance, check, name, role, screenshot, wait_for
from tests_storage import choose_folder, click_button, notes_in

PINS = os.path.join(".notula", "pinned.txt")


def write_notes(home):
    home.write_note("a.md", "Groceries\nmilk, Brötchen, apples\n", age_seconds=300)
    home.write_note("b.md", "Trip to Lyon\npassport\n" + "packing list\n" * 30 + "book the café near the station\n", age_seconds=200)
    home.write_note("c.md", "Meeting notes\nbudget for the CAFE renovation\n", age_seconds=100)


def search(app, text):
    app.focus()
    app.key("ctrl+f")
    wait_for(lambda: app.find(lambda a: name(a) == "Search notes" and role(a) in ("text", "entry")) is not None, 5, "no search field")
    app.key("ctrl+a")
    app.type(text)


@acceptance
def search_finds_words_in_bodies_ignoring_case_and_accents(binary, home):
    write_notes(home)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Meeting notes", "Trip to Lyon", "Groceries"])
        search(app, "brotchen")
        app.wait_rows(["Groceries"], timeout=5)
        search(app, "cafe")
        rows = app.wait_rows(["Meeting notes", "Trip to Lyon"], timeout=5)
        screenshot("search-highlights.png")
        check(any("café" in label for label in app.labels()), f"the matching line of a long note is not shown: {rows}")
        search(app, "zebra")
        wait_for(lambda: any(label.startswith("No notes contain") for label in app.labels()), 5, "no 'no results' message")
        app.key("Escape")
        app.wait_rows(["Meeting notes", "Trip to Lyon", "Groceries"], timeout=5)
    finally:
        app.cleanup()


def pin_selected(app, title):
    app.click(wait_for(lambda: app.row_accessible(title), 5, f"no row {title!r}"))
    app.focus()
    app.key("F10")
    item = wait_for(lambda: app.find(lambda a: name(a) == "Pin Note"), 5, "no Pin Note in the main menu")
    # A popover menu is its own surface: AT-SPI gives coordinates within it, so activate the
    # item through its accessible action, as a screen reader user would.
    item.queryAction().doAction(0)


@acceptance
def pinned_note_goes_first_and_stays_after_restart_and_move(binary, home):
    write_notes(home)
    sync = os.path.join(home.root, "Sync")
    os.makedirs(os.path.join(sync, ".stfolder"))
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Meeting notes", "Trip to Lyon", "Groceries"])
        pin_selected(app, "Groceries")
        rows = app.wait_rows(["Groceries", "Meeting notes", "Trip to Lyon"], timeout=5)
        check("pinned" in rows[0], f"the row does not say it is pinned: {rows[0]!r}")
        wait_for(lambda: os.path.exists(os.path.join(home.library, PINS)), 5, "no pin file in the library")
        with open(os.path.join(home.library, PINS), encoding="utf-8") as handle:
            check("a.md" in handle.read().split("\n"), "the pin file does not name the note")
        app.quit()
        app = Notula(binary, home)
        app.launch()
        app.wait_rows(["Groceries", "Meeting notes", "Trip to Lyon"], timeout=5)
        # Move the library to the synced folder: the pin goes with it.
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(lambda: app.find(lambda a: name(a) == "Store notes in a Synced Folder"), 8, "Preferences did not open"))
        choose_folder(app, sync)
        click_button(app, "Move Notes")
        synced = os.path.join(sync, "Notes")
        wait_for(lambda: len(notes_in(synced)) == 3 and os.path.exists(os.path.join(synced, PINS)), 10,
                 lambda: f"after the move: {sorted(os.listdir(synced)) if os.path.isdir(synced) else 'no folder'}")
        app.wait_rows(["Groceries", "Meeting notes", "Trip to Lyon"], timeout=5)
    finally:
        app.cleanup()
