"""Acceptance tests of hostile files and folders (issue #11), on the real binary: a note with a
NUL byte, FIFOs named like notes, a 5 MB one-line note, 200 notebooks, a damaged preferences
file, a library deleted under the app. Nothing is cut short, nothing hangs, no setting is lost."""
import glob
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import Notula, acceptance, check, has_state, name, role, screenshot, wait_for  # noqa: E402
from tests_errors import button, dialog  # noqa: E402,F401
import pyatspi  # noqa: E402


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


def cpu_seconds(pid):
    """User + system CPU time of a process so far."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def inotify_instances(pid):
    count = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:inotify":
                count += 1
        except OSError:
            pass
    return count


def inotify_watches(pid):
    """How many inotify watches the process holds, over all its instances."""
    watches = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == "anon_inode:inotify":
                with open(f"/proc/{pid}/fdinfo/{fd}") as info:
                    watches += sum(1 for line in info if line.startswith("inotify wd:"))
        except OSError:
            pass
    return watches


def banner_label(app, text_part):
    return app.find(lambda a: role(a) == "label" and text_part in name(a) and has_state(a, pyatspi.STATE_VISIBLE))


# ---------------------------------------------------------------------------------------------

@acceptance
def note_with_a_nul_byte_opens_read_only_and_is_never_cut_short(binary, home):
    original = b"T\nbefore\x00after\nlast\n"
    home.write_note("older.md", "Older\n", age_seconds=3600)
    path = home.write_note("n.md", original)
    app = Notula(binary, home)
    try:
        app.launch()
        wait_for(lambda: banner_label(app, "NUL character"), 8,
                 lambda: f"no banner about the NUL byte; labels: {app.labels()!r}")
        editor = wait_for(app.editor, 5, "no editor")
        check(not has_state(editor, pyatspi.STATE_EDITABLE), "a note with a NUL byte is editable")
        check("after" in (app.editor_text() or ""), f"the text after the NUL is not shown: {app.editor_text()!r}")
        app.click(editor)
        app.type("X")
        app.keys_handled()  # then Ctrl+Q saves whatever is unsaved: a wrong write would happen there
        check(app.quit() == 0, "Ctrl+Q failed")
        check(read_bytes(path) == original, f"n.md changed: {read_bytes(path)!r}")
    finally:
        app.cleanup()


@acceptance
def fifos_named_like_notes_never_block_listing_new_notes_or_quitting(binary, home):
    home.write_note("real.md", "Real note\nbody\n", age_seconds=60)
    os.mkfifo(os.path.join(home.library, "pipe.md"))
    os.makedirs(os.path.join(home.library, "Work"))
    os.mkfifo(os.path.join(home.library, "Work", "queue.md"))
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Real note"], timeout=5)
        before = set(home.md_files())
        app.focus()
        app.key("ctrl+n")
        wait_for(lambda: len(set(home.md_files()) - before) == 1, 5, "Ctrl+N made no note")
        app.wait_new_note_in_editor()
        new = (set(home.md_files()) - before).pop()
        app.type("Typed past a FIFO")
        wait_for(lambda: read_bytes(os.path.join(home.library, new)) == b"Typed past a FIFO", 6,
                 "the typing was not saved")
        app.type(" and more")
        wait_for(lambda: (app.editor_text() or "").endswith("and more"), 5, "the typing did not reach the editor")
        app.process.send_signal(signal.SIGTERM)  # a logout: saves and ends, never hangs
        app.wait_exit(timeout=10)
        check(read_bytes(os.path.join(home.library, new)) == b"Typed past a FIFO and more",
              f"SIGTERM lost typing: {read_bytes(os.path.join(home.library, new))!r}")
    finally:
        app.cleanup()


@acceptance
def five_megabyte_line_never_freezes_the_window(binary, home):
    home.write_note("small.md", "Small note\nfits\n", age_seconds=600)
    huge = home.write_note("huge.md", b"Huge\n" + b"abcdefghij" * 500_000 + b"\n")  # the newest
    original = read_bytes(huge)
    app = Notula(binary, home)
    try:
        started = time.monotonic()
        app.launch()
        app.wait_rows(["Huge", "Small note"], timeout=8)
        # Not opened by itself at start: the newest note that is safe to open is.
        wait_for(lambda: (app.editor_text() or "").startswith("Small note"), 5,
                 lambda: f"the editor shows {(app.editor_text() or '')[:40]!r}, expected the small note")
        app.click(app.row_accessible("Huge"))
        wait_for(lambda: banner_label(app, "Notula shows its beginning read-only"), 5,
                 lambda: f"no safe-mode banner; labels: {app.labels()!r}")
        check(button(app, "Open Anyway") is not None, "no Open Anyway button")
        shown = len(app.editor_text() or "")
        check(0 < shown < 100_000, f"the editor holds {shown} characters of a 5 MB line")
        elapsed = time.monotonic() - started
        cpu = cpu_seconds(app.process.pid)
        print(f"  5 MB one-line note: listed and opened in the safe mode after {elapsed:.2f} s, {cpu:.2f} s of CPU")
        check(cpu < 15, f"{cpu:.1f} s of CPU to start with a 5 MB one-line note (it was minutes)")
        screenshot("large-note-safe-mode.png")
        check(app.quit() == 0, "Ctrl+Q failed")
        check(read_bytes(huge) == original, "the huge note changed")
    finally:
        app.cleanup()


@acceptance
def two_hundred_notebooks_take_one_inotify_instance(binary, home):
    home.write_note("top.md", "Top note\n", age_seconds=600)
    for index in range(200):
        os.makedirs(os.path.join(home.library, f"Book {index:03}"))
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Top note"], timeout=8)
        # Every notebook watched (and the library's top): then count the instances they took.
        wait_for(lambda: inotify_watches(app.process.pid) >= 201, 10,
                 lambda: f"{inotify_watches(app.process.pid)} inotify watches for the library and 200 notebooks")
        instances = inotify_instances(app.process.pid)
        print(f"  200 notebooks: {instances} inotify instance(s) in the process (GTK's own included)")
        check(instances <= 2, f"{instances} inotify instances for 200 notebooks")
        for index in (0, 99, 199):
            with open(os.path.join(home.library, f"Book {index:03}", "dropped.md"), "w") as handle:
                handle.write(f"Dropped into {index}\n")
        wait_for(lambda: all(any(row.startswith(f"Dropped into {i},") for row in app.rows()) for i in (0, 99, 199)), 5,
                 lambda: f"notes dropped into notebooks did not all appear: {app.rows()!r}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def damaged_preferences_keep_the_synced_folder_and_the_file(binary, home):
    synced = os.path.join(home.root, "Sync", "Notes")
    os.makedirs(synced)
    with open(os.path.join(synced, "synced.md"), "w") as handle:
        handle.write("Synced note\n")
    damaged = '{\n  "storage": "synced"\n  "syncedFolder": "%s"\n}\n' % synced  # a comma missing
    os.makedirs(os.path.dirname(home.preferences_file), exist_ok=True)
    with open(home.preferences_file, "w") as handle:
        handle.write(damaged)
    app = Notula(binary, home)
    try:
        app.launch()
        notice = wait_for(lambda: banner_label(app, "preferences file"), 8, "the damaged preferences were not mentioned")
        kept = glob.glob(home.preferences_file + ".damaged-*")
        check(len(kept) == 1 and open(kept[0]).read() == damaged, f"the damaged file was not kept: {kept}")
        check(kept[0] in name(notice), f"the notice does not say where the file was kept: {name(notice)!r}")
        check(not os.path.exists(home.preferences_file), "preferences.json was written before the user chose")
        check(dialog(app, "") is None, "information shown in a dialog")
        app.wait_rows(["Synced note"], timeout=5)
        app.focus()
        app.key("ctrl+n")
        wait_for(lambda: len([n for n in os.listdir(synced) if n.endswith(".md")]) == 2, 5,
                 lambda: f"Ctrl+N did not make the note in the synced folder: {os.listdir(synced)}, local: {home.md_files()}")
        check(not home.md_files(), f"notes went to the local library: {home.md_files()}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def a_relative_synced_folder_never_lists_the_working_directory(binary, home):
    home.write_preferences({"storage": "synced", "syncedFolder": "src"})
    os.makedirs(os.path.join(home.root, "src"))
    with open(os.path.join(home.root, "README.md"), "w") as handle:
        handle.write("Not a note\n")
    app = Notula(binary, home, extra_env={})
    app_cwd = os.getcwd()
    try:
        os.chdir(home.root)
        app.launch()
        wait_for(lambda: banner_label(app, "is not available"), 8, lambda: f"no unavailable banner; labels {app.labels()!r}")
        check(banner_label(app, "not a full path") is not None, f"the banner does not say why: {app.labels()!r}")
        check(app.rows() == [], f"the working directory was listed: {app.rows()!r}")
        check(app.quit() == 0, "Ctrl+Q failed")
        check(os.path.exists(os.path.join(home.root, "README.md")), "README.md went")
    finally:
        os.chdir(app_cwd)
        app.cleanup()


@acceptance
def a_deleted_local_library_is_made_again(binary, home):
    home.write_note("gone.md", "Soon gone\n", age_seconds=60)
    home.write_note("other.md", "Other note\n", age_seconds=120)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Soon gone", "Other note"], timeout=5)
        import shutil
        shutil.rmtree(home.library)
        wait_for(lambda: not any(row.startswith("Other note,") for row in app.rows()), 5,
                 lambda: f"the deleted notes' rows stay: {app.rows()!r}")
        app.focus()
        app.key("ctrl+n")
        wait_for(lambda: len(home.md_files()) == 1, 5, "Ctrl+N did not work after the library was deleted")
        app.wait_new_note_in_editor()
        app.type("Fresh start")
        new = home.md_files()[0]
        wait_for(lambda: read_bytes(os.path.join(home.library, new)) == b"Fresh start", 6, "the new note was not saved")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
