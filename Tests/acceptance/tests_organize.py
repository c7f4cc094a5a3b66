"""Finding and ordering notes on the real binary: full-text search (Ctrl+F, accents and case
ignored, Escape clears) and pins (first in the list, kept in the library's .notula/pinned.txt,
so they survive a restart and a move to the synced folder)."""
import json
import os
import time

from notula_driver import (Notula, acceptance, check, children, extents_in_window, name, role, screenshot, wait_for,
                           window_geometry, xdotool)
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
    menu_item(app, "Pin Note")


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


def menu_item(app, label):
    """Main Menu (F10) ▸ label, activated through AT-SPI (a popover is a surface of its own)."""
    app.focus()
    app.key("F10")
    wait_for(lambda: app.find(lambda a: name(a) == label), 5, f"no {label!r} in the main menu").queryAction().doAction(0)


def drag_row_onto_notebook(app, title, note_id, notebook):
    """Drags the row of the note `title` (file `note_id`) onto the notebook, as a hand does (the
    app started with NOTULA_REPORT_DRAG)."""
    row = wait_for(lambda: app.row_accessible(title), 5, f"no {title!r} row")
    target = notebook_button(app, notebook)
    rx, ry, rw, rh = extents_in_window(row)
    tx, ty, tw, th = extents_in_window(target)
    app.focus()
    xdotool("mousemove", "--window", str(app.wid), str(rx + rw // 2), str(ry + rh // 2))
    xdotool("mousedown", "1")
    for step in range(1, 11):
        x = rx + rw // 2 + (tx + tw // 2 - rx - rw // 2) * step // 10
        y = ry + rh // 2 + (ty + th // 2 - ry - rh // 2) * step // 10
        xdotool("mousemove", "--window", str(app.wid), str(x), str(y))
        if step == 3:  # past GTK's drag threshold: on once the app says the drag began
            wait_for(lambda: f"notula-drag-begin {note_id}" in app.output, 5, "the row's drag did not begin")
        time.sleep(0.05)  # a hand's pace, not a wait for a result
    # Released once the notebook has the drag (on X11 a release before the target's answer
    # cancels the drop).
    wait_for(lambda: f"notula-drag-over {notebook}" in app.output, 5, "the drag never came over the notebook")
    xdotool("mouseup", "1")


def notebook_button(app, path):
    """The notebook's row in the sidebar, scrolled down to as a user does where it is not built
    yet (GTK 4.8 builds ~200 rows at once; 4.18 only those in view)."""
    def found_or_scrolled():
        button = app.button(lambda n: n == f"Notebook {path}")
        if button is None:
            notebooks = app.find(lambda a: role(a) == "list" and name(a) == "Notebooks")
            if notebooks is not None:
                x, y, width, height = extents_in_window(notebooks)
                app.hover_at(x + width // 2, y + height // 2)
                xdotool("click", "--repeat", "30", "--delay", "10", "5")  # the wheel, down
        return button
    # One walk of the accessible tree takes ~2 s with 200 notebooks: room for a few.
    return wait_for(found_or_scrolled, 20, f"no notebook {path!r} in the sidebar")


@acceptance
def notebooks_create_move_by_menu_and_drag_rename_delete(binary, home):
    write_notes(home)
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_DRAG": "1"})
    try:
        app.launch()
        app.wait_rows(["Meeting notes", "Trip to Lyon", "Groceries"])
        # New notebook: the + button, a name, Enter.
        app.click(wait_for(lambda: app.button(lambda n: n == "New Notebook"), 5, "no New Notebook button"))
        wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a).startswith("Name of the new notebook")), 5, "no name field")
        app.type("Work")
        screenshot("new-notebook.png")
        app.key("Return")
        notebook_button(app, "Work")
        check(os.path.isdir(os.path.join(home.library, "Work")), "the notebook is not a folder in the library")
        app.wait_rows([], timeout=5)  # the new notebook is chosen, and empty
        wait_for(lambda: "No notes in this notebook yet" in app.labels(), 5,
                 lambda: f"an empty notebook does not say so: {[t for t in app.labels() if t.startswith('No ')]}")
        # Move Groceries there by the menu.
        app.click(wait_for(lambda: app.button(lambda n: n == "All Notes"), 5, "no All Notes"))
        app.wait_rows(["Meeting notes", "Trip to Lyon", "Groceries"])
        app.click(app.row_accessible("Groceries"))
        menu_item(app, "Move to Notebook…")
        wait_for(lambda: app.button(lambda n: n == "Move to notebook Work"), 5, "no Work in the chooser")
        screenshot("move-to-notebook.png")
        app.click(wait_for(lambda: app.button(lambda n: n == "Move to notebook Work"), 5, "no Work in the chooser"))
        wait_for(lambda: os.path.exists(os.path.join(home.library, "Work", "a.md")) and not os.path.exists(os.path.join(home.library, "a.md")),
                 5, "the file did not move into the notebook's folder")
        app.click(notebook_button(app, "Work"))
        app.wait_rows(["Groceries"], timeout=5)
        screenshot("notebooks.png")
        # Drag Trip to Lyon onto Work.
        app.click(wait_for(lambda: app.button(lambda n: n == "All Notes"), 5, "no All Notes"))
        drag_row_onto_notebook(app, "Trip to Lyon", "b.md", "Work")
        wait_for(lambda: os.path.exists(os.path.join(home.library, "Work", "b.md")), 5, "dragging the row onto the notebook did not move the note")
        app.click(notebook_button(app, "Work"))
        app.wait_rows(["Trip to Lyon", "Groceries"], timeout=5, after="choosing Work")
        # Rename it with a note of it open: the folder is renamed, the note stays open.
        app.click(app.row_accessible("Groceries"))
        wait_for(lambda: (app.editor_text() or "").startswith("Groceries"), 5, "Groceries did not open")
        menu_item(app, "Rename Notebook…")
        wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a).startswith("New name for")), 5, "no name field")
        app.key("ctrl+a")
        app.type("Job")
        app.key("Return")
        wait_for(lambda: os.path.exists(os.path.join(home.library, "Job", "a.md")) and not os.path.exists(os.path.join(home.library, "Work")),
                 5, lambda: f"the folder was not renamed: {home.library_names()}")
        notebook_button(app, "Job")
        app.wait_rows(["Trip to Lyon", "Groceries"], timeout=5, after="renaming Work to Job")
        wait_for(lambda: (app.editor_text() or "").startswith("Groceries"), 5, "the open note was lost with the rename")
        # Delete it: it holds notes, so it asks, then the whole notebook goes to the Trash.
        menu_item(app, "Delete Notebook…")
        app.click(wait_for(lambda: app.button(lambda n: n == "Move to Trash"), 5, "no question before deleting a notebook with notes"))
        trashed = os.path.join(home.library, ".notula", "Trash", "files", "Job")
        wait_for(lambda: os.path.exists(os.path.join(trashed, "a.md")) and not os.path.exists(os.path.join(home.library, "Job")), 5,
                 "the notebook did not go to the Trash with its notes")
        app.wait_rows(["Meeting notes"], timeout=5)
    finally:
        app.cleanup()


def screen_size():
    width, height = xdotool("getdisplaygeometry").split()
    return int(width), int(height)


def visible_rows(app):
    """The titles of the notes list's rows that are on screen: inside the list's own area,
    the window and the screen (AT-SPI extents, in window coordinates)."""
    notes = app.notes_list()
    if notes is None:
        return []
    _, list_top, _, list_height = extents_in_window(notes)
    _, window_y, _, window_height = app.geometry()
    bottom = min(list_top + list_height, window_height, screen_size()[1] - window_y)
    shown = []
    for item in children(notes):
        if role(item) != "list item":
            continue
        _, top, _, height = extents_in_window(item)
        label = name(item) or next((name(child) for child in children(item) if name(child)), "")
        if height > 0 and top >= list_top and top + height <= bottom:
            shown.append(label.split(",")[0])
    return shown


@acceptance
def two_hundred_notebooks_leave_the_notes_list_its_room(binary, home):
    """Issue #28: with 200 notebooks the sidebar took the whole window, which grew past the
    screen, and no note was visible. The notebooks scroll in their own bounded area; the notes
    list keeps room for its rows at the usual size, in a small window, and after a start from a
    window size remembered far taller than the screen."""
    for index in range(6):
        home.write_note(f"n{index}.md", f"Note {index}\nbody {index}\n", age_seconds=100 * (index + 1))
    for index in range(200):
        os.makedirs(os.path.join(home.library, f"Book {index:03}"))
    app = Notula(binary, home)
    screen_width, screen_height = screen_size()
    try:
        app.launch()
        app.wait_rows([f"Note {index}" for index in range(6)], timeout=8)
        notebook_button(app, "Book 199")  # all 200 listed (the last one scrolled out of view)
        wait_for(lambda: len(visible_rows(app)) >= 4, 5, lambda: f"notes on screen: {visible_rows(app)}")
        _, _, width, height = app.geometry()
        check(height <= screen_height, f"the window is {width}x{height}, taller than the {screen_width}x{screen_height} screen")
        screenshot("two-hundred-notebooks.png")
        _, list_top, _, list_height = extents_in_window(app.notes_list())
        check(list_height >= 180, f"the notes list is {list_height} px tall in a {height} px window")
        # A notebook far down the list is reachable: chosen, it shows its (empty) notes.
        app.click(wait_for(lambda: app.button(lambda n: n == "New Notebook"), 5, "no New Notebook button"))
        wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a).startswith("Name of the new notebook")), 5, "no name field")
        app.type("Zebra")
        app.key("Return")
        notebook_button(app, "Zebra")
        app.wait_rows([], timeout=5)
        seen = []

        def zebra_in_view():
            # Looked up again each time, every match: the sidebar's rows are recycled as it
            # scrolls, so a row widget GTK has set aside (0 high) may still carry the name
            # beside the one on screen.
            zebras = app.find_all(lambda a: role(a) == "push button" and name(a) == "Notebook Zebra")
            seen[:] = [extents_in_window(zebra) for zebra in zebras]
            return any(height > 0 and 0 <= top and top + height <= list_top for _, top, _, height in seen)
        # One walk of the tree with 200 notebooks takes ~2 s: room for a few.
        wait_for(zebra_in_view, 15, lambda: f"the new notebook, chosen, is not scrolled into view: at {seen}, the list at {list_top}")
        app.click(wait_for(lambda: app.button(lambda n: n == "All Notes"), 5, "no All Notes"))
        app.wait_rows([f"Note {index}" for index in range(6)], timeout=5)
        # Move to Notebook… lists all 201 and stays on the screen, Cancel in reach.
        app.click(app.row_accessible("Note 0"))
        menu_item(app, "Move to Notebook…")
        chooser = wait_for(lambda: xdotool("search", "--onlyvisible", "--name", "^Move “Note 0”$", check_rc=False).split(), 5,
                           "no Move to Notebook window")[0]
        _, _, _, chooser_height = window_geometry(chooser)
        check(chooser_height <= screen_height, f"Move to Notebook… is {chooser_height} px tall on a {screen_height} px screen")
        cancel = wait_for(lambda: app.button(lambda n: n == "Cancel"), 5, "no Cancel in Move to Notebook…")
        _, cancel_top, _, cancel_height = extents_in_window(cancel)
        check(0 < cancel_top + cancel_height <= chooser_height, f"Cancel is at {cancel_top} in a {chooser_height} px window")
        screenshot("two-hundred-notebooks-move.png")
        notebook_in_chooser = app.button(lambda n: n == "Move to notebook Book 199")
        check(notebook_in_chooser is not None, "the last notebook is not in Move to Notebook…")
        app.click(cancel)
        wait_for(lambda: not xdotool("search", "--onlyvisible", "--name", "^Move “Note 0”$", check_rc=False).split(), 5,
                 "Cancel did not close Move to Notebook…")
        # A small window: the notebooks give way, the list keeps rows on screen.
        xdotool("windowsize", str(app.wid), "640", "420")
        wait_for(lambda: app.geometry()[3] <= 480, 5, lambda: f"the window stays {app.geometry()[2:]} (asked 640x420)")
        wait_for(lambda: len(visible_rows(app)) >= 2, 5,
                 lambda: f"in a {app.geometry()[2:]} window the notes on screen are {visible_rows(app)}")
        screenshot("two-hundred-notebooks-small.png")
        check(app.quit() == 0, "Ctrl+Q failed")
        with open(home.window_state_file) as handle:
            state = json.load(handle)
        check(state["height"] <= screen_height, f"window.json remembers a {state['height']} px tall window")
        # A size an earlier version remembered (stretched by the notebooks) fits the screen.
        state["height"] = 6000
        with open(home.window_state_file, "w") as handle:
            json.dump(state, handle)
        app.launch()
        app.wait_rows([f"Note {index}" for index in range(6)], timeout=8)
        wait_for(lambda: app.geometry()[3] <= screen_height, 5, lambda: f"the window is {app.geometry()[2:]} on a {screen_height} px screen")
        wait_for(lambda: len(visible_rows(app)) >= 4, 5, lambda: f"notes on screen: {visible_rows(app)}")
        check(app.quit() == 0, "second Ctrl+Q failed")
    finally:
        app.cleanup()
