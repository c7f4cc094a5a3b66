"""Acceptance tests of the notes library and the window (issue #2): typing reaches the disk,
odd files are safe, one instance, delete to Trash, the window remembers its size."""
import json
import os
import stat
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (BANNER_NOT_UTF8, Notula, acceptance, check, children, extents_in_window, has_state, name,  # noqa: E402
                           role, screenshot, visible_notula_windows, wait_for, xdotool)
import pyatspi  # noqa: E402


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


# ---------------------------------------------------------------------------------------------

@acceptance
def type_two_lines_saves_file(binary, home):
    app = Notula(binary, home)
    try:
        app.launch()
        before = set(home.md_files())
        check(not before, f"the fresh library is not empty: {sorted(before)}")
        app.focus()
        app.key("ctrl+n")

        wait_for(lambda: len(set(home.md_files()) - before) == 1, 5,
                 lambda: f"Ctrl+N: new files {sorted(set(home.md_files()) - before)}")
        app.wait_new_note_in_editor()
        app.type("First line")
        app.key("Return")
        app.type("Second line")
        expected = b"First line\nSecond line"

        def saved():
            files = home.md_files()
            return len(files) == 1 and read_bytes(os.path.join(home.library, files[0])) == expected

        def describe():
            files = home.md_files()
            contents = {f: read_bytes(os.path.join(home.library, f)) for f in files}
            return f"expected exactly one .md file holding {expected!r}; library has {contents!r}"
        wait_for(saved, 5, describe)
        path = os.path.join(home.library, home.md_files()[0])
        check(mode_of(path) == 0o600, f"note file mode is {oct(mode_of(path))}, expected 0o600")
        check(mode_of(home.library) == 0o700, f"library folder mode is {oct(mode_of(home.library))}, expected 0o700")
        # A save exchanges the new file in, then deletes the old one under the temporary's
        # name: wait for that to end; a temporary that stays is the failure.
        def leftovers():
            return [n for n in home.library_names() if n != os.path.basename(path)]
        wait_for(lambda: not leftovers(), 5, lambda: f"unexpected extra files in the library: {leftovers()}")

        status = app.quit()
        check(status == 0, f"Ctrl+Q: exit status {status}")
        check(read_bytes(path) == expected, f"after quitting the note holds {read_bytes(path)!r}")

        app.launch()
        wait_for(lambda: app.rows() and app.rows()[0].startswith("First line"), 5,
                 lambda: f"after relaunch the list rows are {app.rows()!r}; expected the first to start with 'First line'")
        check(len(app.rows()) == 1, f"after relaunch the list has {app.rows()!r}, expected one row")
        status = app.quit()
        check(status == 0, f"second Ctrl+Q: exit status {status}")
    finally:
        app.cleanup()


@acceptance
def non_utf8_file_never_rewritten(binary, home):
    original = b"Caf\xe9 cr\xe8me\n\xff\xfe binary\n"
    home.write_note("older.md", "Older note\nwritten last week\n", age_seconds=7 * 86400)
    path = home.write_note("bad.md", original, age_seconds=0)
    before_names = home.library_names()
    before_stat = os.stat(path)
    app = Notula(binary, home)
    try:
        app.launch()
        banner = wait_for(lambda: app.find(lambda a: role(a) == "label" and name(a) == BANNER_NOT_UTF8), 5,
                          lambda: f"no read-only banner label; labels on screen: {app.labels()!r}")
        check(has_state(banner, pyatspi.STATE_VISIBLE), "the read-only banner label exists but is not visible")
        editor = wait_for(app.editor, 5, "no 'Note text' editor")
        check(not has_state(editor, pyatspi.STATE_EDITABLE), "the editor of a non-UTF-8 file is editable")
        app.click(editor)
        app.type("xyz")
        app.keys_handled()  # then Ctrl+Q saves whatever is unsaved: a wrong write would happen there
        check("xyz" not in (app.editor_text() or ""), f"typed text went into the read-only editor: {app.editor_text()!r}")
        status = app.quit()
        check(status == 0, f"Ctrl+Q: exit status {status}")
        after = read_bytes(path)
        check(after == original, f"bad.md changed: {after!r}, was {original!r}")
        after_stat = os.stat(path)
        check((after_stat.st_ino, after_stat.st_mtime_ns) == (before_stat.st_ino, before_stat.st_mtime_ns),
              "bad.md was rewritten (inode or mtime changed) although its bytes are the same")
        check(home.library_names() == before_names,
              f"library changed: {home.library_names()!r}, was {before_names!r}")
    finally:
        app.cleanup()


@acceptance
def external_files_appear_on_start(binary, home):
    notes = [  # (file, content, age in seconds); the list shows newest first
        ("groceries.md", "Groceries\nmilk\neggs\nbread\n", 60),
        ("meeting.txt", "Team meeting\n- agenda: release date\n- owner: Sam\n", 2 * 3600),
        ("reading.md", "Books to read\nThe Left Hand of Darkness\n", 3 * 86400),
    ]
    others = [(".x.md", "Hidden file\n"), ("~lock.md", "Lock file\n")]
    leftover = ".bad.md.notula-tmp-ABC123"
    for file, content, age in notes:
        home.write_note(file, content, age_seconds=age)
    for file, content in others:
        home.write_note(file, content, age_seconds=10)
    home.write_note(leftover, "half-written\n", age_seconds=30)
    snapshot = {}
    for file in [n[0] for n in notes] + [o[0] for o in others]:
        full = os.path.join(home.library, file)
        snapshot[file] = (read_bytes(full), os.stat(full).st_mtime_ns)

    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Groceries", "Team meeting", "Books to read"], timeout=5)
        wait_for(lambda: not os.path.exists(os.path.join(home.library, leftover)), 5,
                 f"the crash leftover {leftover} was not removed")
        status = app.quit()
        check(status == 0, f"Ctrl+Q: exit status {status}")
        for file, (data, mtime) in snapshot.items():
            full = os.path.join(home.library, file)
            check(os.path.exists(full), f"{file} disappeared")
            check(read_bytes(full) == data, f"{file} changed: {read_bytes(full)!r}")
            check(os.stat(full).st_mtime_ns == mtime, f"{file} was rewritten (mtime changed)")
        expected_names = sorted(snapshot)
        check(home.library_names() == expected_names,
              f"library holds {home.library_names()!r}, expected {expected_names!r}")
    finally:
        app.cleanup()


@acceptance
def single_instance(binary, home):
    app = Notula(binary, home)
    try:
        app.launch()
        first_pid = app.process.pid
        app.wait_rows([], timeout=5)
        second = app.spawn()
        status = app.wait_exit(second, timeout=5)
        check(status == 0, f"the second launch exited with {status}; output: {second.lines[-5:]}")
        check(app.is_running(), f"the first instance exited ({app.process.returncode})")
        windows = visible_notula_windows()
        check(len(windows) == 1, f"{len(windows)} visible Notula windows after the second launch, expected 1")
        app.bus_messages_handled()  # the second launch's activation is handled: no late window
        windows = visible_notula_windows()
        check(len(windows) == 1, f"{len(windows)} visible Notula windows after the second launch, expected 1")

        before = set(home.md_files())
        third = app.spawn("--new-note")
        status = app.wait_exit(third, timeout=5)
        check(status == 0, f"`notula --new-note` exited with {status}; output: {third.lines[-5:]}")

        def new_empty_note():
            new = set(home.md_files()) - before
            return len(new) == 1 and os.path.getsize(os.path.join(home.library, new.pop())) == 0
        wait_for(new_empty_note, 5, lambda: f"no single new empty .md file; new files: {sorted(set(home.md_files()) - before)}")
        check(app.is_running() and app.process.pid == first_pid, "the first instance is gone")
        wait_for(lambda: len(app.rows()) == 1 and app.rows()[0].startswith("New Note, "), 5,
                 lambda: f"the first instance's list shows {app.rows()!r}, expected one 'New Note' row")
        check(len(visible_notula_windows()) == 1, f"{len(visible_notula_windows())} visible Notula windows after --new-note")
        status = app.quit()
        check(status == 0, f"Ctrl+Q: exit status {status}")
    finally:
        app.cleanup()


@acceptance
def delete_with_undo_then_trash_and_restore(binary, home):
    """Delete moves the note into the library's own Trash at once (Undo moves it back); the
    Trash view lists it; Restore brings the exact bytes back to where they were."""
    shopping = "Shopping list\neggs\nflour\nbutter\n"
    path = home.write_note("shopping.md", shopping, age_seconds=30)
    home.write_note("ideas.md", "Project ideas\nA plant-watering reminder\n", age_seconds=3600)
    in_trash = os.path.join(home.library, ".notula", "Trash", "files", "shopping.md")
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Shopping list", "Project ideas"])

        def delete_shopping():
            app.click(app.row_accessible("Shopping list"))
            wait_for(lambda: has_state(app.row_accessible("Shopping list"), pyatspi.STATE_FOCUSED), 3,
                     "clicking the 'Shopping list' row did not focus it")
            app.key("Delete")
            app.wait_rows(["Project ideas"], timeout=3)
            wait_for(lambda: not os.path.exists(path) and os.path.exists(in_trash), 5,
                     lambda: f"not moved into the library's Trash: library {home.library_names()!r}")
            check(read_bytes(in_trash) == shopping.encode(), "the note changed on its way to the Trash")

        delete_shopping()
        toast = wait_for(lambda: app.find(lambda a: role(a) == "label" and name(a) == "“Shopping list” moved to Trash"),
                         3, lambda: f"no '“Shopping list” moved to Trash' toast; labels: {app.labels()!r}")
        check(has_state(toast, pyatspi.STATE_VISIBLE), "the toast label is not visible")
        undo = wait_for(lambda: app.button(lambda n: n.startswith("Undo")), 3, "no Undo button")
        app.press(undo)
        app.wait_rows(["Shopping list", "Project ideas"], timeout=3)
        check(read_bytes(path) == shopping.encode(), "after Undo the file is missing or changed")

        delete_shopping()
        check(not os.path.isdir(home.trash_files) or not os.listdir(home.trash_files), "the desktop's Trash was used")
        app.click(wait_for(lambda: app.button(lambda n: n == "Show the Trash"), 3, "no Trash button"))
        restore = wait_for(lambda: app.button(lambda n: n.startswith("Restore “Shopping list”")), 5,
                           lambda: f"the Trash view does not list the note; labels: {app.labels()!r}")
        screenshot("trash-view.png")
        app.click(restore)
        wait_for(lambda: os.path.exists(path), 5, "Restore did not put the note back")
        check(read_bytes(path) == shopping.encode(), "the restored note is not byte for byte the deleted one")
        check(not os.path.exists(in_trash), "the note is still in the Trash after Restore")
        app.click(wait_for(lambda: app.button(lambda n: n == "Back to Notes"), 3, "no way back to the notes"))
        app.wait_rows(["Shopping list", "Project ideas"], timeout=3)
        status = app.quit()
        check(status == 0, f"Ctrl+Q: exit status {status}")
    finally:
        app.cleanup()


@acceptance
def window_size_remembered(binary, home):
    app = Notula(binary, home)
    tolerance = 4
    try:
        app.launch()
        app.wait_rows([], timeout=5)
        def gtk_size():
            frame = app.find(lambda a: role(a) == "frame" and name(a) == "Notula")
            box = frame.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            return box.width, box.height
        # GTK's accessible frame and the X window differ by a constant (client-side decoration
        # margins as GTK 4.8 accounts them): learn it before resizing.
        x_before = app.geometry()[2:]
        gtk_before = wait_for(gtk_size, 5, "no accessible 'Notula' frame")
        margin = (x_before[0] - gtk_before[0], x_before[1] - gtk_before[1])
        xd_w, xd_h = 1000, 700
        check(x_before != (xd_w, xd_h), f"the window already is {xd_w}x{xd_h}: the test would prove nothing")
        xdotool("windowsize", str(app.wid), str(xd_w), str(xd_h))
        wait_for(lambda: app.geometry()[2:] == (xd_w, xd_h), 5, lambda: f"X window is {app.geometry()[2:]}")
        wait_for(lambda: gtk_size() == (xd_w - margin[0], xd_h - margin[1]), 5,
                 lambda: f"GTK did not take the new size: its frame is {gtk_size()} "
                         f"(before: X {x_before}, GTK {gtk_before})")
        reported = app.geometry()[2:]
        status = app.quit()
        check(status == 0, f"Ctrl+Q: exit status {status}")
        check(os.path.exists(home.window_state_file), f"no {home.window_state_file} after quitting")
        with open(home.window_state_file) as handle:
            state = json.load(handle)
        width, height = state.get("width"), state.get("height")
        check(isinstance(width, int) and isinstance(height, int), f"window.json has no width/height: {state!r}")
        check(abs(width - xd_w) <= tolerance and abs(height - xd_h) <= tolerance,
              f"window.json remembers {width}x{height}, the window was {xd_w}x{xd_h} (X at quit: {reported[0]}x{reported[1]})")

        app.launch()
        wait_for(lambda: abs(app.geometry()[2] - width) <= tolerance and abs(app.geometry()[3] - height) <= tolerance, 5,
                 lambda: f"relaunched window is {app.geometry()[2]}x{app.geometry()[3]}, expected {width}x{height}")
        status = app.quit()
        check(status == 0, f"second Ctrl+Q: exit status {status}")
    finally:
        app.cleanup()




@acceptance
def file_dropped_in_by_another_program_appears_within_a_second(binary, home):
    home.write_note("first.md", "First note\n", age_seconds=600)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["First note"])
        # Like a sync client: a temporary file first (never listed), then renamed into place.
        temporary = os.path.join(home.library, ".syncthing.dropped.md.tmp")
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write("Dropped in\nby another program\n")
        os.rename(temporary, os.path.join(home.library, "dropped.md"))
        dropped_at = time.monotonic()
        app.wait_rows(["Dropped in", "First note"], timeout=1.0)
        print(f"  (listed {time.monotonic() - dropped_at:.2f} s after the rename)")
        os.remove(os.path.join(home.library, "dropped.md"))
        app.wait_rows(["First note"], timeout=1.0)
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def the_open_notes_file_deleted_elsewhere_leaves_no_ghost_row_and_save_again_brings_it_back(binary, home):
    """Issue #28: another program deleted the open note's file; when the user clicked another
    note, the deleted one stayed listed as a row that opened nothing. Now its row goes, a
    notice in the window says its text is kept, and its Save Again writes the note back —
    with the words typed before and after the deletion — lists it and opens it."""
    home.write_note("keep.md", "Keep me\nstays where it is\n", age_seconds=600)
    doomed = home.write_note("doomed.md", "Doomed plans\nfirst line\n", age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Doomed plans", "Keep me"])
        wait_for(lambda: (app.editor_text() or "").startswith("Doomed plans"), 5, "the newest note did not open")
        app.click_editor()
        app.key("ctrl+End")
        app.type("typed before")
        wait_for(lambda: read_bytes(doomed) == b"Doomed plans\nfirst line\ntyped before", 5,
                 lambda: f"the typing was not saved: {read_bytes(doomed)!r}")
        os.remove(doomed)  # by another program
        gone = "This note’s file was deleted or moved by another program. Your text is still here."
        wait_for(lambda: gone in app.labels(), 5, lambda: f"the editor does not say the file is gone: {app.labels()!r}")
        app.click_editor()
        app.key("ctrl+End")
        app.type(" and after")
        typed = "Doomed plans\nfirst line\ntyped before and after"
        wait_for(lambda: app.editor_text() == typed, 5, lambda: f"the editor holds {app.editor_text()!r}")
        check(not os.path.exists(doomed), "autosave wrote the deleted note again unasked")

        app.click(app.row_accessible("Keep me"))
        wait_for(lambda: (app.editor_text() or "").startswith("Keep me"), 5, "Keep me did not open")
        app.wait_rows(["Keep me"], timeout=5)
        notice = "“Doomed plans” was deleted by another program. Its text is kept."
        wait_for(lambda: notice in app.labels(), 5, lambda: f"no notice about the deleted note: {app.labels()!r}")
        check(not os.path.exists(doomed), "leaving the note wrote it again unasked")
        screenshot("deleted-note-notice.png")
        save_again = wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "Save Again"
                                               and has_state(a, pyatspi.STATE_VISIBLE)), 5, "the notice has no Save Again")
        app.click(save_again)
        wait_for(lambda: os.path.exists(doomed) and read_bytes(doomed) == typed.encode(), 5,
                 lambda: f"Save Again did not write the note back: library {home.library_names()!r}")
        app.wait_rows(["Doomed plans", "Keep me"], timeout=5)
        wait_for(lambda: app.editor_text() == typed, 5, lambda: f"Save Again did not open the note: the editor holds {app.editor_text()!r}")
        check(notice not in app.labels(), "the notice is still shown after Save Again")
        check(app.quit() == 0, "Ctrl+Q failed")
        check(read_bytes(doomed) == typed.encode(), f"after quitting the note holds {read_bytes(doomed)!r}")
        check(read_bytes(os.path.join(home.library, "keep.md")) == b"Keep me\nstays where it is\n", "the other note changed")
        check(sorted(home.md_files()) == ["doomed.md", "keep.md"], f"the library holds {home.md_files()}")
    finally:
        app.cleanup()



def rows_in_view(app):
    """The titles of the notes list's rows on screen, top to bottom. GTK builds rows beyond the
    view, and GTK 4.8 leaves a row it stopped showing where it last was: the rows on screen are
    the first run, in the list's order, that starts at the list's top and goes down a row at a
    time."""
    notes = app.notes_list()
    if notes is None:
        return []
    _, list_y, _, list_height = extents_in_window(notes)
    rows = []
    for item in children(notes):
        if role(item) == "list item":
            _, y, _, height = extents_in_window(item)
            label = name(item) or next((name(child) for child in children(item) if name(child)), "")
            rows.append((y, height, label.split(", ")[0]))
    for start, (y, height, _) in enumerate(rows):
        if height > 0 and abs(y - list_y) < height / 2:
            shown = [rows[start]]
            for row in rows[start + 1:]:
                previous_y, previous_height, _ = shown[-1]
                if not (row[1] > 0 and previous_y + previous_height / 2 < row[0] <= previous_y + 1.5 * previous_height
                        and row[0] < list_y + list_height):
                    break
                shown.append(row)
            return [title for _, _, title in shown]
    return []


@acceptance
def five_thousand_notes_dropped_in_at_once_are_listed_newest_at_the_top(binary, home):
    """Another program (a sync client's first sync, an unzip) drops 5,000 notes into the library
    while Notula runs: they are listed, the newest at the top of the view, with no blank and no
    gap and without the user scrolling (GTK 4.8's list once stayed blank after a burst of 250)."""
    for index, title in enumerate(["Older one", "Older two", "Older three"]):
        home.write_note(f"older-{index}.md", f"{title}\nwritten here\n", age_seconds=86400 * (index + 1))
    count = 5000
    last = f"burst-{count - 1:04}.md"
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_LISTED": last})
    try:
        app.launch()
        app.wait_rows(["Older one", "Older two", "Older three"], timeout=8)
        # Oldest first, each a second newer than the one before: the last written is the newest.
        for index in range(count):
            home.write_note(f"burst-{index:04}.md", f"Burst {index:04}\nfrom another program\n", age_seconds=count - index)
        written = time.monotonic()
        wait_for(lambda: any(line.startswith("notula-listed ") for line in app.output), 120,
                 lambda: f"the last of {count} notes dropped in was never listed; output: {app.tail()}")
        print(f"  (the last listed {time.monotonic() - written:.1f} s after the burst)")
        newest = [f"Burst {index:04}" for index in range(count - 1, count - 9, -1)]
        wait_for(lambda: rows_in_view(app)[:len(newest)] == newest, 15,
                 lambda: f"the rows in view from the list's top are {rows_in_view(app)[:10]!r}, expected the newest "
                         f"first: {newest!r}")
        screenshot("burst-5000.png")
        check(app.quit(timeout=30) == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def restart_with_the_reopened_note_far_down_lists_the_newest_at_the_top(binary, home):
    """The note open at quit is reopened at the next start; meanwhile another program added 205
    newer notes, so it is now about 200 rows down. The list still shows the newest notes at the
    top (GTK 4.8 once built its rows around the reopened note and left a blank at the top)."""
    home.write_note("reopened.md", "Reopened one\nits text\n", age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        wait_for(lambda: app.editor_text() == "Reopened one\nits text\n", 8,
                 lambda: f"the newest note did not open: {app.editor_text()!r}")
        check(app.quit() == 0, "Ctrl+Q failed")
        count = 205
        for index in range(count):
            home.write_note(f"later-{index:03}.md", f"Later {index:03}\nwritten elsewhere\n", age_seconds=count - index)
        app.launch()
        wait_for(lambda: app.editor_text() == "Reopened one\nits text\n", 8,
                 lambda: f"the note open at quit was not reopened: {app.editor_text()!r}")
        newest = [f"Later {index:03}" for index in range(count - 1, count - 9, -1)]
        wait_for(lambda: rows_in_view(app)[:len(newest)] == newest, 15,
                 lambda: f"the rows in view from the list's top are {rows_in_view(app)[:10]!r}, expected the newest "
                         f"first: {newest!r}")
        screenshot("restart-reopened-far-down.png")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
