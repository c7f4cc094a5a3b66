"""Notula at home on the desktop, on the real binary (issue #33): GNOME Shell's search provider
called over the session bus exactly as the Shell calls it (AND of the terms, bodies found,
metas, a result opened at its match), D-Bus activation of a Notula not running that exits by
itself when idle, a Markdown file outside the library in a window of its own saved in place,
one note in two windows sharing one document, the session restored after a restart, and the
editor's zoom."""
import ast
import os
import re
import shutil
import subprocess
import tempfile
import time

import pyatspi

from notula_driver import (APP_ID, Notula, acceptance, check, children, extents_in_window, find_all, has_state, name, note_bytes,
                           role, run_tool, screenshot, track, visible_notula_windows, wait_file, wait_for, xdotool)
from tests_spelling import choose

PROVIDER_PATH = "/io/github/notula/Notula/SearchProvider"
PROVIDER = "org.gnome.Shell.SearchProvider2"
DESKTOP = {"NOTULA_REPORT_DESKTOP": "1"}
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def gvariant(text):
    """A gdbus reply as Python values (strings, lists, dicts; variants unwrapped)."""
    text = re.sub(r"<('(?:[^'\\]|\\.)*')>", r"\1", text.strip())
    text = re.sub(r"@\w+ ", "", text)
    return ast.literal_eval(text)


def provider_call(method, *arguments, address=None, timeout=10):
    """Calls the search provider as GNOME Shell does (gdbus on the session bus); the reply's values."""
    env = dict(os.environ)
    if address:
        env["DBUS_SESSION_BUS_ADDRESS"] = address
    result = subprocess.run(["gdbus", "call", "--session", "--dest", APP_ID, "--object-path", PROVIDER_PATH,
                             "--method", f"{PROVIDER}.{method}", *arguments, "--timeout", str(timeout)],
                            capture_output=True, text=True, timeout=timeout + 5, env=env)
    check(result.returncode == 0, f"{method} failed: {result.stderr.strip()}")
    return gvariant(result.stdout)


def search(terms, address=None, timeout=10):
    return provider_call("GetInitialResultSet", repr(list(terms)), address=address, timeout=timeout)[0]


def wait_results(terms, expected, timeout=20):
    """Waits until the provider answers `terms` with exactly `expected` (the index fills in)."""
    last = []

    def answered():
        last[:] = search(terms)
        return last == expected
    wait_for(answered, timeout, lambda: f"provider answered {terms} with {last}, not {expected}", interval=0.3)


def window_named(app, title, timeout=10):
    return wait_for(lambda: next((w for w in children(app.accessible_app()) if name(w) == title), None), timeout,
                    lambda: f"no window {title!r}; windows: {[name(w) for w in children(app.accessible_app())]}")


def editor_in(window):
    found = find_all(window, lambda a: role(a) == "text" and name(a) == "Note text")
    check(found, f"no editor in the window {name(window)!r}")
    return found[0]


def text_of(editor):
    text = editor.queryText()
    return text.getText(0, text.characterCount)


def x_window(title, timeout=10):
    out = wait_for(lambda: xdotool("search", "--onlyvisible", "--name", f"^{re.escape(title)}$", check_rc=False).split(), timeout,
                   f"no visible X window titled {title!r}")
    return out[0]


def center_of(acc):
    x, y, width, height = extents_in_window(acc)
    return x + width // 2, y + height // 2


def sample_notes(home):
    home.write_note("Bread recipe.md", "Bread recipe\n\nflour, water, salt\n", age_seconds=300)
    home.write_note("Shopping.md", "Shopping\n\nmilk\nbread\neggs for the cake\n", age_seconds=200)
    home.write_note("Eggs.md", "Eggs\n\nonly eggs here\n", age_seconds=100)


@acceptance
def shell_search_provider_answers_as_gnome_shell_calls_it(binary, home):
    sample_notes(home)
    app = Notula(binary, home, DESKTOP)
    app.launch()
    # Every term must match (AND), in the title or the text; titles holding them come first.
    wait_results(["bread"], ["Bread recipe.md", "Shopping.md"])
    check(search(["bread", "eggs"]) == ["Shopping.md"], f"AND of two terms: {search(['bread', 'eggs'])}")
    check(search(["flour"]) == ["Bread recipe.md"], "a word only in a note's text is found")
    check(search(["BREAD", "Cake"]) == ["Shopping.md"], "case is ignored")
    check(search(["nowhere"]) == [], "a word in no note finds nothing")
    refined = provider_call("GetSubsearchResultSet", repr(["Bread recipe.md", "Shopping.md"]), repr(["bread", "milk"]))[0]
    check(refined == ["Shopping.md"], f"the subsearch narrows to the notes with every term: {refined}")
    metas = provider_call("GetResultMetas", repr(["Shopping.md", "Bread recipe.md"]))[0]
    check([meta["id"] for meta in metas] == ["Shopping.md", "Bread recipe.md"], f"metas in the order asked: {metas}")
    check(metas[0]["name"] == "Shopping" and metas[1]["name"] == "Bread recipe", f"metas name the titles: {metas}")
    check(metas[1]["description"] == "flour, water, salt", f"a meta's description is the first line of text: {metas[1]}")
    check(metas[0]["gicon"] == APP_ID, f"the app's icon: {metas[0]}")

    # A result chosen: the window shows that note with the cursor at the match.
    provider_call("ActivateResult", "Shopping.md", repr(["eggs"]), "0")
    wait_for(lambda: (app.editor_text() or "").startswith("Shopping"), 5, lambda: f"Shopping did not open: {app.editor_text()!r}")
    expected = app.editor_text().index("eggs")
    wait_for(lambda: app.editor().queryText().caretOffset == expected, 5,
             lambda: f"the cursor is at {app.editor().queryText().caretOffset}, not at the match ({expected})")
    # "Search in Notula": the window searches for the terms, its search field focused.
    provider_call("LaunchSearch", repr(["milk", "cake"]), "0")
    app.wait_rows(["Shopping"])
    field = app.find(lambda a: name(a) == "Search notes" and role(a) in ("text", "entry"))
    check(field is not None and has_state(field, pyatspi.STATE_FOCUSED), "the search field is not focused")
    app.quit()


def install_to_prefix(binary, prefix):
    """`make install-files` into a test prefix: the binary, desktop entry and D-Bus service file."""
    result = subprocess.run(["make", "-s", "-C", REPO, "install-files", f"PREFIX={prefix}", f"BINARY={binary}"],
                            capture_output=True, text=True, timeout=300)
    check(result.returncode == 0, f"make install-files failed: {result.stderr.strip()[-500:]}")
    service = os.path.join(prefix, "share/dbus-1/services", f"{APP_ID}.service")
    check(f"Exec={prefix}/bin/notula --gapplication-service" in open(service).read(), "the service file starts the installed binary")
    provider = os.path.join(prefix, "share/gnome-shell/search-providers", f"{APP_ID}.search-provider.ini")
    check(f"ObjectPath={PROVIDER_PATH}" in open(provider).read(), "the search provider file names the object")
    desktop = os.path.join(prefix, "share/applications", f"{APP_ID}.desktop")
    run_tool("desktop-file-validate", desktop)
    entry = open(desktop).read()
    check("DBusActivatable=true" in entry and "[Desktop Action new-note]" in entry and "[Desktop Action quick-note]" in entry,
          "the entry is D-Bus activatable with New Note and Quick Note")


def private_bus(prefix, env):
    """A session bus that activates services from the prefix; (process, address)."""
    config = os.path.join(prefix, "session.conf")
    with open(config, "w") as out:
        out.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <servicedir>{prefix}/share/dbus-1/services</servicedir>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
    process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--print-address=1"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    address = process.stdout.readline().strip()
    check(address.startswith("unix:"), f"the private bus did not start: {address!r}")
    return process, address


def application_call(address, method, *arguments):
    """org.freedesktop.Application, as a launcher calls a D-Bus activatable app."""
    result = subprocess.run(["gdbus", "call", "--session", "--dest", APP_ID, "--object-path", "/io/github/notula/Notula",
                             "--method", f"org.freedesktop.Application.{method}", *arguments, "--timeout", "30"],
                            capture_output=True, text=True, timeout=35, env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address))
    check(result.returncode == 0, f"{method} failed: {result.stderr.strip()}")


def name_owned(address):
    out = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", APP_ID],
                         capture_output=True, text=True, timeout=10, env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address))
    return "true" in out.stdout


@acceptance
def shell_search_starts_notula_through_dbus_activation_and_it_exits_when_idle(binary, home):
    sample_notes(home)
    # A first run indexes the notes, as a user's earlier session would have.
    app = Notula(binary, home, DESKTOP)
    app.launch()
    wait_results(["eggs"], ["Eggs.md", "Shopping.md"])
    app.quit()

    prefix = tempfile.mkdtemp(prefix="notula-prefix-")
    bus = None
    try:
        install_to_prefix(binary, prefix)
        env = home.env({"NOTULA_IDLE_EXIT_SECONDS": "3", "GTK_A11Y": "none", **DESKTOP})
        bus, address = private_bus(prefix, env)
        check(not name_owned(address), "Notula is running before the call")
        # The first call starts Notula (no window) and is answered.
        results = search(["eggs", "cake"], address=address, timeout=30)
        check(results == ["Shopping.md"], f"the activated service answered {results}")
        check(name_owned(address), "the activated Notula does not own its name")
        metas = provider_call("GetResultMetas", repr(results), address=address)[0]
        check(metas[0]["name"] == "Shopping", f"metas from the service: {metas}")
        check(not visible_notula_windows(), "D-Bus activation for a search opened a window")
        # Idle for the timeout (3 s here, 30 s by default): it exits by itself.
        wait_for(lambda: not name_owned(address), 20, "the activated Notula did not exit when idle", interval=0.3)
        processes = run_tool("pgrep", "-f", f"{prefix}/bin/notula", check_rc=False).split()
        check(not processes, f"a Notula process is left: {processes}")

        # The launcher's New Note (the desktop action) through D-Bus activation: a window with a new note.
        before = set(home.md_files())
        application_call(address, "ActivateAction", "new-note", "[]", "{}")
        wait_for(lambda: visible_notula_windows(), 20, "New Note from the launcher opened no window")
        wait_for(lambda: len(set(home.md_files()) - before) == 1, 10, lambda: f"no new note: {home.md_files()}")
        application_call(address, "ActivateAction", "quit", "[]", "{}")
        wait_for(lambda: not visible_notula_windows(), 10, "quit from the launcher left the window")

        # The launcher's Quick Note: the small window alone (issue #48), and Notula ends with it.
        wait_for(lambda: not name_owned(address), 20, "the quit Notula still owns its name", interval=0.1)
        application_call(address, "ActivateAction", "quick-note", "[]", "{}")
        quick = wait_for(lambda: xdotool("search", "--onlyvisible", "--name", "^Quick Note$", check_rc=False).split(), 20,
                         "Quick Note from the launcher opened no Quick Note window")
        check(not visible_notula_windows(), "the launcher's Quick Note opened the main window too")
        xdotool("windowfocus", "--sync", quick[0])
        xdotool("key", "--clearmodifiers", "Escape")
        wait_for(lambda: not name_owned(address), 20, "Notula did not end with its Quick Note window", interval=0.1)
    finally:
        subprocess.run(["pkill", "-KILL", "-f", f"{prefix}/bin/notula"], check=False)
        if bus:
            os.killpg(bus.pid, 9)
            bus.wait(5)
        shutil.rmtree(prefix, ignore_errors=True)


@acceptance
def a_markdown_file_outside_the_library_opens_in_its_own_window_and_saves_in_place(binary, home):
    home.write_note("Inside.md", "Inside\n\nin the library\n")
    folder = tempfile.mkdtemp(prefix="notula-outside-")
    path = os.path.join(folder, "Plan.md")
    with open(path, "w") as out:
        out.write("Outside plan\n\nfirst step\n")
    try:
        app = Notula(binary, home, DESKTOP)
        app.launch(path, wait_window=False)
        wid = x_window("Outside plan")
        window = window_named(app, "Outside plan")
        editor = editor_in(window)
        check(text_of(editor) == "Outside plan\n\nfirst step\n", f"the window shows the file: {text_of(editor)!r}")
        check(not visible_notula_windows(), "a file outside the library opened the main window too")
        light = wait_for(lambda: next(iter(find_all(window, lambda a: role(a) == "push button" and name(a).startswith("Note status"))), None),
                         5, "the note window has no status light")
        check(name(light) == "Note status: Saved", f"the light: {name(light)}")
        xdotool("windowfocus", "--sync", wid)
        app.wid = wid
        app.set_caret(editor, len("Outside plan\n\nfirst step"))
        app.type(" done")
        screenshot("outside-typed.png")
        with_edit = "Outside plan\n\nfirst step done\n"
        wait_for(lambda: open(path).read() == with_edit, 10, lambda: f"the file in place holds {open(path).read()!r}")
        wait_for(lambda: name(light) == "Note status: Saved", 5, lambda: f"the light after saving: {name(light)}")
        check(not os.path.exists(os.path.join(home.library, "Plan.md")), "the outside file was copied into the library")
        check(sorted(os.listdir(folder)) == ["Plan.md"], f"only the file itself in its folder: {os.listdir(folder)}")
        # Ctrl+Q quits from the note window; the main window never opened.
        app.key("ctrl+q")
        app.wait_exit(timeout=10)
        # A file in a folder that does not exist: said in a dialog; nothing else opens, and OK ends it.
        app = Notula(binary, home, DESKTOP)
        app.launch(os.path.join(folder, "missing", "Idea.md"), wait_window=False)
        said = wait_for(lambda: app.find(lambda a: role(a) == "label" and name(a) == "“Idea.md” could not be opened"), 10,
                        "no dialog saying the file could not be opened")
        check(said is not None and not visible_notula_windows(), "a window opened for a file that cannot be made")
        choose(wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "OK"), 5, "no OK button"))
        app.wait_exit(timeout=10)
        check(not os.path.exists(os.path.join(folder, "missing")), "a folder was made for the file")
        # A note of the library given as a file opens in the main window.
        app = Notula(binary, home, DESKTOP)
        app.launch(os.path.join(home.library, "Inside.md"))
        wait_for(lambda: app.editor_text() == "Inside\n\nin the library\n", 5, lambda: f"the main window shows {app.editor_text()!r}")
        app.quit()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@acceptance
def open_in_new_window_shares_one_document_with_the_main_window(binary, home):
    home.write_note("Shared.md", "Shared\n\nline one\n")
    note = os.path.join(home.library, "Shared.md")
    app = Notula(binary, home, DESKTOP)
    app.launch()
    wait_for(lambda: app.editor_text() == "Shared\n\nline one\n", 5, "the note did not open")
    main_wid = app.wid
    app.focus()
    app.key("ctrl+shift+n")
    note_wid = x_window("Shared")
    window = window_named(app, "Shared")
    note_editor = editor_in(window)
    main_window = window_named(app, "Notula")
    main_editor = editor_in(main_window)

    # Typed in the note window: the main window's editor shows the same text.
    writes = inotify_writes(home.library)
    xdotool("windowfocus", "--sync", note_wid)
    app.wid = note_wid
    app.set_caret(note_editor, len("Shared\n\nline one"))
    app.type(" and two")
    expected = "Shared\n\nline one and two\n"
    wait_for(lambda: text_of(main_editor) == expected, 5, lambda: f"the main editor shows {text_of(main_editor)!r}")
    wait_file(home, "Shared.md", expected.encode(), timeout=10)
    count = writes.count_until_quiet("Shared.md")
    check(count == 1, f"one autosave writes the file once, not {count} times")
    # Side by side for the picture.
    xdotool("windowsize", "--sync", main_wid, "560", "600")
    xdotool("windowmove", "--sync", main_wid, "0", "0")
    xdotool("windowsize", "--sync", note_wid, "390", "600")
    xdotool("windowmove", "--sync", note_wid, "568", "0")
    screenshot("two-windows-one-note.png")

    # Typed in the main window: the note window follows.
    app.wid = main_wid
    app.click(main_editor)
    app.set_caret(main_editor, len(expected) - 1)
    app.type(" three")
    expected = "Shared\n\nline one and two three\n"
    wait_for(lambda: text_of(note_editor) == expected, 5, lambda: f"the note window shows {text_of(note_editor)!r}")

    # The main window closes; the note window keeps working; quitting saves.
    app.key("ctrl+w")
    wait_for(lambda: not visible_notula_windows(), 10, "the main window did not close")
    check(app.is_running(), "closing the main window quit although a note window is open")
    xdotool("windowfocus", "--sync", note_wid)
    app.wid = note_wid
    app.set_caret(note_editor, len(expected) - 1)
    app.type(" four")
    app.key("ctrl+q")
    app.wait_exit(timeout=10)
    check(note_bytes(home, "Shared.md") == b"Shared\n\nline one and two three four\n", f"after quitting: {note_bytes(home, 'Shared.md')!r}")
    writes.stop()
    check(os.path.exists(note), "the note is there")


class inotify_writes:
    """Counts CLOSE_WRITE and MOVED_TO events in a folder (an atomic save is one MOVED_TO)."""

    def __init__(self, folder):
        self.events = []
        self.process = track(subprocess.Popen(["inotifywait", "-m", "-q", "-e", "close_write,moved_to", "--format", "%e %f", folder],
                                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True))
        import threading
        threading.Thread(target=self._read, daemon=True).start()
        time.sleep(0.3)  # inotifywait sets its watches before printing anything; give it that moment

    def _read(self):
        for line in self.process.stdout:
            self.events.append(line.strip())

    def count_until_quiet(self, file_name, quiet=1.5):
        """Saves of `file_name` once no event came for `quiet` seconds (a second autosave would)."""
        seen = -1
        while True:
            now = len(self.events)
            if now == seen:
                break
            seen = now
            time.sleep(quiet)
        return sum(1 for event in self.events if event.startswith("MOVED_TO") and event.endswith(" " + file_name))

    def stop(self):
        self.process.kill()
        self.process.wait(5)


@acceptance
def restart_restores_note_cursor_window_size_and_notebook(binary, home):
    os.makedirs(os.path.join(home.library, "Work"), exist_ok=True)
    home.write_note("Work/Plan.md", "Plan\n\n" + "".join(f"line {n}\n" for n in range(1, 80)), age_seconds=500)
    home.write_note("Work/Other.md", "Other\n\nnewest in Work\n", age_seconds=10)
    home.write_note("Newest.md", "Newest\n\nthe newest note\n", age_seconds=1)
    app = Notula(binary, home, DESKTOP)
    app.launch()
    app.wait_rows(["Newest", "Other", "Plan"])
    notebook = wait_for(lambda: app.find(lambda a: role(a) in ("label", "list item") and name(a) == "Work"), 10, "no notebook Work")
    app.click(notebook)
    app.wait_rows(["Other", "Plan"])
    app.click(app.row_accessible("Plan"))
    wait_for(lambda: (app.editor_text() or "").startswith("Plan"), 5, "Plan did not open")
    offset = app.editor_text().index("line 60") + 3
    app.set_caret(app.editor(), offset)
    xdotool("windowsize", "--sync", str(app.wid), "900", "620")
    wait_for(lambda: app.geometry()[2:] == (900, 620), 5, lambda: f"the window is {app.geometry()[2:]}")
    # "Other" in a window of its own, from its row's context menu.
    main_wid = app.wid
    app.click_at(*center_of(app.row_accessible("Other")), button=3)
    item = wait_for(lambda: app.find(lambda a: role(a) == "menu item" and name(a) == "Open in New Window"), 5, "no Open in New Window")
    choose(item)
    xdotool("windowmove", "--sync", x_window("Other"), "920", "0")  # no window manager raises the main window again
    wait_for(lambda: any(line.endswith("/Work/Other.md") and line.startswith("notula-note-window") for line in app.output), 5,
             "the note window did not open")
    app.wid = main_wid
    # The context menu's click selected the row: Plan again, in the main window (the first
    # editor a search of the whole app finds may be the note window's).
    main_editor = editor_in(window_named(app, "Notula"))
    app.click(app.row_accessible("Plan"))
    wait_for(lambda: text_of(main_editor).startswith("Plan"), 5, "Plan did not open again")
    app.set_caret(main_editor, offset)
    app.quit()

    app = Notula(binary, home, DESKTOP)
    app.launch()
    wait_for(lambda: any(line.startswith("notula-restored ") for line in app.output), 10, lambda: f"nothing restored: {app.tail()}")
    check(f"notula-restored {offset} Work/Plan.md" in app.output, f"restored: {[l for l in app.output if 'restored' in l]}")
    main_editor = editor_in(window_named(app, "Notula"))  # the note window has an editor too
    wait_for(lambda: text_of(main_editor).startswith("Plan"), 5, "Plan is not open again")
    check(main_editor.queryText().caretOffset == offset, f"the cursor is at {main_editor.queryText().caretOffset}, not {offset}")
    check(app.geometry()[2:] == (900, 620), f"the window is {app.geometry()[2:]}, not 900 x 620")
    app.wait_rows(["Other", "Plan"], timeout=10)  # the notebook Work again
    x_window("Other")  # the note window reopened
    other = editor_in(window_named(app, "Other"))
    check(text_of(other) == "Other\n\nnewest in Work\n", f"the note window shows {text_of(other)!r}")
    app.quit()

    # A note gone since is simply not reopened: the newest note of the notebook shown opens.
    os.remove(os.path.join(home.library, "Work/Plan.md"))
    app = Notula(binary, home, DESKTOP)
    app.launch()
    app.wait_rows(["Other"], timeout=10)
    main_editor = editor_in(window_named(app, "Notula"))
    wait_for(lambda: text_of(main_editor).startswith("Other"), 10, lambda: f"opened instead: {text_of(main_editor)!r}")
    check(not any(line.startswith("notula-restored ") for line in app.output), "a note gone since was restored")
    app.quit()


@acceptance
def zoom_keys_change_the_text_size_and_it_is_remembered(binary, home):
    home.write_note("Zoom.md", "Zoom\n\nsome words to measure\n")
    app = Notula(binary, home, DESKTOP)
    app.launch()
    wait_for(lambda: app.editor_text() == "Zoom\n\nsome words to measure\n", 5, "the note did not open")

    def line_height(offset=8):  # a body character; 1 is in the title
        return app.editor().queryText().getCharacterExtents(offset, pyatspi.WINDOW_COORDS)[3]

    # The body line at the body's size: GTK 4.8 once drew it at the title's (a title style
    # over the line break, carried to a later line; TextBuffer.lineTagRange).
    normal = line_height()
    title = line_height(1)
    check(normal < title, f"the body line is {normal} px high, the title {title} px")
    app.focus()
    app.key("ctrl+plus", "ctrl+plus")
    wait_for(lambda: "notula-zoom 120" in app.output, 5, lambda: f"no zoom to 120 %: {app.tail()}")
    wait_for(lambda: line_height() > normal * 1.1, 5, lambda: f"the text is {line_height()} px high at 120 %, {normal} px at 100 %")
    app.key("ctrl+minus", "ctrl+minus", "ctrl+minus")
    wait_for(lambda: "notula-zoom 90" in app.output, 5, lambda: f"no zoom to 90 %: {app.tail()}")
    wait_for(lambda: line_height() < normal, 5, "the text did not get smaller")
    app.key("ctrl+plus", "ctrl+plus", "ctrl+plus", "ctrl+plus")
    wait_for(lambda: "notula-zoom 130" in app.output, 5, "no zoom to 130 %")
    app.quit()
    prefs = open(home.preferences_file).read()
    check('"editorZoom"' in prefs and "130" in prefs, f"the zoom is not in the preferences: {prefs}")

    app = Notula(binary, home, DESKTOP)
    app.launch()
    wait_for(lambda: "notula-zoom 130" in app.output, 5, lambda: f"the zoom was not applied at start: {app.tail()}")
    wait_for(lambda: app.editor_text() is not None and line_height() > normal * 1.2, 5, "the text is not larger after a restart")
    app.focus()
    app.key("ctrl+0")
    wait_for(lambda: "notula-zoom 100" in app.output, 5, "Ctrl+0 did not give the normal size")
    wait_for(lambda: line_height() == normal, 5, lambda: f"{line_height()} px at the normal size, {normal} before")
    app.quit()
