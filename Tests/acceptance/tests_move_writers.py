"""Acceptance tests of a move of every note while another program writes (issue #43): a sync
client appending to and replacing notes in the synced folder as Preferences moves them all to
This Computer. Every write the library took arrives, nothing stays behind, and the open note
and a note window keep another program's lines written meanwhile after typing again."""
import ctypes
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import Notula, acceptance, check, find_all, has_state, mount, name, skip, screenshot, wait_for, xdotool  # noqa: E402
import pyatspi  # noqa: E402
from tests_desktop_session import editor_in, text_of, window_named, x_window  # noqa: E402
from tests_status_light import read_text  # noqa: E402
from tests_storage import click_button, notes_in  # noqa: E402

LIBC = ctypes.CDLL(None, use_errno=True)
AT_FDCWD = -100
RENAME_EXCHANGE = 2


def exchange(first, second):
    """renameat2(RENAME_EXCHANGE): both names must exist; nothing is ever created."""
    return LIBC.renameat2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE) == 0


def append_if_there(path, line):
    """Appends `line` to the note at `path` only if it is there (never creates it). True when the
    library took the write: after it, the file written is still the one at `path`."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND)
    except FileNotFoundError:
        return False
    try:
        os.write(descriptor, line.encode())
        written = os.fstat(descriptor)
        try:
            now = os.stat(path)
        except FileNotFoundError:
            return False
        return written.st_nlink > 0 and (now.st_dev, now.st_ino) == (written.st_dev, written.st_ino)
    finally:
        os.close(descriptor)


def replace_if_there(path, line, scratch):
    """Replaces the note at `path` with its bytes and `line` more, as a sync client does (a
    temporary in `scratch`, on the same disk, exchanged with the note): only if it is there."""
    try:
        with open(path, "rb") as handle:
            before = handle.read()
    except FileNotFoundError:
        return False
    temporary = os.path.join(scratch, "incoming")
    with open(temporary, "wb") as handle:
        handle.write(before + line.encode())
        handle.flush()
        os.fsync(handle.fileno())
    if not exchange(temporary, path):
        os.remove(temporary)
        return False
    os.remove(temporary)  # the version replaced
    return True


class SyncClient(threading.Thread):
    """Another program writing `names` in `folder` over and over, half appends, half replaces;
    `accepted` holds, per note, every line the library took, in order."""

    def __init__(self, folder, names, scratch):
        super().__init__(daemon=True)
        self.folder, self.names, self.scratch = folder, names, scratch
        self.accepted = {note: [] for note in names}
        self.halt = threading.Event()

    def run(self):
        sequence = 0
        while not self.halt.is_set():
            for note in self.names:
                sequence += 1
                line = f"another program's line {sequence}\n"
                path = os.path.join(self.folder, note)
                took = append_if_there(path, line) if sequence % 2 else replace_if_there(path, line, self.scratch)
                if took:
                    self.accepted[note].append(line)
            time.sleep(0.01)

    def stop(self):
        self.halt.set()
        if self.ident is not None:  # started: a launch that failed never starts it
            self.join(10)


def synced_library(home, notes):
    """A synced folder on a tmpfs of its own (so the move crosses disks) holding `notes` (name →
    text, newest first) and chosen in Preferences; its notes folder, and a scratch folder beside
    it on the same disk. None where mounting is not allowed."""
    sync = os.path.join(home.root, "Sync")
    os.makedirs(sync)
    if mount("-t", "tmpfs", "-o", "size=256m,mode=0700", "tmpfs", sync).returncode != 0:
        return None, None
    folder, scratch = os.path.join(sync, "Notes"), os.path.join(sync, "scratch")
    os.makedirs(folder)
    os.makedirs(scratch)
    now = time.time()
    for age, (note, text) in enumerate(notes.items()):
        path = os.path.join(folder, note)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.utime(path, (now - age, now - age))
    home.write_preferences({"storage": "synced", "syncedFolder": folder})
    return folder, scratch


def move_to_this_computer(app, count):
    app.focus()
    app.key("ctrl+comma")
    app.click(wait_for(lambda: app.find(lambda a: name(a) == "Store notes on This Computer"), 8, "Preferences did not open"))
    wait_for(lambda: app.find(lambda a: f"Move {count} notes" in name(a)), 10, "no confirmation before the move")
    click_button(app, "Move Notes")


def unmount(home):
    subprocess.run(["umount", "-l", os.path.join(home.root, "Sync")], capture_output=True)


def texts_of(folder, note):
    """The note's text and any version kept beside it ("NAME (another version).md")."""
    stem = note[:-len(".md")]
    return "".join(read_text(os.path.join(folder, other)) for other in notes_in(folder)
                   if other == note or other.startswith(stem + " ("))


@acceptance
def moving_every_note_while_a_sync_client_writes_them_keeps_every_word(binary, home):
    """Issue #43 (1): 108 of 180 of another program's writes were lost while 2,000 notes moved
    from a synced folder to This Computer, and the move said it succeeded."""
    notes = {f"n{index:04}.md": f"Note {index}\n" + "words " * 200 + "\n" for index in range(2000)}
    folder, scratch = synced_library(home, notes)
    if folder is None:
        skip("cannot mount a tmpfs; needs root")
    written = [f"n{index:04}.md" for index in range(0, 2000, 180)]  # 12 notes across the move
    app = Notula(binary, home)
    writer = SyncClient(folder, written, scratch)
    try:
        app.launch()
        move_to_this_computer(app, 2000)
        writer.start()
        wait_for(lambda: '"local"' in read_text(home.preferences_file), 60, "the move did not finish")
        writer.stop()
        took = sum(len(lines) for lines in writer.accepted.values())
        print(f"the other program wrote {took} times during the move", flush=True)
        check(took > 0, "the other program could write nothing")
        check(not notes_in(folder), f"notes stayed behind in the synced folder: {notes_in(folder)[:10]}")
        for note, lines in writer.accepted.items():
            text = texts_of(home.library, note)
            missing = [line for line in lines if line not in text]
            check(text.startswith(notes[note]) and not missing,
                  f"{note}: {len(missing)} of the other program's {len(lines)} writes are lost ({missing[:3]})")
        arrived = notes_in(home.library)
        check(all(note in arrived for note in notes), f"{len(set(notes) - set(arrived))} notes did not arrive")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        writer.stop()
        app.cleanup()
        unmount(home)


def show_only(app, title):
    """Searches the list for `title` (a word only that note holds) until it is the one row."""
    app.focus()
    app.key("ctrl+shift+f")
    app.key("ctrl+a")
    app.type(title)
    app.wait_rows([title], timeout=20)


def light_in(window):
    """The accessible name of a window's status light ("Note status: …")."""
    found = find_all(window, lambda a: name(a).startswith("Note status:"))
    return name(found[0]) if found else ""


@acceptance
def the_open_note_and_a_note_window_keep_another_programs_lines_written_during_a_move(binary, home):
    """Issue #43 (3, 4, 7): another program's lines written to the open note during a move were
    overwritten by the first keystroke after it; a note window was not held at all; typing
    during the move was dropped without a sign. Now both are read-only while the notes move
    (the light says "Moving…"), then show the other program's lines and keep them."""
    notes = {"Window.md": "Window\nfirst line\n", "Open.md": "Open\nfirst line\n"}
    notes.update({f"n{index:04}.md": f"Note {index}\n" + "words " * 200 + "\n" for index in range(5000)})
    folder, scratch = synced_library(home, notes)
    if folder is None:
        skip("cannot mount a tmpfs; needs root")
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_MOVE": "1"})
    try:
        app.launch()
        main_wid = app.wid
        show_only(app, "Window")
        app.click(app.row_accessible("Window"))
        wait_for(lambda: app.editor_text() == notes["Window.md"], 5, lambda: f"the main window shows {app.editor_text()!r}")
        app.focus()
        app.key("ctrl+shift+n")
        note_wid = x_window("Window")
        note_editor = editor_in(window_named(app, "Window"))
        # Side by side, so a click meant for the main window lands there.
        xdotool("windowsize", "--sync", main_wid, "560", "600")
        xdotool("windowmove", "--sync", main_wid, "0", "0")
        xdotool("windowsize", "--sync", note_wid, "390", "600")
        xdotool("windowmove", "--sync", note_wid, "568", "0")
        app.wid = main_wid
        show_only(app, "Open")
        app.click(app.row_accessible("Open"))
        wait_for(lambda: app.editor_text() == notes["Open.md"], 5, lambda: f"the main window shows {app.editor_text()!r}")
        main_window = window_named(app, "Notula")
        move_to_this_computer(app, len(notes))
        # Both notes are held while their notes move: read-only, and the light says so. The app
        # says what its widgets show once both are held (the move may be over a moment later).
        def held():
            lines = [line for line in app.output if line.startswith("notula-move-held ")]
            return lines if len(lines) == 2 else None
        for line in wait_for(held, 10, lambda: f"not both editors held: {app.tail()}"):
            check(line.startswith("notula-move-held editable=false light=Note status: Moving."), f"an editor not held: {line!r}")
        screenshot("moving-with-a-note-window.png")
        # Another program writes both notes meanwhile: in the synced folder while they are
        # there, else where they went (the move may have taken them already).
        lines = {"Open.md": "Open: another program's line\n", "Window.md": "Window: another program's line\n"}
        for note, line in lines.items():
            check(append_if_there(os.path.join(folder, note), line) or append_if_there(os.path.join(home.library, note), line),
                  f"{note} is in neither folder")
        wait_for(lambda: '"local"' in read_text(home.preferences_file), 60, "the move did not finish")
        # After the move: each editor shows the other program's line, and typing keeps it.
        wait_for(lambda: app.editor_text() == notes["Open.md"] + lines["Open.md"], 10,
                 lambda: f"the main window shows {app.editor_text()!r}")
        wait_for(lambda: text_of(note_editor) == notes["Window.md"] + lines["Window.md"], 10,
                 lambda: f"the note window shows {text_of(note_editor)!r}")
        wait_for(lambda: "Saved" in light_in(main_window), 5, lambda: f"the light says {light_in(main_window)!r}")
        preferences = x_window("Preferences")
        xdotool("windowfocus", "--sync", preferences)
        xdotool("key", "--clearmodifiers", "Escape")
        wait_for(lambda: not xdotool("search", "--onlyvisible", "--name", "^Preferences$", check_rc=False).split(), 5,
                 "Preferences did not close")
        app.click_editor()
        app.key("ctrl+End")
        app.type("typed after the move")
        xdotool("windowfocus", "--sync", note_wid)
        app.wid = note_wid
        app.set_caret(note_editor, len(text_of(note_editor)))
        app.type("typed in the window")
        for note, typed in (("Open.md", "typed after the move"), ("Window.md", "typed in the window")):
            expected = notes[note] + lines[note] + typed
            wait_for(lambda: read_text(os.path.join(home.library, note)) == expected, 10,
                     lambda: f"{note} holds {read_text(os.path.join(home.library, note))!r}")
        check(not notes_in(folder), f"notes stayed behind: {notes_in(folder)[:5]}")
        app.wid = main_wid
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        unmount(home)
