"""Acceptance tests of errors and recovery (issue #4), with real faults on the real binary:
a full disk (a 1 MB tmpfs filled up), a read-only disk, a folder without write permission
(as an unprivileged user), and the recovery draft offered back at the next start. Nothing
typed is lost in any of them."""
import glob
import json
import os
import pwd
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (Notula, acceptance, check, children, find_all, has_state, mount, name, role, skip,  # noqa: E402
                           run_as_user, screenshot, tmpfs_library, visible_notula_windows, wait_for, xdotool)
import pyatspi  # noqa: E402
from tests_status_light import read_text, type_at_end, wait_status  # noqa: E402


def dialog(app, title_part):
    return app.find(lambda a: role(a) in ("dialog", "alert") and title_part in name(a))


def button(app, label):
    """The button named exactly `label` over AT-SPI (said once: GTK 4.8 doubled dialogs' names)."""
    return app.button(lambda text: text == label)


@acceptance
def disk_full_shows_why_and_try_again_saves_everything(binary, home):
    library = tmpfs_library(home)
    if library is None:
        skip("cannot mount a tmpfs; needs root")
    app = Notula(binary, home)
    try:
        path = home.write_note("plans.md", "Plans\n")
        app.launch()
        wait_status(app, "Saved")
        filler = os.path.join(library, ".filler")
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=64k", "count=64"], capture_output=True)
        typed = "the words that must not be lost " * 3
        type_at_end(app, typed)
        wait_status(app, "Unsaved")
        found = wait_for(lambda: dialog(app, "could not be saved"), 8, "no dialog about the failed save")
        texts = " ".join(name(a) for a in app.find_all(lambda a: role(a) == "label"))
        check("disk is full" in texts, f"the dialog does not say the disk is full: {texts!r}")
        check(button(app, "Try Again") is not None and button(app, "Save a Copy…") is not None,
              f"the dialog {name(found)!r} lacks Try Again / Save a Copy…")
        check(read_text(path) == "Plans\n", "the note changed although the disk was full")
        screenshot("error-disk-full.png")
        os.remove(filler)
        app.click(button(app, "Try Again"))
        wait_for(lambda: read_text(path) == "Plans\n" + typed, 8, lambda: f"after Try Again the note holds {read_text(path)!r}")
        wait_status(app, "Saved")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)


def has_text(acc):
    """Whether the object is text one can read (GTK's entry holds the text in a child)."""
    try:
        acc.queryText()
        return True
    except NotImplementedError:
        return False


def field_text(field):
    text = field.queryText()
    return text.getText(0, text.characterCount)


@acceptance
def read_only_disk_save_a_copy_writes_the_text_elsewhere(binary, home):
    library = tmpfs_library(home)
    if library is None:
        skip("cannot mount a tmpfs; needs root")
    copy_folder = os.path.join(home.root, "copies")
    os.makedirs(copy_folder)
    app = Notula(binary, home)
    try:
        path = home.write_note("letter.md", "Letter\n")
        app.launch()
        wait_status(app, "Saved")
        check(mount("-o", "remount,ro", library).returncode == 0, "cannot remount read-only")
        type_at_end(app, "Dear Ann,")
        wait_for(lambda: dialog(app, "could not be saved"), 8, "no dialog about the failed save")
        texts = " ".join(name(a) for a in app.find_all(lambda a: role(a) == "label"))
        check("read-only" in texts, f"the dialog does not say the disk is read-only: {texts!r}")
        screenshot("error-read-only.png")
        app.click(button(app, "Save a Copy…"))
        # GTK's own file chooser (no portal here): type a full path into the name field.
        chooser = wait_for(lambda: app.find(lambda a: "Save a Copy of" in name(a)), 8,
                           "no Save a Copy file chooser")
        check(chooser is not None, "no chooser")
        target = os.path.join(copy_folder, "letter-copy.md")
        # Typed once the chooser's name field has the keyboard (under load the window shows
        # before its field takes the focus, and the first keys went elsewhere).
        field = wait_for(lambda: next(iter(find_all(chooser, lambda a: role(a) in ("text", "entry")
                                                    and has_state(a, pyatspi.STATE_FOCUSED) and has_text(a))), None),
                         8, "the chooser's name field does not have the keyboard focus")
        app.key("ctrl+a")
        app.type(target)
        wait_for(lambda: field_text(field) == target, 5, lambda: f"the name field holds {field_text(field)!r}")
        app.key("Return")
        wait_for(lambda: os.path.exists(target), 8, f"{target} was not written")
        check(read_text(target) == "Letter\nDear Ann,", f"the copy holds {read_text(target)!r}")
        check(read_text(path) == "Letter\n", "the read-only note changed?")
        wait_status(app, "Unsaved")
        app.process.terminate()
        check(app.wait_exit() == 0, "SIGTERM did not end the app cleanly")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)


@acceptance
def no_write_permission_as_unprivileged_user(binary, home):
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        skip("no user 'nobody'")
    if os.getuid() != 0:
        skip("needs root to switch to an unprivileged user")
    # nobody's home; the library folder belongs to root and is read-only for nobody, the note
    # itself is nobody's (so it opens editable, and saving needs the folder).
    for folder in (home.root, home.data, home.config, home.state, home.cache,
                   os.path.dirname(home.preferences_file), home.preferences_file):
        os.chown(folder, nobody.pw_uid, nobody.pw_gid)
    os.chmod(home.root, 0o755)
    os.makedirs(os.path.join(home.data, "notula"), exist_ok=True)
    os.chown(os.path.join(home.data, "notula"), nobody.pw_uid, nobody.pw_gid)
    path = home.write_note("todo.md", "Todo\n")
    os.chown(path, nobody.pw_uid, nobody.pw_gid)
    os.chmod(home.library, 0o755)  # owned by root: nobody may read, not write
    # The app says when the note is on screen (NOTULA_REPORT_OPEN; no AT-SPI across users).
    env = home.env({"NOTULA_REPORT_OPEN": "1"})
    command = ["setpriv", f"--reuid={nobody.pw_uid}", f"--regid={nobody.pw_gid}", "--clear-groups",
               "dbus-run-session", "--", binary]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               errors="replace", start_new_session=True)
    output = []
    threading.Thread(target=lambda: output.extend(line.rstrip("\n") for line in process.stdout), daemon=True).start()
    try:
        def window():
            out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Notula$"], capture_output=True, text=True)
            return out.stdout.split()[0] if out.stdout.split() else None
        wid = wait_for(window, 15, "the unprivileged app's window did not appear")
        xdotool("windowfocus", "--sync", wid)
        # The note opens after the list is read: a click before would land on the placeholder.
        wait_for(lambda: any(line.startswith("notula-open ") for line in list(output)), 15,
                 lambda: f"the note never showed in the unprivileged app's editor; output: {output[-5:]}")
        xdotool("mousemove", "--window", wid, "600", "300", "click", "1")
        xdotool("key", "--clearmodifiers", "ctrl+End")
        xdotool("type", "--delay", "30", "--", "buy stamps")

        def error_dialog():
            out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "could not be saved"], capture_output=True, text=True)
            return out.stdout.split()[0] if out.stdout.split() else None
        wait_for(error_dialog, 15, "no 'could not be saved' dialog for the unprivileged user")
        check(read_text(path) == "Todo\n", f"the note changed: {read_text(path)!r}")
        drafts = glob.glob(os.path.join(home.state, "notula", "drafts", "*.json"))
        texts = [json.load(open(d, encoding="utf-8"))["text"] for d in drafts]
        check(any(t == "Todo\nbuy stamps" for t in texts), f"the typed words are not in a recovery draft: {texts!r}")
        screenshot("error-permission.png")
    finally:
        try:
            os.killpg(process.pid, 15)
            process.wait(10)
        except Exception:
            os.killpg(process.pid, 9)


@acceptance
def kept_draft_is_offered_and_restored_at_the_next_start(binary, home):
    path = home.write_note("diary.md", "Diary\nMonday\n", age_seconds=3600)
    drafts = os.path.join(home.state, "notula", "drafts")
    os.makedirs(drafts)
    draft = {"notePath": path, "text": "Diary\nMonday\nTuesday: the words from before the crash",
             "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 60)), "reason": "save failed"}
    with open(os.path.join(drafts, "draft.json"), "w", encoding="utf-8") as handle:
        json.dump(draft, handle)
    app = Notula(binary, home)
    try:
        app.launch()
        wait_for(lambda: dialog(app, "Unsaved text of"), 8, "the kept draft was not offered")
        screenshot("draft-offered.png")
        check(button(app, "Restore") is not None and button(app, "Discard") is not None and button(app, "Later") is not None,
              "the offer lacks Restore / Discard / Later")
        app.click(button(app, "Restore"))
        wait_for(lambda: read_text(path) == draft["text"], 8, lambda: f"after Restore the note holds {read_text(path)!r}")
        wait_for(lambda: not glob.glob(os.path.join(drafts, "*.json")), 5, "the draft is still there after restoring")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def sigkill_while_typing_loses_at_most_about_a_second(binary, home):
    """Issue #12: a crash or power loss while typing (SIGKILL after ~4 s of steady typing)
    loses at most about a second of it: the rest is in the note or in a recovery draft. "A
    second" is on the app's side: the keys reach it later than they are sent when the machine
    is loaded, so the app says what it held when (NOTULA_REPORT_TYPING, the same clock)."""
    path = home.write_note("log.md", "Log\n", age_seconds=60)
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_TYPING": "1"})
    try:
        app.launch()
        wait_for(lambda: (app.editor_text() or "").startswith("Log"), 5, "the note did not open")
        app.click_editor()
        app.key("ctrl+End")
        typed = ""
        start = time.monotonic()
        word = 0
        while time.monotonic() - start < 4:
            piece = f"w{word} "
            xdotool("type", "--delay", "25", "--", piece)
            typed += piece
            word += 1
        # Killed once the app has been typing for a while (under load it lags the keys).
        wait_for(lambda: held_since(app, start + 2) is not None, 10, lambda: f"the app took no key: {app.tail()}")
        os.killpg(app.process.pid, 9)
        killed = time.monotonic()
        app.process.wait(5)
        kept = read_text(path)[len("Log\n"):] if read_text(path).startswith("Log\n") else ""
        for draft in glob.glob(os.path.join(home.state, "notula", "drafts", "*.json")):
            text = json.load(open(draft, encoding="utf-8"))["text"]
            if text.startswith("Log\n") and len(text) - 4 > len(kept):
                kept = text[4:]
        check(typed.startswith(kept), f"what was kept is not what was typed: {kept!r}")
        # What the app held 1.2 s before the kill (its text's length, "Log\n" included).
        safe = max((length - len("Log\n") for length, when in typed_reports(app) if when <= killed - 1.2), default=0)
        lost = len(typed) - len(kept)
        print(f"  typed {len(typed)} characters in {killed - start:.1f} s; SIGKILL lost {lost} "
              f"({lost / (len(typed) / (killed - start)):.2f} s of typing); the app held {safe} 1.2 s before")
        check(len(kept) >= safe, f"lost more than ~1 s of typing: kept {len(kept)} of {len(typed)} characters, "
                                 f"the app held {safe} over a second before the kill")
    finally:
        app.cleanup()


def typed_reports(app):
    """(length of the note's text, CLOCK_MONOTONIC) of each `notula-typed` line so far."""
    reports = []
    for line in list(app.output):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "notula-typed":
            reports.append((int(parts[1]), float(parts[2])))
    return reports


def held_since(app, moment):
    """The note's length the app last reported at or after `moment`, or None."""
    later = [length for length, when in typed_reports(app) if when >= moment]
    return later[-1] if later else None


@acceptance
def unreadable_note_is_not_called_not_utf8_nor_blamed_on_its_folder(binary, home):
    """Issue #28: a note the user may not read (mode 000) was listed as "Not UTF-8 text" and
    opening it blamed the folder's permissions. As an unprivileged user (root ignores
    permissions): the row says it cannot be read, and the dialog names the file."""
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        skip("no user 'nobody'")
    if os.getuid() != 0:
        skip("needs root to switch to an unprivileged user")
    home.write_note("mine.md", "Shopping\nmilk\n", age_seconds=600)
    secret = home.write_note("secret.md", "Secret plans\n", age_seconds=60)
    home.give_to(nobody)
    os.chmod(secret, 0o000)
    run_as_user(nobody, "tests_errors", "unreadable_note_steps", binary, home)
    check(read_text(os.path.join(home.library, "mine.md")) == "Shopping\nmilk\n", "a note changed")


def unreadable_note_steps(binary, home):
    """`unreadable_note_is_not_called_not_utf8_nor_blamed_on_its_folder`, as the unprivileged user."""
    app = Notula(binary, home)
    secret = os.path.join(home.library, "secret.md")
    try:
        app.launch()
        app.wait_rows(["secret.md", "Shopping"], timeout=8)
        row = app.row_accessible("secret.md")
        said = [name(row)] + [name(a) for a in find_all(row, lambda a: role(a) == "label")]
        check(any("You do not have permission to read this file." in text for text in said), f"the row does not say why: {said}")
        everything = app.labels() + app.rows()
        check(not any("UTF-8" in text for text in everything), f"an unreadable note is called not UTF-8: {everything}")
        app.click(row)
        # A failure says where the click went, what the editor shows and the app's last lines
        # (2 of 3 in a soak: the next one to meet it can tell a lost click from a lost dialog).
        found = wait_for(lambda: dialog(app, "could not be opened"), 8,
                         lambda: f"no dialog after opening the unreadable note; {app.last_click()}; "
                                 f"editor {app.editor_text()!r}; output {app.tail()}; "
                                 f"the app's windows {[(role(w), name(w)) for w in children(app.accessible_app())]}")
        check(name(found) == "“secret.md” could not be opened", f"the dialog is titled {name(found)!r}")
        texts = [name(a) for a in find_all(found, lambda a: role(a) == "label")]
        check(any(f"You do not have permission to read the file “{secret}”" in text for text in texts),
              f"the dialog does not say the file cannot be read: {texts}")
        check(not any("the folder" in text for text in texts), f"the dialog blames a folder: {texts}")
        buttons = [name(a) for a in find_all(found, lambda a: role(a) == "push button")]
        check(buttons == ["Try Again", "Show in Files", "Cancel"], f"the dialog's buttons are named {buttons}")
        # As GTK's dialogs did: the default option starts with the focus (Enter answers it),
        # Escape answers the cancel option.
        wait_for(lambda: has_state(button(app, "Try Again"), pyatspi.STATE_FOCUSED), 5,
                 lambda: f"the dialog does not start with the focus on Try Again: {app.focused_description()}")
        app.key("Escape")
        wait_for(lambda: dialog(app, "could not be opened") is None, 5, "Escape did not close the dialog")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


def visible_dialogs(app):
    return [name(w) for w in children(app.accessible_app())
            if role(w) in ("dialog", "alert") and has_state(w, pyatspi.STATE_VISIBLE)]


@acceptance
def draft_of_a_note_whose_file_is_gone_becomes_a_new_note_without_a_dialog(binary, home):
    """Issue #28: after a crash while typing, a start with that note's file gone (deleted, its
    disk unmounted) showed "“New Note” could not be opened … no longer exists" — for a note the
    user did not ask to open. Now: no dialog; the words are a new note, named by their first
    line, and a notice in the window opens it."""
    library = tmpfs_library(home)
    if library is None:
        skip("cannot mount a tmpfs; needs root")
    home.write_note("older.md", "Older note\nstays as it is\n", age_seconds=3600)
    app = Notula(binary, home)
    drafts = os.path.join(home.state, "notula", "drafts")
    try:
        app.launch()
        app.wait_rows(["Older note"])
        app.focus()
        app.key("ctrl+n")
        wait_for(lambda: len(home.md_files()) == 2, 5, "Ctrl+N made no note")
        app.wait_new_note_in_editor()
        new_file = next(n for n in home.md_files() if n != "older.md")
        # The disk stops taking writes before the typing: the words can only be in their draft
        # (a draft the autosave would remove a moment later is no state a test can wait for).
        check(mount("-o", "remount,ro", library).returncode == 0, "cannot remount the library read-only")
        app.type("Shopping list")
        app.key("Return")
        typed = "Shopping list\nmilk eggs"
        app.type("milk eggs")

        def drafted():
            return any(json.load(open(d, encoding="utf-8"))["text"] == typed for d in glob.glob(os.path.join(drafts, "*.json")))
        wait_for(drafted, 8, lambda: f"the typing was not kept in a draft; drafts: "
                                     f"{[json.load(open(d, encoding='utf-8'))['text'] for d in glob.glob(os.path.join(drafts, '*.json'))]!r}, "
                                     f"editor: {app.editor_text()!r}")
        os.killpg(app.process.pid, signal.SIGKILL)  # a crash, with the words in the draft only
        app.process.wait(5)
        wait_for(lambda: not visible_notula_windows(), 5, "the killed window is still there")
        check(mount("-o", "remount,rw", library).returncode == 0, "cannot remount the library writable")
        os.remove(os.path.join(home.library, new_file))  # its disk went, or another program deleted it
        # A second draft, as the app writes one, of a note in a notebook: it goes back there.
        os.makedirs(os.path.join(home.library, "Work"))
        with open(os.path.join(drafts, "work.json"), "w", encoding="utf-8") as handle:
            json.dump({"notePath": os.path.join(home.library, "Work", "gone.md"), "text": "Budget\n12 chairs",
                       "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 60)), "reason": "save failed"}, handle)

        app.launch()
        notice = "Unsaved text of “{}” was kept after its note’s file disappeared; it is now a new note."
        # One notice per note, oldest draft first: the notebook's, then the typing.
        wait_for(lambda: notice.format("Budget") in app.labels(), 8, lambda: f"no notice about the kept text: {app.labels()}")
        app.wait_rows(["Shopping list", "Budget", "Older note"], timeout=5)
        check(not visible_dialogs(app), f"a dialog at start: {visible_dialogs(app)}")
        app.click(app.button(lambda n: n == "Dismiss this notice"))
        wait_for(lambda: notice.format("Shopping list") in app.labels(), 5, lambda: f"no notice about the typed text: {app.labels()}")
        check(not visible_dialogs(app), f"a dialog at start: {visible_dialogs(app)}")
        restored = [n for n in home.md_files() if n not in ("older.md", new_file)]
        check(len(restored) == 1 and read_text(os.path.join(home.library, restored[0])) == typed,
              f"the typed words are not a note of their own: {restored} {[read_text(os.path.join(home.library, n)) for n in restored]}")
        work = glob.glob(os.path.join(home.library, "Work", "*.md"))
        check(len(work) == 1 and read_text(work[0]) == "Budget\n12 chairs", f"the notebook's draft did not go back there: {work}")
        check(not glob.glob(os.path.join(drafts, "*.json")), "drafts are left after their texts became notes")
        check(read_text(os.path.join(home.library, "older.md")) == "Older note\nstays as it is\n", "another note changed")
        screenshot("draft-restored-as-new-note.png")
        app.click(wait_for(lambda: app.button(lambda n: n == "Open Note"), 5, "the notice offers no Open Note"))
        wait_for(lambda: app.editor_text() == typed, 5, lambda: f"Open Note shows {app.editor_text()!r}")
        check(not visible_dialogs(app), f"a dialog: {visible_dialogs(app)}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)
