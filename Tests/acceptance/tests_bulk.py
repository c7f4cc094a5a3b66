"""Many notes at once on the real binary (issue #47): Ctrl+click, Shift+click and Ctrl+A select
several notes; the pane in the editor's place says how many and offers the actions; Move to
Notebook…, Add Tag…, Delete and a drag act on all of them; one Undo (Ctrl+Z) puts all back."""
import os

import pyatspi

from notula_driver import Notula, acceptance, check, has_state, name, role, screenshot, wait_for, xdotool
from tests_organize import drag_row_onto_notebook, search

NOTES = {
    "a.md": "Alpha\nfirst note\n",
    "b.md": "Bravo\r\nsecond note\r\nwith CRLF\r\n",
    "c.md": "Charlie\nthird note\n",
    "d.md": "Delta\nfourth note\n",
    "e.md": "Echo\nfifth note\n",
}
ORDER = ["Alpha", "Bravo", "Charlie", "Delta", "Echo"]


def write_notes(home):
    # Oldest last: the list (newest first) shows them in ORDER.
    for age, (file_name, text) in enumerate(NOTES.items()):
        home.write_note(file_name, text, age_seconds=100 * (age + 1))


def launch(binary, home):
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_BULK": "1", "NOTULA_REPORT_DRAG": "1"})
    app.launch()
    app.wait_rows(ORDER)
    return app


def click_row(app, title, modifier=None):
    """Clicks a note's row, with Ctrl or Shift held when `modifier` says so."""
    row = wait_for(lambda: app.row_accessible(title), 5, f"no row {title!r}")
    if modifier is None:
        app.click(row)
        return
    app.focus()
    xdotool("keydown", modifier)
    try:
        app.click(row)
    finally:
        xdotool("keyup", modifier)


def shown(acc):
    """Whether the object and every ancestor up to its window are visible (GTK 4.18 keeps the
    children of a hidden widget in the tree, each visible itself)."""
    node = acc
    for _ in range(40):
        if node is None or role(node) in ("frame", "window", "dialog", "application"):
            return True
        if not has_state(node, pyatspi.STATE_VISIBLE):
            return False
        node = node.parent
    return True


def open_row(app, title):
    """A plain click on a note's row, once its text is in the editor."""
    click_row(app, title)
    wait_for(lambda: (app.editor_text() or "").startswith(title), 5, f"{title} did not open")


def selected_headline(app):
    """What the pane in the editor's place says ("3 notes selected"), while it shows."""
    label = app.find(lambda a: role(a) == "label" and name(a).endswith(" notes selected") and shown(a))
    return name(label) if label is not None else None


def wait_selected(app, count):
    wait_for(lambda: selected_headline(app) == f"{count} notes selected", 5,
             lambda: f"the pane does not say {count} notes selected: {selected_headline(app)!r}")


def list_says_selected(app, count):
    """Waits until the notes list tells the accessibility bus (its Selection interface) that
    `count` notes are selected, and that many of its rows are in the selected state."""
    def said():
        notes = app.find(lambda a: role(a) == "list" and name(a) == app.list_name)
        if notes is None:
            return None
        rows = [child for child in (notes.getChildAtIndex(i) for i in range(notes.childCount)) if child is not None]
        selected_rows = sum(1 for row in rows if has_state(row, pyatspi.STATE_SELECTED))
        return (notes.querySelection().nSelectedChildren, selected_rows)
    wait_for(lambda: said() == (count, count), 5, lambda: f"the list says (selected, rows selected) = {said()}, not {count}")


def trashed(home):
    """The notes in the library's Trash."""
    folder = os.path.join(home.library, ".notula", "Trash", "files")
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def wait_bulk(app, action, mark, done):
    """Waits for the app's report that the action (or its undo) is done; its fields."""
    def report():
        for line in list(app.output)[mark:]:
            if line.startswith(f"notula-bulk-done action={action} "):
                return dict(field.split("=", 1) for field in line.split()[1:])
        return None
    fields = wait_for(report, 15, lambda: f"no report of {action}; output: {app.tail()}")
    check(fields["done"] == str(done) and fields["failed"] == "0",
          f"{action}: {fields}, expected {done} done and none failed")
    return fields


@acceptance
def ctrl_click_three_notes_and_move_them_to_a_notebook(binary, home):
    write_notes(home)
    os.makedirs(os.path.join(home.library, "Work"))
    app = launch(binary, home)
    try:
        open_row(app, "Alpha")
        click_row(app, "Charlie", "ctrl")
        click_row(app, "Echo", "ctrl")
        wait_selected(app, 3)
        list_says_selected(app, 3)
        check(app.editor() is None or not shown(app.editor()),
              "the editor still shows one note while three are selected")
        labels = app.labels()
        check(all(f"“{title}”" in "\n".join(labels) for title in ("Alpha", "Charlie", "Echo")),
              f"the pane does not name the selected notes: {labels}")
        screenshot("several-notes-selected.png")
        mark = len(app.output)
        app.click(wait_for(lambda: app.button(lambda n: n == "Move to Notebook…"), 5, "no Move to Notebook… in the pane"))
        app.click(wait_for(lambda: app.button(lambda n: n == "Move to notebook Work"), 5, "no Work in the chooser"))
        wait_bulk(app, "move", mark, 3)
        work = sorted(os.listdir(os.path.join(home.library, "Work")))
        check(work == ["a.md", "c.md", "e.md"], f"the notebook's folder holds {work}")
        for file_name in ("a.md", "c.md", "e.md"):
            check(not os.path.exists(os.path.join(home.library, file_name)), f"{file_name} is still at the top")
            with open(os.path.join(home.library, "Work", file_name), encoding="utf-8", newline="") as handle:
                check(handle.read() == NOTES[file_name], f"{file_name} changed on its way")
        wait_selected(app, 3)  # the same notes stay selected where they went
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def select_all_then_delete_trashes_every_listed_note_and_ctrl_z_brings_all_back(binary, home):
    write_notes(home)
    app = launch(binary, home)
    try:
        open_row(app, "Alpha")
        click_row(app, "Bravo")  # the list has the keyboard focus
        wait_for(lambda: (app.editor_text() or "").startswith("Bravo"), 5, "Bravo did not open")
        app.key("ctrl+a")
        wait_selected(app, 5)
        list_says_selected(app, 5)
        mark = len(app.output)
        app.key("Delete")
        wait_bulk(app, "trash", mark, 5)
        check(home.md_files() == [], f"notes left in the library: {home.md_files()}")
        check(len(trashed(home)) == 5, f"the Trash holds {trashed(home)}")
        app.wait_rows([], timeout=5, after="Delete")
        toast = wait_for(lambda: next((label for label in app.labels() if "moved to the Trash" in label), None), 5, "no toast")
        check(toast == "5 notes moved to the Trash", f"the toast says {toast!r}")
        mark = len(app.output)
        app.key("ctrl+z")
        wait_bulk(app, "undo", mark, 5)
        for file_name, text in NOTES.items():
            with open(os.path.join(home.library, file_name), "rb") as handle:
                check(handle.read() == text.encode(), f"{file_name} did not come back byte-exact")
        check(trashed(home) == [], f"the Trash still holds {trashed(home)}")
        app.wait_rows(ORDER, after="Ctrl+Z")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def shift_click_a_range_and_add_a_tag_to_each(binary, home):
    write_notes(home)
    app = launch(binary, home)
    try:
        open_row(app, "Bravo")
        click_row(app, "Delta", "shift")
        wait_selected(app, 3)
        mark = len(app.output)
        app.click(wait_for(lambda: app.button(lambda n: n == "Add Tag…"), 5, "no Add Tag… in the pane"))
        wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a).startswith("Tag")), 5, "no tag field")
        app.type("#trip")
        app.key("Return")
        wait_bulk(app, "add-tag", mark, 3)
        for file_name in ("b.md", "c.md", "d.md"):
            with open(os.path.join(home.library, file_name), "rb") as handle:
                data = handle.read().decode()
            check(data.rstrip().endswith("#trip"), f"{file_name} does not end with the tag: {data!r}")
        with open(os.path.join(home.library, "b.md"), "rb") as handle:
            data = handle.read().decode()
        check(data.endswith("#trip\r\n") and "\r\n" in data, f"b.md lost its CRLF: {data!r}")
        for file_name in ("a.md", "e.md"):
            with open(os.path.join(home.library, file_name), encoding="utf-8", newline="") as handle:
                check(handle.read() == NOTES[file_name], f"{file_name}, not selected, changed")
        # A new note while several are selected: the editor comes back with it.
        wait_selected(app, 3)
        app.key("ctrl+n")
        app.wait_new_note_in_editor()
        check(selected_headline(app) is None, f"the pane still shows: {selected_headline(app)!r}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def drag_a_selection_onto_a_notebook_moves_all_of_it(binary, home):
    write_notes(home)
    os.makedirs(os.path.join(home.library, "Work"))
    app = launch(binary, home)
    try:
        open_row(app, "Bravo")
        click_row(app, "Delta", "ctrl")
        wait_selected(app, 2)
        mark = len(app.output)
        drag_row_onto_notebook(app, "Delta", "d.md", "Work")
        wait_bulk(app, "move", mark, 2)
        work = sorted(os.listdir(os.path.join(home.library, "Work")))
        check(work == ["b.md", "d.md"], f"the notebook's folder holds {work}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def select_all_in_a_search_selects_only_the_matches_and_escape_goes_back_to_one(binary, home):
    write_notes(home)
    app = launch(binary, home)
    try:
        search(app, "ir")  # "first", "third"
        app.wait_rows(["Alpha", "Charlie"])
        open_row(app, "Alpha")
        app.key("ctrl+a")
        wait_selected(app, 2)
        app.key("Escape")
        wait_for(lambda: selected_headline(app) is None and (app.editor_text() or "").startswith("Alpha"), 5,
                 lambda: f"Escape did not go back to one note: {selected_headline(app)!r}, editor {app.editor_text()!r}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def several_notes_in_the_trash_are_restored_or_deleted_forever_together(binary, home):
    write_notes(home)
    app = launch(binary, home)
    try:
        open_row(app, "Alpha")
        app.key("ctrl+a")
        wait_selected(app, 5)
        mark = len(app.output)
        app.key("Delete")
        wait_bulk(app, "trash", mark, 5)
        app.click(wait_for(lambda: app.button(lambda n: n == "Show the Trash"), 3, "no Trash button"))
        wait_for(lambda: len(app.find_all(lambda a: role(a) in ("toggle button", "push button") and name(a).startswith("Select “"))) == 5, 5,
                 "the Trash does not list the five notes")

        def check_box(title, selected):
            app.click(wait_for(lambda: app.find(lambda a: role(a) in ("toggle button", "push button") and name(a) == f"Select “{title}”"), 5,
                               f"no toggle to select {title!r} in the Trash"))
            wait_for(lambda: f"{selected} selected" in app.labels(), 5,
                     lambda: f"{title!r} did not join the selection; labels: {app.labels()}")
        check_box("Bravo", 1)
        check_box("Delta", 2)
        screenshot("trash-several-selected.png")
        mark = len(app.output)
        app.click(app.button(lambda n: n == "Restore the selected notes"))
        wait_bulk(app, "restore", mark, 2)
        for file_name in ("b.md", "d.md"):
            with open(os.path.join(home.library, file_name), "rb") as handle:
                check(handle.read() == NOTES[file_name].encode(), f"{file_name} did not come back byte-exact")
        check(len(trashed(home)) == 3, f"the Trash holds {trashed(home)}")
        check_box("Alpha", 1)
        check_box("Echo", 2)
        app.click(app.button(lambda n: n == "Delete the selected notes forever"))
        app.click(wait_for(lambda: app.button(lambda n: n == "Delete, Keep History"), 5, "Delete Forever… did not ask first"))
        wait_for(lambda: trashed(home) == ["c.md"], 5, lambda: f"the Trash holds {trashed(home)}")
        check(sorted(home.md_files()) == ["b.md", "d.md"], f"the library holds {home.md_files()}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
