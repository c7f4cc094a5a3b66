"""Quick notes (issue #48), on the real binary: `notula --quick-note` opens a small window of
its own (in the running instance, or alone when Notula is not running: no main window) with
the cursor in an empty note; what is typed becomes a new note file; Ctrl+Enter or Escape
closes it, and nothing typed makes no note. `notula --quick-note TEXT` (or `-`, standard
input) files the text without a window, and refuses what is not text."""
import os
import shlex
import subprocess
import time

import pyatspi
from notula_driver import (Notula, acceptance, check, find_all, find_one, has_state, mount, name, role, screenshot, tmpfs_library,
                           visible_notula_windows, wait_for, xdotool)

QUICK_TITLE = "Quick Note"


def quick_windows():
    return xdotool("search", "--onlyvisible", "--name", f"^{QUICK_TITLE}$", check_rc=False).split()


def quick_editor(app):
    """The text of the Quick Note window (the main window has one of the same name)."""
    frame = app.find(lambda a: role(a) == "frame" and name(a) == QUICK_TITLE)
    return find_one(frame, lambda a: role(a) == "text" and name(a) == app.editor_name) if frame is not None else None


def open_quick_note(app, process_output):
    """Waits for the Quick Note window with the keyboard focus in its empty text; its X id."""
    wait_for(lambda: any(line == "notula-quick-note shown" for line in process_output), 10,
             lambda: f"no Quick Note window was reported; output: {process_output[-6:]}")
    wid = wait_for(quick_windows, 5, "no visible window titled 'Quick Note'")[0]
    xdotool("windowfocus", "--sync", wid)
    wait_for(lambda: (editor := quick_editor(app)) is not None and has_state(editor, pyatspi.STATE_FOCUSED), 5,
             lambda: f"the Quick Note's text does not have the keyboard focus ({app.focused_description()})")
    text = quick_editor(app).queryText()
    check(text.characterCount == 0, f"the Quick Note is not empty: {text.getText(0, -1)!r}")
    return wid


def close_quick_note(app, what="Escape"):
    """Escape in the Quick Note window (brought to the front); waits until it is gone."""
    xdotool("windowfocus", "--sync", wait_for(quick_windows, 5, "no Quick Note window to close")[0])
    app.key("Escape")
    wait_for(lambda: not quick_windows(), 5, f"{what} did not close the Quick Note")


def file_holding(home, text):
    for file_name in home.md_files():
        with open(os.path.join(home.library, file_name), encoding="utf-8", errors="replace") as handle:
            if handle.read() == text:
                return file_name
    return None


@acceptance
def quick_note_while_notula_runs_opens_a_small_window_and_files_what_is_typed(binary, home):
    home.write_note("old.md", "Old note\n\nthere before\n", age_seconds=600)
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_DESKTOP": "1"})
    try:
        app.launch()
        app.wait_rows(["Old note"])
        started = time.monotonic()
        request = app.spawn("--quick-note")
        check(app.wait_exit(request, timeout=5) == 0, f"`notula --quick-note` failed: {request.lines[-5:]}")
        wid = open_quick_note(app, app.output)
        print(f"    Quick Note window up {1000 * (time.monotonic() - started):.0f} ms after the command (the bench measures it)")
        check(len(visible_notula_windows()) == 1, "the Quick Note is not a window of its own beside the main window")
        app.type("Call the plumber")
        app.key("Return")
        app.type("about the sink")
        wait_for(lambda: quick_editor(app).queryText().getText(0, -1) == "Call the plumber\nabout the sink", 5,
                 lambda: f"the Quick Note holds {quick_editor(app).queryText().getText(0, -1)!r}")
        screenshot("quick-note.png")
        app.key("ctrl+Return")
        wait_for(lambda: not quick_windows(), 5, "Ctrl+Enter did not close the Quick Note")
        made = wait_for(lambda: file_holding(home, "Call the plumber\nabout the sink"), 5,
                        lambda: f"no note file holds the text typed; files: {home.md_files()}")
        app.wait_rows(["Call the plumber", "Old note"], after="a quick note")

        # Nothing typed: Escape closes, no note is made.
        before = sorted(home.md_files())
        request = app.spawn("--quick-note")
        check(app.wait_exit(request, timeout=5) == 0, "the second `notula --quick-note` failed")
        wait_for(lambda: sum(1 for line in app.output if line == "notula-quick-note shown") == 2, 10,
                 "the second Quick Note window was not reported")
        close_quick_note(app, "Escape in an empty Quick Note")
        app.bus_messages_handled()
        check(sorted(home.md_files()) == before, f"an empty Quick Note made a note: {sorted(set(home.md_files()) - set(before))}")
        check(not any(line.startswith("notula-quick-note made") and made not in line for line in app.output),
              f"a second note was made: {app.tail()}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def quick_note_when_notula_is_not_running_shows_only_the_small_window(binary, home):
    home.make_library()
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_DESKTOP": "1"})
    try:
        app.launch("--quick-note", wait_window=False)
        open_quick_note(app, app.output)
        check(not visible_notula_windows(), "the main window opened with the Quick Note")
        app.type("Buy stamps")
        wait_for(lambda: file_holding(home, "Buy stamps") is not None, 8,
                 lambda: f"the typed text was not saved as a note (autosave); files: {home.md_files()}")
        app.key("Escape")
        check(app.wait_exit(timeout=10) == 0, f"Notula did not end with its only window: {app.tail()}")
        check(len(home.md_files()) == 1, f"notes made: {home.md_files()}")
    finally:
        app.cleanup()


@acceptance
def quick_note_with_text_files_it_without_a_window_and_refuses_what_is_not_text(binary, home):
    home.make_library()
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_DESKTOP": "1"})
    try:
        filed = subprocess.run([app.binary, "--quick-note", "milk"], env=app.env(), capture_output=True, timeout=20)
        check(filed.returncode == 0, f"`notula --quick-note milk` failed: {filed.stderr!r}")
        path = filed.stdout.decode().strip()
        check(os.path.dirname(path) == home.library and open(path, encoding="utf-8").read() == "milk\n",
              f"it printed {path!r}; files: {home.md_files()}")
        check(b"notula-quick-note shown" not in filed.stdout + filed.stderr, "a window was shown")

        app.launch()
        app.wait_rows(["milk"])
        piped = subprocess.run([app.binary, "--quick-note", "-"], input="Ideas\n\n- a shed\n".encode(), env=app.env(),
                               capture_output=True, timeout=20)
        check(piped.returncode == 0, f"`notula --quick-note -` failed: {piped.stderr!r}")
        app.wait_rows(["Ideas", "milk"], after="`notula --quick-note -` while Notula runs")
        check(not quick_windows(), "text given made a window show")

        before = sorted(home.md_files())
        for given, why in ((b"\x89PNG\r\n\x1a\n\x00\x00", "a picture's bytes"), (b"caf\xe9", "Latin-1"), (b"  \n", "blank")):
            refused = subprocess.run([app.binary, "--quick-note", "-"], input=given, env=app.env(), capture_output=True, timeout=20)
            check(refused.returncode == 1 and b"no note was made" in refused.stderr,
                  f"{why} on standard input was not refused: {refused.returncode} {refused.stderr!r}")
        app.bus_messages_handled()
        check(sorted(home.md_files()) == before, f"refused text made notes: {sorted(set(home.md_files()) - set(before))}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


MEDIA_KEYS = "org.gnome.settings-daemon.plugins.media-keys"
CUSTOM = MEDIA_KEYS + ".custom-keybinding"
OURS = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/notula-quick-note/"
TERMINAL = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/custom0/"


def gsettings(app, *args):
    """`gsettings` on the same settings as the app (a key file in the test's home)."""
    done = subprocess.run(["gsettings", *args], env=app.env(), capture_output=True, text=True, timeout=10)
    check(done.returncode == 0, f"gsettings {' '.join(args)} failed: {done.stderr}")
    return done.stdout.strip()


def shortcut_button(app):
    return app.find(lambda a: role(a) == "push button" and name(a).startswith("Quick note shortcut"))


def preferences_text(app):
    """Every label of the Preferences window, joined (what it says about the shortcut)."""
    frame = app.find(lambda a: role(a) == "frame" and name(a) == "Preferences")
    return " | ".join(name(a) for a in find_all(frame, lambda a: role(a) == "label")) if frame is not None else ""


@acceptance
def quick_note_shortcut_is_set_in_gnomes_own_keyboard_settings_and_refused_when_gnome_uses_it(binary, home):
    """Preferences ▸ Quick Note ▸ Shortcut, on GNOME (its settings in a key file here): keys GNOME
    uses — its Shell's Super+N, another custom shortcut's Ctrl+Alt+T — are refused with their
    owner's name; Ctrl+Alt+N becomes GNOME's custom shortcut running `notula --quick-note`, read
    back and shown, and the command it runs opens the Quick Note; Backspace removes it."""
    home.make_library()
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_DESKTOP": "1", "GSETTINGS_BACKEND": "keyfile", "XDG_CURRENT_DESKTOP": "GNOME"})
    gsettings(app, "set", MEDIA_KEYS, "custom-keybindings", f"['{TERMINAL}']")
    for key, value in (("name", "Terminal"), ("command", "x-terminal-emulator"), ("binding", "<Primary><Alt>t")):
        gsettings(app, "set", f"{CUSTOM}:{TERMINAL}", key, value)

    def press(keys):
        # Preferences in front (the Quick Note closing hands the focus to any window).
        xdotool("windowfocus", "--sync", wait_for(lambda: xdotool("search", "--onlyvisible", "--name", "^Preferences$", check_rc=False).split(),
                                                  5, "Preferences are not shown")[0])
        # Its own click action: the button is below the fold of a small screen's Preferences.
        app.press(wait_for(lambda: shortcut_button(app), 5, "no 'Quick note shortcut' button in Preferences"))
        wait_for(lambda: "Press the keys" in preferences_text(app), 5, lambda: f"the button does not wait for keys: {preferences_text(app)}")
        app.key(keys)

    try:
        app.launch()
        app.key("ctrl+comma")
        wait_for(lambda: "Not set" in preferences_text(app), 5, lambda: f"Preferences do not say 'Not set': {preferences_text(app)}")
        press("super+n")
        wait_for(lambda: "Super+N is already used by GNOME" in preferences_text(app), 5, lambda: f"Super+N not refused: {preferences_text(app)}")
        check("Focus the active notification" in preferences_text(app), f"the owner is not named: {preferences_text(app)}")
        press("ctrl+alt+t")
        wait_for(lambda: "“Terminal”" in preferences_text(app), 5, lambda: f"another custom shortcut's keys were not refused: {preferences_text(app)}")
        check(gsettings(app, "get", MEDIA_KEYS, "custom-keybindings") == f"['{TERMINAL}']", "a refused key changed GNOME's shortcuts")

        press("ctrl+alt+n")
        wait_for(lambda: gsettings(app, "get", f"{CUSTOM}:{OURS}", "binding") == "'<Control><Alt>n'", 5,
                 lambda: f"GNOME's shortcut is {gsettings(app, 'get', f'{CUSTOM}:{OURS}', 'binding')}; Preferences: {preferences_text(app)}")
        check(gsettings(app, "get", MEDIA_KEYS, "custom-keybindings") == f"['{TERMINAL}', '{OURS}']",
              f"the custom shortcuts are {gsettings(app, 'get', MEDIA_KEYS, 'custom-keybindings')}")
        wait_for(lambda: "Ctrl+Alt+N" in preferences_text(app), 5, lambda: f"the key set is not shown: {preferences_text(app)}")
        screenshot("quick-note-shortcut.png")
        command = shlex.split(gsettings(app, "get", f"{CUSTOM}:{OURS}", "command").strip("'"))
        check(command[-1] == "--quick-note", f"GNOME would run {command}")
        subprocess.run(command, env=app.env(), timeout=20, check=True)  # what GNOME does on the keys
        wait_for(quick_windows, 10, f"`{' '.join(command)}` opened no Quick Note")
        close_quick_note(app)

        press("BackSpace")
        wait_for(lambda: gsettings(app, "get", MEDIA_KEYS, "custom-keybindings") == f"['{TERMINAL}']", 5,
                 lambda: f"Backspace left {gsettings(app, 'get', MEDIA_KEYS, 'custom-keybindings')}")
        wait_for(lambda: "Not set" in preferences_text(app), 5, lambda: f"Preferences do not say 'Not set': {preferences_text(app)}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def quick_note_shortcut_outside_gnome_shows_the_command_to_bind(binary, home):
    home.make_library()
    app = Notula(binary, home, extra_env={"XDG_CURRENT_DESKTOP": "XFCE"})
    try:
        app.launch()
        app.key("ctrl+comma")
        wait_for(lambda: "--quick-note" in preferences_text(app), 5, lambda: f"no command to bind in Preferences: {preferences_text(app)}")
        check(shortcut_button(app) is None or not has_state(shortcut_button(app), pyatspi.STATE_SHOWING),
              "outside GNOME the shortcut button shows")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def quick_note_in_a_read_only_library_says_why_and_try_again_files_every_word(binary, home):
    """The library's disk is read-only (a real tmpfs remounted so): the first words typed into
    the Quick Note cannot become a note. The window says so in its banner — no dialog takes the
    keys being typed — and every word stays in it; once the disk is writable, Try Again files
    all of it."""
    library = tmpfs_library(home)
    check(library is not None, "cannot mount a tmpfs (the tests run as root)")
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_DESKTOP": "1"})
    try:
        check(mount("-o", "remount,ro", library).returncode == 0, "cannot remount the library read-only")
        app.launch("--quick-note", wait_window=False)
        open_quick_note(app, app.output)
        app.type("Pick up the parcel")
        app.keys_handled()
        wait_for(lambda: any("could not be created" in label for label in app.labels()), 8,
                 lambda: f"the Quick Note does not say the note could not be created: {app.labels()}")
        check(not app.find_all(lambda a: role(a) in ("dialog", "alert")), "a dialog interrupted the typing")
        check(quick_editor(app).queryText().getText(0, -1) == "Pick up the parcel",
              f"the text typed is not all in the Quick Note: {quick_editor(app).queryText().getText(0, -1)!r}")
        check(not home.md_files(), f"notes on a read-only disk: {home.md_files()}")
        check(mount("-o", "remount,rw", library).returncode == 0, "cannot remount the library writable")
        # Pressed through AT-SPI: the driver's clicks place themselves by the main window, not here.
        app.press(app.button(lambda text: text == "Try Again"))
        wait_for(lambda: file_holding(home, "Pick up the parcel") is not None, 8, lambda: f"Try Again filed no note: {home.md_files()}")
        check(len(home.md_files()) == 1, f"notes: {home.md_files()}")
        close_quick_note(app)
        check(app.wait_exit(timeout=10) == 0, f"Notula did not end with its Quick Note: {app.tail()}")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", library], capture_output=True)
