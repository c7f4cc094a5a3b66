"""Acceptance tests of the two homes (issue #5): Preferences moves every note to a synced folder
and back, the first launch offers a known sync folder, and an unavailable synced folder shows a
banner instead of an empty list."""
import glob
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (Notula, acceptance, check, children, extents_in_window, find_all, has_state, mount, name,  # noqa: E402
                           press_in_window, role, skip, screenshot, tmpfs_library, wait_for)
import pyatspi  # noqa: E402
from tests_status_light import read_text, type_at_end  # noqa: E402


def notes_in(folder):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(folder, "*.md")))


def click_button(app, label, timeout=8):
    button = wait_for(lambda: app.button(lambda text: text == label), timeout, f"no button named exactly '{label}'")
    app.click(button)


def choose_folder(app, path):
    """Drives GTK's own folder chooser (no portal here): the folder's path in its location
    field, Enter. GTK then either takes the folder or goes into it (its field no longer holds
    the path, the chooser stays): Select takes it then."""
    title = "Choose the Synced Folder"
    chooser = wait_for(lambda: app.find(lambda a: title in name(a)), 8, "no folder chooser")
    app.enter_path(chooser, path, location_key="ctrl+l")
    def went_in_or_chose():
        if app.find(lambda a: title in name(a)) is None:
            return "chose"
        fields = find_all(chooser, lambda a: role(a) == "text" and has_state(a, pyatspi.STATE_SHOWING))
        texts = [a.queryText().getText(0, a.queryText().characterCount) for a in fields]
        return "went in" if fields and path not in texts else None
    if wait_for(went_in_or_chose, 8, "the folder chooser neither took the folder nor went into it") == "went in":
        click_button(app, "Select")


def index_file(cache, library):
    """The library index's cache file for a library folder (`LibraryIndex.cacheURL`: FNV-1a of the path)."""
    path = os.path.normpath(library)
    value = 0xCBF29CE484222325
    for byte in os.fsencode(path):
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    label = "".join(c for c in os.path.basename(path) if c.isalpha() or c.isdigit())[:40]
    return os.path.join(cache, "notula", f"index-{label}-{value:x}.sqlite")


def indexes_in(cache):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(cache, "notula", "index-*")))


@acceptance
def preferences_move_all_notes_to_a_synced_folder_and_back(binary, home):
    sync = os.path.join(home.root, "Sync")
    os.makedirs(os.path.join(sync, ".stfolder"))
    synced_notes = os.path.join(sync, "Notes")
    app = Notula(binary, home)
    try:
        app.launch()
        for count, title in enumerate(("Groceries", "Book ideas", "Meeting"), start=1):
            app.focus()
            app.key("ctrl+n")
            wait_for(lambda: len(notes_in(home.library)) == count, 5, lambda: f"Ctrl+N gave no note ({notes_in(home.library)})")
            app.wait_new_note_in_editor()
            app.type(title)
        wait_for(lambda: len(notes_in(home.library)) == 3 and all(read_text(os.path.join(home.library, n)) for n in notes_in(home.library)),
                 8, lambda: f"three notes were not created locally: {notes_in(home.library)}")
        local_bytes = {n: read_text(os.path.join(home.library, n)) for n in notes_in(home.library)}
        app.focus()
        app.key("ctrl+comma")
        synced_choice = wait_for(lambda: app.find(lambda a: name(a) == "Store notes in a Synced Folder"), 8, "Preferences did not open")
        screenshot("preferences.png")
        app.click(synced_choice)
        choose_folder(app, sync)
        wait_for(lambda: app.find(lambda a: "Move 3 notes" in name(a)), 8, "no confirmation before moving")
        click_button(app, "Move Notes")
        wait_for(lambda: notes_in(synced_notes) == sorted(local_bytes) and not notes_in(home.library), 10,
                 lambda: f"after the move: synced {notes_in(synced_notes)}, local {notes_in(home.library)}")
        check({n: read_text(os.path.join(synced_notes, n)) for n in notes_in(synced_notes)} == local_bytes, "the notes changed while moving")
        check(os.path.isdir(os.path.join(sync, ".stfolder")), "Syncthing's marker was touched")
        # The app lists and edits them where they are now.
        app.wait_rows(["Meeting", "Book ideas", "Groceries"], timeout=5)
        # The index went with the notes (issue #29): the synced folder's is there, and the
        # local folder's — no notes left there — is gone.
        synced_index, local_index = index_file(home.cache, synced_notes), index_file(home.cache, home.library)
        wait_for(lambda: os.path.exists(synced_index) and not os.path.exists(local_index), 5,
                 lambda: f"indexes after the move: {indexes_in(home.cache)}")
        check(not [line for line in app.output if "indexed again" in line], f"the index was not carried over: {app.tail()}")
        type_at_end(app, " moved")
        wait_for(lambda: any(read_text(os.path.join(synced_notes, n)).endswith(" moved") for n in notes_in(synced_notes)), 5,
                 "an edit after the move did not reach the synced folder")
        check(not notes_in(home.library), "an edit recreated a note in the local folder")
        # And back.
        local_choice = wait_for(lambda: app.find(lambda a: name(a) == "Store notes on This Computer"), 5, "Preferences is gone")
        app.click(local_choice)
        wait_for(lambda: app.find(lambda a: "Move 3 notes" in name(a)), 8, "no confirmation before moving back")
        click_button(app, "Move Notes")
        wait_for(lambda: len(notes_in(home.library)) == 3 and not notes_in(synced_notes), 10,
                 lambda: f"after moving back: local {notes_in(home.library)}, synced {notes_in(synced_notes)}")
        # The preference flips once every note is across (just after the last file moved).
        wait_for(lambda: '"local"' in read_text(home.preferences_file), 5, "the preference did not flip back")
        wait_for(lambda: os.path.exists(local_index) and not os.path.exists(synced_index), 5,
                 lambda: f"indexes after moving back: {indexes_in(home.cache)}")
        check(not [line for line in app.output if "indexed again" in line], f"the index was not carried back: {app.tail()}")
        wait_for(lambda: len(app.rows()) == 3, 5, lambda: f"rows after moving back: {app.rows()}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def first_launch_offers_the_syncthing_folder(binary, home_unused):
    from notula_driver import TempHome
    home = TempHome(prefix="notula-first-launch-", first_launch=True)
    os.makedirs(os.path.join(home.root, "Sync", ".stfolder"))
    # NOTULA_REPORT_SEARCH: the app says when its start is done (the list complete), which is
    # when the first-launch question would be asked.
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_SEARCH": "1"})
    try:
        app.launch()
        wait_for(lambda: app.find(lambda a: "Syncthing folder" in name(a)), 8, "the first launch did not ask about the sync folder")
        screenshot("first-launch.png")
        click_button(app, "Use Synced Folder")
        synced_notes = os.path.join(home.root, "Sync", "Notes")
        wait_for(lambda: os.path.isdir(synced_notes) and "synced" in read_text(home.preferences_file), 8,
                 "the choice was not remembered")
        app.focus()
        app.key("ctrl+n")
        wait_for(lambda: notes_in(synced_notes), 5, "Ctrl+N gave no note")
        app.wait_new_note_in_editor()
        app.type("First synced note")
        wait_for(lambda: any(read_text(os.path.join(synced_notes, n)) == "First synced note" for n in notes_in(synced_notes)), 5,
                 lambda: f"the new note is not in the synced folder: {notes_in(synced_notes)}")
        check(app.quit() == 0, "Ctrl+Q failed")
        app.launch()  # asked once: the second start asks nothing
        wait_for(lambda: any(line.startswith("notula-search-index-ready ") for line in list(app.output)), 8,
                 lambda: f"the second start never finished listing; output: {app.tail()}")
        check(app.find(lambda a: "Syncthing folder" in name(a)) is None, "the first-launch question came again")
        check(app.quit() == 0, "second Ctrl+Q failed")
    finally:
        app.cleanup()
        home.remove()


@acceptance
def first_launch_without_a_sync_folder_says_so_in_the_window(binary, home_unused):
    """Issue #12: information is not an error — no modal dialog when there is nothing to choose."""
    from notula_driver import TempHome
    home = TempHome(prefix="notula-first-launch-", first_launch=True)
    app = Notula(binary, home)
    try:
        app.launch()
        notice = wait_for(lambda: app.find(lambda a: role(a) == "label" and "kept on this computer" in name(a)
                                           and has_state(a, pyatspi.STATE_VISIBLE)), 8, "no first-launch notice")
        check(app.find(lambda a: role(a) in ("dialog", "alert")) is None, "a dialog for information")
        check(notice is not None and "local" in read_text(home.preferences_file), "the choice was not remembered")
        screenshot("first-launch-local.png")
        click_button(app, "Set Up Sync…")
        wait_for(lambda: app.find(lambda a: role(a) in ("radio button", "check box") and "Synced Folder" in name(a)), 5,
                 lambda: f"Set Up Sync… did not open Preferences; windows: {[name(w) for w in children(app.accessible_app())]}, "
                         f"the button at {extents_in_window(app.button(lambda text: text == 'Set Up Sync…'))}, {app.last_click()}")
        app.key("Escape")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        home.remove()


@acceptance
def unavailable_synced_folder_shows_a_banner_not_an_empty_library(binary, home):
    missing = os.path.join(home.root, "usb-stick", "Notes")
    home.write_preferences({"storage": "synced", "syncedFolder": missing})
    app = Notula(binary, home)
    try:
        app.launch()
        banner = wait_for(lambda: app.find(lambda a: role(a) == "label" and "is not available" in name(a)), 8, "no banner")
        check(missing in name(banner), f"the banner does not name the folder: {name(banner)!r}")
        check(not os.path.exists(missing), "an empty folder was created in place of the missing one")
        check(app.button(lambda text: text.startswith("Locate Folder")) is not None, "no Locate Folder… button")
        screenshot("synced-folder-unavailable.png")
        # The stick comes back: Retry lists its notes.
        os.makedirs(missing)
        with open(os.path.join(missing, "trip.md"), "w", encoding="utf-8") as handle:
            handle.write("Trip\n")
        click_button(app, "Retry")
        app.wait_rows(["Trip"], timeout=5)
        # Looked up again: GTK 4.18 tells nobody that a hidden widget's children went out of
        # sight, so the label found before keeps its "showing" state.
        wait_for(lambda: app.find(lambda a: role(a) == "label" and "is not available" in name(a)
                                  and has_state(a, pyatspi.STATE_SHOWING)) is None, 5, "the banner is still shown")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def moving_many_notes_shows_progress_and_loses_none(binary, home):
    library = tmpfs_library(home, size="64m")
    if library is None:
        skip("cannot mount a tmpfs; needs root")
    sync = os.path.join(home.root, "Sync")
    os.makedirs(os.path.join(sync, ".stfolder"))
    app = Notula(binary, home)
    try:
        for index in range(6000):
            home.write_note(f"n{index:04}.md", f"Note {index}\n" + "words " * 300, age_seconds=index)
        app.launch()
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(lambda: app.find(lambda a: name(a) == "Store notes in a Synced Folder"), 8, "Preferences did not open"))
        choose_folder(app, sync)
        wait_for(lambda: app.find(lambda a: "Move 6000 notes" in name(a)), 10, "no confirmation")
        click_button(app, "Move Notes")
        # The dialog's window, by its title (quicker to find than through AT-SPI while it moves).
        wait_for(lambda: subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Moving Notes$"],
                                        capture_output=True, text=True).stdout.strip(), 10, "no progress dialog", interval=0.02)
        screenshot("moving-notes.png")
        synced_notes = os.path.join(sync, "Notes")
        wait_for(lambda: len(notes_in(synced_notes)) == 6000 and not notes_in(library), 60,
                 lambda: f"synced {len(notes_in(synced_notes))}, left {len(notes_in(library))}")
        check(read_text(os.path.join(synced_notes, "n4321.md")) == "Note 4321\n" + "words " * 300, "a note changed on the way")
        # The files are across before the move is done (links, pins, the history follow, then
        # the progress dialog closes and the choice is saved): Ctrl+Q once it is, as a user
        # would — a key pressed while the modal progress dialog shows goes to it.
        wait_for(lambda: '"synced"' in read_text(home.preferences_file), 60, "the move did not finish")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)


def mount_fat(folder, megabytes=64):
    """Makes a FAT32 image and mounts it at `folder`: the kernel's vfat where it has one, else
    fusefat (dosfstools, fusefat: make deps-test). Returns None, or why it could not."""
    image = folder + ".img"
    os.makedirs(folder)
    with open(image, "wb") as handle:
        handle.truncate(megabytes * 1024 * 1024)
    quiet = dict(stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fusefat's daemon keeps them
    try:
        if subprocess.run(["mkfs.vfat", "-F", "32", image], **quiet).returncode != 0:
            return "mkfs.vfat failed"
    except FileNotFoundError:
        return "mkfs.vfat is missing (dosfstools)"
    if mount("-t", "vfat", "-o", "loop", image, folder).returncode == 0:
        return None
    try:
        if subprocess.run(["fusefat", "-o", "rw+", image, folder], **quiet).returncode == 0:
            return None
    except FileNotFoundError:
        return "no vfat in the kernel and no fusefat"
    return "neither the kernel's vfat nor fusefat could mount the image (needs root)"


def replaces_files(folder):
    """Whether the drive at `folder` renames a file over another (the kernel's vfat and Debian
    12's fusefat do; Debian 13's fusefat 0.3 answers EEXIST)."""
    first, second = os.path.join(folder, "probe-a"), os.path.join(folder, "probe-b")
    for path in (first, second):
        with open(path, "w") as handle:
            handle.write("probe")
    try:
        os.replace(first, second)
        return True
    except OSError:
        return False
    finally:
        for path in (first, second):
            if os.path.exists(path):
                os.remove(path)


def unmount_fat(folder):
    if subprocess.run(["umount", folder], capture_output=True).returncode != 0:
        subprocess.run(["umount", "-l", folder], capture_output=True)
    if os.path.exists(folder + ".img"):
        os.remove(folder + ".img")


def files_in(folder):
    """Every regular file under `folder` (hidden ones too), by its path there, with its bytes."""
    found = {}
    for top, _, names in os.walk(folder):
        for file_name in names:
            path = os.path.join(top, file_name)
            with open(path, "rb") as handle:
                found[os.path.relpath(path, folder)] = handle.read()
    return found


@acceptance
def preferences_move_to_a_fat_stick_renames_what_it_cannot_hold_and_says_so(binary, home):
    """Issue #28 (9): a synced folder on FAT. FAT has no hard links, refuses ':' and '?', and does
    not tell 'Todo.md' from 'todo.md': every note arrives, renamed where it must be, the window
    says which, the open note is edited where it now is, and the notes come back."""
    stick = os.path.join(home.root, "Stick")
    problem = mount_fat(stick)
    if problem:
        skip(f"{problem}")
    notes = {"Todo.md": "Upper todo\n", "todo.md": "Lower todo\n", "a:b.md": "Colon note\n", "Plain.md": "Plain note\n",
             "Work/plan.md": "Work plan\n", "Ideas?/spark.md": "Spark\n"}
    for path, text in notes.items():
        os.makedirs(os.path.dirname(os.path.join(home.library, path)), exist_ok=True)
        home.write_note(path, text)
    expected = {"Todo.md": "Upper todo\n", "todo (2).md": "Lower todo\n", "a_b.md": "Colon note\n", "Plain.md": "Plain note\n",
                "Work/plan.md": "Work plan\n", "Ideas_/spark.md": "Spark\n"}
    synced_notes = os.path.join(stick, "Notes")
    app = Notula(binary, home)
    try:
        app.launch()
        app.click(wait_for(lambda: app.row_accessible("Colon note"), 8, lambda: f"no 'Colon note' row: {app.rows()}"))
        wait_for(lambda: "Colon note" in (app.editor_text() or ""), 5, "the note did not open")
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(lambda: app.find(lambda a: name(a) == "Store notes in a Synced Folder"), 8, "Preferences did not open"))
        choose_folder(app, stick)
        if not replaces_files(stick):
            # fusefat 0.3 (Debian 13) cannot rename a file over another, which every save does:
            # the move is refused before a note goes, and the window says why.
            print("  fusefat cannot replace files here: the move must be refused", flush=True)
            wait_for(lambda: app.find(lambda a: role(a) == "label" and "cannot replace a file" in name(a)), 10,
                     "the move to a drive that cannot replace files was not refused")
            here = {path: data.decode() for path, data in files_in(home.library).items() if path.endswith(".md")}
            check(here == notes, f"the refused move changed the notes here: {sorted(here)}")
            check(not os.path.exists(synced_notes), f"the refused move left {sorted(files_in(synced_notes))} on the stick")
            click_button(app, "Keep Notes Where They Are")
            wait_for(lambda: app.find(lambda a: role(a) == "label" and "cannot replace a file" in name(a)
                                      and has_state(a, pyatspi.STATE_SHOWING)) is None, 5, "the refusal did not close")
            check(app.quit() == 0, "Ctrl+Q failed")
            check('"synced"' not in read_text(home.preferences_file), "the refused folder became the library")
            return
        question = wait_for(lambda: app.find(lambda a: "names change on the way" in name(a)), 10,
                            "the confirmation does not say that names change")
        for rename in ("a:b.md → a_b.md", "todo.md → todo (2).md", "Ideas? → Ideas_"):
            check(rename in name(question), f"the confirmation does not list {rename!r}: {name(question)!r}")
        check("capital letters" in name(question), f"the confirmation does not say why: {name(question)!r}")
        screenshot("move-to-fat-confirmation.png")
        click_button(app, "Rename and Move")
        wait_for(lambda: {path: data.decode() for path, data in files_in(synced_notes).items() if not path.startswith(".")} == expected,
                 20, lambda: f"on the stick: {sorted(files_in(synced_notes))}, left here: {sorted(files_in(home.library))}")
        # The notice comes when the move has ended (the sources go after every copy is on the
        # stick): only then may nothing be left here.
        notice = wait_for(lambda: app.find(lambda a: role(a) == "label" and "names changed on the way" in name(a)
                                           and has_state(a, pyatspi.STATE_VISIBLE)), 8, "the window does not say which names changed")
        check(not [p for p in files_in(home.library) if p.endswith(".md")], f"notes were left behind: {sorted(files_in(home.library))}")
        for rename in ("a:b.md → a_b.md", "todo.md → todo (2).md", "Ideas? → Ideas_"):
            check(rename in name(notice), f"the notice does not list {rename!r}: {name(notice)!r}")
        press_in_window("Preferences", "Escape")  # Preferences closes: the notice shows above the list
        wait_for(lambda: app.find(lambda a: name(a) == "Store notes on This Computer") is None, 5, "Preferences did not close")
        screenshot("moved-to-fat-notice.png")
        # The open note was renamed on the way: typing saves it where it is now, on FAT.
        type_at_end(app, " edited on FAT")
        wait_for(lambda: read_text(os.path.join(synced_notes, "a_b.md")).endswith(" edited on FAT"), 8,
                 lambda: f"the edit did not reach a_b.md on the stick: {read_text(os.path.join(synced_notes, 'a_b.md'))!r}")
        check(not os.path.exists(os.path.join(home.library, "a:b.md")), "the edit recreated the old note here")
        # And back to this computer: every note, under the names it has now.
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(lambda: app.find(lambda a: name(a) == "Store notes on This Computer"), 8, "Preferences did not open"))
        wait_for(lambda: app.find(lambda a: "Move 6 notes" in name(a)), 10, "no confirmation before moving back")
        click_button(app, "Move Notes")
        expected["a_b.md"] = "Colon note\n edited on FAT"
        wait_for(lambda: {p: d.decode() for p, d in files_in(home.library).items() if p.endswith(".md")} == expected, 20,
                 lambda: f"back here: {sorted(files_in(home.library))}, on the stick: {sorted(files_in(synced_notes))}")
        # The preference flips when the move has ended (the stick's copies go after every note
        # is here); Ctrl+Q before that waits for the move.
        wait_for(lambda: '"local"' in read_text(home.preferences_file), 10, "the preference did not flip back")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        unmount_fat(stick)
