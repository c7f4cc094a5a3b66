"""Acceptance tests of the status light (issue #3), each colour reached by a real condition:
green after typing, yellow when another program changes the note under unsaved edits, red
when the library is on a tmpfs remounted read-only. Nothing typed is lost in any of them."""
import glob
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import Notula, acceptance, check, mount, name, role, skip, tmpfs_library, wait_for  # noqa: E402


def status(app):
    """The status light's accessible name ("Note status: Saved", …), or None."""
    light = app.button(lambda label: label.startswith("Note status:"))
    return name(light) if light is not None else None


def wait_status(app, word, timeout=10):
    wait_for(lambda: (status(app) or "").startswith(f"Note status: {word}"), timeout,
             lambda: f"status light says {status(app)!r}, expected {word!r}")


def drafts(home):
    result = []
    for path in glob.glob(os.path.join(home.state, "notula", "drafts", "*.json")):
        with open(path, encoding="utf-8") as handle:
            result.append(json.load(handle))
    return result


def read_text(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def type_at_end(app, text):
    app.click_editor()
    app.key("ctrl+End")
    app.type(text)


def type_at_end_while_replaced(app, path, typed, replacement):
    """Starts typing `typed` slowly at the end of the note (so there are always unsaved edits)
    and, a second in, replaces the file atomically with `replacement` as another program would.
    Returns the typing process."""
    app.click_editor()
    app.key("ctrl+End")
    before = len(app.editor_text() or "")
    typist = subprocess.Popen(["xdotool", "type", "--delay", "120", typed])
    # Replaced once the editor holds typing (a fixed second was not always enough under load:
    # the file then came before any edit, and nothing was left to merge).
    wait_for(lambda: len(app.editor_text() or "") >= before + 2, 10,
             lambda: f"the typing did not reach the editor: {app.editor_text()!r}")
    with open(path + ".sync-tmp", "w", encoding="utf-8") as handle:
        handle.write(replacement)
    os.rename(path + ".sync-tmp", path)
    return typist


@acceptance
def status_light_green_after_typing(binary, home):
    path = home.write_note("groceries.md", "Groceries\n- oat milk\n")
    app = Notula(binary, home)
    try:
        app.launch()
        wait_status(app, "Saved")
        type_at_end(app, "- eggs")
        wait_for(lambda: read_text(path) == "Groceries\n- oat milk\n- eggs", 5,
                 lambda: f"the note holds {read_text(path)!r}")
        wait_status(app, "Saved")
        check(app.button(lambda label: label.startswith("Show Conflicts")) is None, "Show Conflicts is offered without a conflict")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def status_light_yellow_when_changed_on_disk_under_unsaved_edits(binary, home):
    path = home.write_note("groceries.md", "Groceries\n- oat milk\n")
    other = "Groceries\n- oat milk\n- changed on the phone\n"
    app = Notula(binary, home)
    try:
        app.launch()
        wait_status(app, "Saved")
        typist = type_at_end_while_replaced(app, path, "and butter for the weekend", other)
        typist.wait(20)
        app.keys_handled()
        wait_status(app, "Conflict")
        check(app.button(lambda label: label.startswith("Show Conflicts")) is not None, "no Show Conflicts button in conflict")
        on_screen = app.editor_text() or ""
        check(on_screen.endswith("and butter for the weekend"), f"the typed text is not in the editor: {on_screen!r}")
        # Autosave in conflict keeps the words in a draft instead of the file: once the draft
        # holds them, autosave has run, and must not have overwritten the other version.
        wait_for(lambda: any(d["text"] == on_screen for d in drafts(home)), 5,
                 lambda: f"no recovery draft with the typed text; drafts: {drafts(home)!r}")
        check(read_text(path) == other, f"the other version on disk was overwritten: {read_text(path)!r}")
        app.process.terminate()  # logout: no one to ask; the draft keeps the words
        check(app.wait_exit() == 0, "SIGTERM did not end the app cleanly")
        check(read_text(path) == other, "quitting overwrote the other version")
        check(any(d["text"] == on_screen for d in drafts(home)), "the draft is gone after quitting")
    finally:
        app.cleanup()


def type_on_a_read_only_disk(app, home, library):
    """Opens a note, remounts its disk read-only and types "- pears": the light turns red.
    Returns the note's path."""
    path = home.write_note("shopping.md", "Shopping\n- apples\n")
    app.launch()
    wait_status(app, "Saved")
    check(mount("-o", "remount,ro", library).returncode == 0, "cannot remount the library read-only")
    type_at_end(app, "- pears")
    wait_status(app, "Unsaved")
    return path


@acceptance
def status_light_red_when_library_is_read_only(binary, home):
    library = tmpfs_library(home)
    if library is None:
        skip("cannot mount a tmpfs; needs root")
    app = Notula(binary, home)
    try:
        path = type_on_a_read_only_disk(app, home, library)
        light = app.button(lambda label: label.startswith("Note status:"))
        check("read-only" in name(light).lower(), f"the red light does not say why: {name(light)!r}")
        dialog = wait_for(lambda: app.find(lambda a: "could not be saved" in name(a)), 5,
                          "no error dialog about the failed save")
        check(dialog is not None, "no dialog")
        check(read_text(path) == "Shopping\n- apples\n", "the read-only file changed?")
        check(any(d["text"] == "Shopping\n- apples\n- pears" for d in drafts(home)),
              f"the unsaved words are not in a recovery draft: {drafts(home)!r}")
        # The disk comes back: Try Again saves everything, the light turns green.
        check(mount("-o", "remount,rw", library).returncode == 0, "cannot remount read-write")
        # GTK 4.8 names text buttons "Try Again Try Again" (its label and the label inside).
        try_again = wait_for(lambda: app.button(lambda label: label == "Try Again"), 5, "no button named exactly 'Try Again'")
        app.click(try_again)
        wait_for(lambda: read_text(path) == "Shopping\n- apples\n- pears", 5,
                 lambda: f"after Try Again the note holds {read_text(path)!r}")
        wait_status(app, "Saved")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)


@acceptance
def status_light_turns_green_by_itself_when_the_disk_comes_back(binary, home):
    """Issue #12: a failed save is retried by itself; no click is needed once the disk can be
    written again, and the dialog is shown once, not per retry."""
    library = tmpfs_library(home)
    if library is None:
        skip("cannot mount a tmpfs; needs root")
    app = Notula(binary, home)
    try:
        path = type_on_a_read_only_disk(app, home, library)
        wait_for(lambda: app.find(lambda a: "could not be saved" in name(a)), 5, "no error dialog about the failed save")
        time.sleep(5)  # retries meanwhile (2 s, 4 s …) fail quietly
        dialogs = app.find_all(lambda a: role(a) in ("dialog", "alert") and "could not be saved" in name(a))
        check(len(dialogs) == 1, f"{len(dialogs)} dialogs for one failure")
        check(mount("-o", "remount,rw", library).returncode == 0, "cannot remount read-write")
        wait_for(lambda: read_text(path) == "Shopping\n- apples\n- pears", 20,
                 lambda: f"the note was not saved by itself: {read_text(path)!r}")
        wait_status(app, "Saved")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)
