"""Acceptance tests of the desktop conventions (issue #7): every button has a name a screen
reader can say, Keyboard Shortcuts (Ctrl+?) and About from the main menu, both closed with
Escape, and the dark style — chosen in Preferences and remembered, or following the desktop's
colour scheme through the settings portal."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (Notula, TestFailure, acceptance, check, children, extents_in_window, find_all, has_state, name, role,  # noqa: E402
                           press_in_window, screenshot, wait_for, window_geometry, xdotool)
import pyatspi  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The app's icon (About's logo) from the source tree, as `make run` finds it.
DATA_DIRS = {"XDG_DATA_DIRS": f"{REPO}/data:" + os.environ.get("XDG_DATA_DIRS", "/usr/local/share:/usr/share")}
CONTROL_ROLES = {"push button", "toggle button", "radio button", "check box"}
SHORTCUT_TITLES = ["New Note", "Search", "Close Window", "Quit", "Preferences", "Delete Note", "Undo", "Redo",
                   "Main Menu", "Keyboard Shortcuts"]
# GTK 4.8 falls back to the widget's type name ("GtkImage") for a control nobody named.
GTK_TYPE_NAME = re.compile(r"^Gtk[A-Z]\w*$")


def sample_notes(home):
    home.write_note("groceries.md", "Groceries\n- oat milk\n- a dozen eggs\n- sourdough bread\n- 2 lemons\n", 25 * 60)
    home.write_note("team-sync.md", "Weekly team sync\nAttendees: Priya, Jonas, Sam, Mei\n\n"
                    "- Release 1.2 moves to Thursday\n- Priya looks at the crash reports\n", 3 * 3600)


def unnamed_controls(root):
    """The buttons, toggles, radio buttons and check boxes under `root` without a real name,
    and how many there are in all."""
    controls = find_all(root, lambda a: role(a) in CONTROL_ROLES)
    return [f"{role(a)} {name(a)!r}" for a in controls if not name(a).strip() or GTK_TYPE_NAME.match(name(a))], len(controls)


def toplevel(app, predicate):
    """A showing top-level window of the app (role frame, window, dialog or filler in GTK 4.8)."""
    return next((w for w in children(app.accessible_app()) if has_state(w, pyatspi.STATE_VISIBLE) and predicate(w)), None)


def window_named(app, title):
    return toplevel(app, lambda w: name(w) == title)


def wait_window(app, title, timeout=5):
    return wait_for(lambda: window_named(app, title), timeout,
                    lambda: f"no '{title}' window; windows: {[(role(w), name(w)) for w in children(app.accessible_app())]}")


def close_with_escape(app, title, timeout=5):
    """Escape in the focused window, which must be `title`'s: it closes."""
    app.key("Escape")
    wait_for(lambda: window_named(app, title) is None, timeout, f"Escape did not close the '{title}' window")


def center_over_main_window(app, title):
    wid = xdotool("search", "--onlyvisible", "--name", f"^{title}$").split()[0]
    _, _, width, height = window_geometry(wid)
    left, top, main_width, main_height = window_geometry(app.wid)
    xdotool("windowmove", "--sync", wid, str(left + (main_width - width) // 2), str(top + (main_height - height) // 2))


def labels_under(root):
    return [name(a) for a in find_all(root, lambda a: role(a) == "label")]


def labels_on_every_page(app, window):
    """The labels of every page of the shortcuts window. GTK 4.8 exports the pages not shown as
    well; 4.18 only the page shown, so each page tab is clicked, as a user pages through."""
    shown = labels_under(window)
    for tab in find_all(window, lambda a: role(a) == "page tab"):
        app.click(tab)
        wait_for(lambda: has_state(tab, pyatspi.STATE_SELECTED) or set(labels_under(window)) - set(shown), 3,
                 f"page tab {name(tab)!r} showed nothing")
        shown += labels_under(window)
    return shown


def choose_from_main_menu(app, item):
    """F10, then Down until `item` has the focus, then Return: the menu by keyboard alone. Each
    Down waits for the focus to move (under load the menu answers late). The pointer leaves the
    menu's place first: GTK gives a menu's focus back to the row under the pointer, so a Down
    with the pointer resting there (where an earlier test left it) moves nothing."""
    app.focus()
    app.hover_at(1, 1)
    app.key("F10")
    wait_for(lambda: app.find(lambda a: role(a) == "menu item" and name(a) == item), 3, "F10 did not open the main menu")
    sent = len(app.output)

    def focused():
        """The menu's row with the keyboard focus (an item, a check item, a submenu)."""
        found = app.find(lambda a: "menu" in role(a) and has_state(a, pyatspi.STATE_FOCUSED))
        return (role(found), name(found)) if found is not None else None
    passed = []
    for _ in range(len(app.find_all(lambda a: role(a) == "menu item")) + 4):  # once round the whole menu
        now = focused()
        if now is not None and now[1] == item:
            app.key("Return")
            return
        passed.append(now)
        app.key("Down")
        # Waits for the focus to reach another item (late under load: a second Down sent
        # before it moved skips one; a walk of the tree that found none is no move). GTK
        # 4.18's zoom row, an item without a name, keeps the focus while a Down moves between
        # its own buttons: there the wait may end without a move.
        named = now is not None and bool(now[1])
        try:
            wait_for(lambda: focused() not in (None, now), 10 if named else 2,
                     lambda: f"Down did not move the focus in the main menu from {now!r} (passed {passed}); "
                             f"the app reported since F10: {list(app.output)[sent:][-6:]}")
        except TestFailure:
            if named:
                raise
    raise AssertionError(f"the keyboard never reached '{item}' in the main menu (passed {passed})")


def launch_with_sample_notes(app):
    """Starts the app on the sample notes with Groceries open."""
    app.launch()
    app.wait_rows(["Groceries", "Weekly team sync"])
    open_first_note(app, "Groceries")


def choose_style(app, style, shown_first=None):
    """Preferences (Ctrl+,) ▸ Style ▸ `style`, then Escape. `shown_first`: the style Preferences
    must show as chosen when it opens."""
    app.focus()
    app.key("ctrl+comma")
    wait_window(app, "Preferences")
    if shown_first:
        check(has_state(app.find(lambda a: name(a) == f"Style: {shown_first}"), pyatspi.STATE_CHECKED),
              f"Preferences does not show {shown_first} as the style chosen")
    app.click(app.find(lambda a: name(a) == f"Style: {style}"))
    press_in_window("Preferences", "Escape")
    wait_for(lambda: window_named(app, "Preferences") is None, 5, "Escape did not close Preferences")


def open_first_note(app, title):
    app.click(wait_for(lambda: app.row_accessible(title), 5, f"no '{title}' row"))
    wait_for(lambda: (app.editor_text() or "").startswith(title), 5, f"'{title}' did not open in the editor")


def editor_luminance(app):
    """Mean luminance (0 black … 1 white) of the middle of the editor, from a real screenshot."""
    x, y, width, height = extents_in_window(app.editor())
    left, top, _, _ = window_geometry(app.wid)
    region = f"{width // 2}x{height // 2}+{left + x + width // 4}+{top + y + height // 4}"
    with tempfile.NamedTemporaryFile(suffix=".png") as shot:
        subprocess.run(["import", "-window", "root", shot.name], check=True, capture_output=True, timeout=20)
        out = subprocess.run(["convert", shot.name, "-crop", region, "-colorspace", "Gray", "-format", "%[fx:mean]", "info:"],
                             check=True, capture_output=True, text=True, timeout=20).stdout
    return float(out)


def wait_luminance(app, dark, timeout=5):
    """Waits until the editor is dark (< 0.3) or light (> 0.7); returns the last value."""
    seen = []

    def settled():
        seen.append(editor_luminance(app))
        return (seen[-1] < 0.3) if dark else (seen[-1] > 0.7)
    wait_for(settled, timeout, lambda: f"the editor is not {'dark' if dark else 'light'}: luminance {seen[-3:]}",
             interval=0.3)
    return seen[-1]


def preferences_json(home):
    with open(home.preferences_file, encoding="utf-8") as handle:
        return json.load(handle)


class FakePortal:
    """fake_settings_portal.py on the session bus for the length of a `with` block."""

    def __init__(self, value):
        script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_settings_portal.py")
        self.process = subprocess.Popen(["/usr/bin/python3", script, str(value)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def __enter__(self):
        check(self.process.stdout.readline().strip() == "ready", "the fake settings portal did not start")
        return self

    def set(self, value):
        self.process.stdin.write(f"set {value}\n")
        self.process.stdin.flush()
        check(self.process.stdout.readline().strip() == f"changed {value}", "the fake portal did not announce the change")

    def __exit__(self, *exc):
        self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@acceptance
def every_button_and_toggle_has_an_accessible_name(binary, home):
    sample_notes(home)
    app = Notula(binary, home, extra_env=DATA_DIRS)
    try:
        app.launch()
        app.wait_rows(["Groceries", "Weekly team sync"])
        app.click(app.row_accessible("Weekly team sync"))
        app.key("Delete")  # the Undo toast (for 6 s, but not while hovered)
        app.hover_toast()  # a walk of the tree under load can take longer than 6 s
        main = wait_window(app, "Notula")

        def controls():
            return [name(a) for a in find_all(main, lambda a: role(a) in CONTROL_ROLES)]
        names = wait_for(lambda: [n for n in controls() if n.startswith("Undo")], 10, "no Undo toast")
        open_first_note(app, "Groceries")
        os.remove(os.path.join(home.library, "groceries.md"))  # the editor's banner offers Save Again
        wait_for(lambda: app.button(lambda n: n.startswith("Save Again")), 5, "no Save Again in the editor's banner")
        names += controls()
        for expected in ["New Note", "Note status: Unsaved", "Main Menu", "Undo", "Save Again"]:
            check(any(n.startswith(expected) for n in names), f"no '{expected}' control in the main window: {names}")
        checked = {}
        for title, opener in [("Notula", None), ("Preferences", lambda: app.key("ctrl+comma")),
                              ("Keyboard Shortcuts", lambda: app.key("ctrl+question")),
                              ("About Notula", lambda: choose_from_main_menu(app, "About Notula"))]:
            if opener:
                app.focus()
                opener()
            window = wait_window(app, title)
            unnamed, count = unnamed_controls(window)
            check(count > 0, f"no buttons found in '{title}'")
            check(not unnamed, f"controls without an accessible name in '{title}': {unnamed}")
            checked[title] = count
            if opener:
                close_with_escape(app, title)
        check(checked["Preferences"] >= 6, f"Preferences has only {checked['Preferences']} controls")
        app.click(app.button(lambda n: n.startswith("Save Again")))
        wait_for(lambda: os.path.exists(os.path.join(home.library, "groceries.md")), 5, "Save Again did not write the note back")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def keyboard_shortcuts_window_opens_with_ctrl_question_and_from_the_menu(binary, home):
    sample_notes(home)
    app = Notula(binary, home, extra_env=DATA_DIRS)
    try:
        launch_with_sample_notes(app)
        app.key("ctrl+question")
        window = wait_window(app, "Keyboard Shortcuts")
        check(role(window) in {"frame", "window", "dialog"}, f"the shortcuts window's role is {role(window)!r}")
        shown = labels_on_every_page(app, window)
        missing = [title for title in SHORTCUT_TITLES if title not in shown]
        check(not missing, f"the shortcuts window does not list {missing}")
        check({"Ctrl", "?", ","} <= set(shown), f"keys are not drawn as keys: {shown[:20]}")
        center_over_main_window(app, "Keyboard Shortcuts")  # no window manager places it here
        screenshot("shortcuts-window.png")
        close_with_escape(app, "Keyboard Shortcuts")
        # The main menu, built from the same table as the shortcuts (ActionCatalog).
        app.focus()
        app.key("F10")
        wait_for(lambda: app.find(lambda a: role(a) == "menu item" and name(a) == "Quit"), 3, "F10 did not open the main menu")
        screenshot("main-menu.png")
        app.key("Escape")
        choose_from_main_menu(app, "Keyboard Shortcuts")
        wait_window(app, "Keyboard Shortcuts")
        close_with_escape(app, "Keyboard Shortcuts")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def about_shows_notula_and_closes_with_escape(binary, home):
    app = Notula(binary, home, extra_env=DATA_DIRS)
    try:
        app.launch()
        choose_from_main_menu(app, "About Notula")
        about = wait_window(app, "About Notula")
        shown = labels_under(about)
        check("Notula" in shown, f"About does not show 'Notula': {shown}")
        version = re.search(r'<release version="([^"]+)"', open(os.path.join(REPO, "data", "io.github.notula.Notula.metainfo.xml.in")).read())
        check(version and version.group(1) in shown, f"About does not show the version {version and version.group(1)}: {shown}")
        check(any("GNU General Public License, version 3 or later" in text for text in shown), f"no license in About: {shown}")
        close_with_escape(app, "About Notula")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def drawing_with_cairo_loads_no_opengl_driver(binary, home):
    """GSK_RENDERER=cairo, the usual way round a broken or slow OpenGL: the app never loads an
    OpenGL driver (here Mesa's, with LLVM: 59 MB of an empty library's 115). With GTK's OpenGL
    renderer it loads one: the check sees a driver where there is one."""
    def opengl_drivers(renderer):
        app = Notula(binary, home, extra_env={"GSK_RENDERER": renderer})
        try:
            app.launch()
            with open(f"/proc/{app.process.pid}/maps") as maps:
                return sorted({line.split()[-1] for line in maps if "/dri/" in line or "/libLLVM" in line})
        finally:
            app.quit()
    check(opengl_drivers("gl"), "with the OpenGL renderer no OpenGL driver is loaded: the check cannot see one")
    drivers = opengl_drivers("cairo")
    check(not drivers, f"drawing with Cairo, the app loaded {drivers}")


@acceptance
def dark_style_chosen_in_preferences_survives_a_restart(binary, home):
    sample_notes(home)
    app = Notula(binary, home, extra_env=DATA_DIRS)
    try:
        launch_with_sample_notes(app)
        wait_luminance(app, dark=False)
        choose_style(app, "Dark", shown_first="Follow System")
        dark = wait_luminance(app, dark=True)
        wait_for(lambda: preferences_json(home).get("colorScheme") == "dark", 3,
                 lambda: f"the choice was not saved: {preferences_json(home)}")
        check(preferences_json(home).get("storage") == "local", f"choosing a style lost the storage choice: {preferences_json(home)}")
        screenshot("dark-style.png")
        check(app.quit() == 0, "Ctrl+Q failed")

        launch_with_sample_notes(app)
        again = wait_luminance(app, dark=True, timeout=3)
        choose_style(app, "Follow System", shown_first="Dark")  # no portal here: light
        light = wait_luminance(app, dark=False)
        check(preferences_json(home).get("colorScheme") == "system", f"Follow System was not saved: {preferences_json(home)}")
        print(f"     editor luminance: dark {dark:.2f}, after restart {again:.2f}, follow system {light:.2f}")
        check(app.quit() == 0, "second Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def dark_style_follows_the_desktop_through_the_settings_portal(binary, home):
    sample_notes(home)
    app = Notula(binary, home)
    try:
        with FakePortal(1) as portal:  # the desktop prefers dark
            launch_with_sample_notes(app)
            wait_luminance(app, dark=True, timeout=3)
            portal.set(2)  # prefer light
            wait_luminance(app, dark=False)
            portal.set(1)
            wait_luminance(app, dark=True)
            choose_style(app, "Light")  # the override wins over the desktop
            wait_luminance(app, dark=False)
            portal.set(0)
            portal.set(1)
            app.bus_messages_handled()  # the app had both changes
            check(editor_luminance(app) > 0.7, "a change on the desktop overrode the Light choice")
            check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def preferences_shortcuts_and_about_open_and_close_again_and_again(binary, home):
    """Issue #12: Preferences could not be closed the second time it was opened."""
    app = Notula(binary, home, extra_env=DATA_DIRS)
    try:
        app.launch()
        for round in range(3):
            app.focus()
            app.key("ctrl+comma")
            wait_window(app, "Preferences")
            close_with_escape(app, "Preferences")
            app.focus()
            app.key("ctrl+question")
            wait_window(app, "Keyboard Shortcuts")
            close_with_escape(app, "Keyboard Shortcuts")
            choose_from_main_menu(app, "About Notula")
            wait_window(app, "About Notula")
            close_with_escape(app, "About Notula")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


def named_twice(label):
    """A name said twice ("Cancel Cancel") or with GTK's mnemonic underscore ("_Cancel Cancel")."""
    words = label.split(" ")
    half = len(words) // 2
    return label.startswith("_") or (half > 0 and len(words) % 2 == 0 and words[:half] == words[half:])


def control_names(root):
    return [name(a) for a in find_all(root, lambda a: role(a) in CONTROL_ROLES)]


def dialog_buttons(app, title):
    """The push buttons of the showing top-level titled `title` (a message dialog's title is its text)."""
    window = wait_for(lambda: toplevel(app, lambda w: name(w) == title), 5,
                      lambda: f"no '{title}' window; windows: {[(role(w), name(w)) for w in children(app.accessible_app())]}")
    return [name(a) for a in find_all(window, lambda a: role(a) == "push button")]


@acceptance
def every_dialog_button_is_named_once(binary, home):
    """Issue #28: screen readers read message dialogs' buttons as "Cancel Cancel" (GTK 4.8).
    Every button of the main window, Preferences, a message dialog (Clear History's question),
    the name dialog, Browse Versions and the folder chooser has its name exactly once."""
    sample_notes(home)
    app = Notula(binary, home, extra_env=DATA_DIRS)
    try:
        launch_with_sample_notes(app)
        seen = {"Notula": control_names(wait_window(app, "Notula"))}
        app.focus()
        app.key("ctrl+comma")
        seen["Preferences"] = control_names(wait_window(app, "Preferences"))
        app.click(app.button(lambda n: n == "Clear History"))
        question = "Clear the history of all notes?"
        buttons = dialog_buttons(app, question)
        check(buttons == ["Cancel", "Clear History"], f"the question's buttons are named {buttons}")
        seen[question] = buttons
        screenshot("clear-history-question.png")
        app.click(wait_for(lambda: next((b for b in find_all(toplevel(app, lambda w: name(w) == question), lambda a: role(a) == "push button")
                                         if name(b) == "Cancel"), None), 3, "no Cancel"))
        wait_for(lambda: toplevel(app, lambda w: name(w) == question) is None, 5, "Cancel did not close the question")
        app.click(wait_for(lambda: app.button(lambda n: n == "Choose Folder…"), 3, "no Choose Folder… in Preferences"))
        chooser = "Choose the Synced Folder"
        buttons = dialog_buttons(app, chooser)
        check("Cancel" in buttons, f"the folder chooser's buttons are named {buttons}")
        seen[chooser] = buttons
        press_in_window(chooser, "Escape")
        wait_for(lambda: toplevel(app, lambda w: name(w) == chooser) is None, 5, "Escape did not close the folder chooser")
        close_with_escape(app, "Preferences")
        app.click(wait_for(lambda: app.button(lambda n: n == "New Notebook"), 3, "no New Notebook button"))
        buttons = dialog_buttons(app, "New Notebook")
        check(buttons == ["Cancel", "Create"], f"the name dialog's buttons are named {buttons}")
        seen["New Notebook"] = buttons
        app.key("Escape")
        wait_for(lambda: toplevel(app, lambda w: name(w) == "New Notebook") is None, 5, "Escape did not close the name dialog")
        app.focus()
        app.key("ctrl+shift+h")
        versions = "Versions of “Groceries”"
        seen[versions] = dialog_buttons(app, versions)
        twice = {title: [n for n in names if named_twice(n)] for title, names in seen.items()}
        check(not any(twice.values()), f"controls named twice: {twice}")
        print(f"  {sum(len(names) for names in seen.values())} controls in {len(seen)} windows, each named once")
        close_with_escape(app, versions)
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
