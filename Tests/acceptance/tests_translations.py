"""Translations: the window in German (LANGUAGE=de) and a pseudo-language that marks every
translated string, so a label, button or dialog text that bypasses gettext shows up unmarked."""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import time

from notula_driver import REPO, Notula, acceptance, check, children, find_all, has_state, name, role, screenshot, wait_for
from tests_desktop import DATA_DIRS, center_over_main_window, choose_from_main_menu, close_with_escape, press_in_window, wait_window

import pyatspi

OPEN, CLOSE = "⟦", "⟧"
# GTK's own controls, which GTK translates with its own catalog (gtk40), and what GTK 4.8 names
# an empty label (its type name).
GTK_OWN = {"Minimize", "Maximize", "Restore", "Close",
           "No Results Found", "Try a different search", "Shortcuts", "Search Results"}  # GtkShortcutsWindow
GTK_TYPE_NAME = re.compile(r"^Gtk[A-Z]\w*$")
# Accelerators GTK draws beside menu items and in the shortcuts window ("Shift+Ctrl+H", "Ctrl").
# A date the app formats with the user's locale (Preferences ▸ Today's Note shows today's
# title in each style): data, like a path, not a message.
DATE_TEXT = re.compile(r"^(\w+, )?(\d{1,2}\.? \w+|\w+ \d{1,2},) \d{4}$")
KEY_LABEL = re.compile(r"^((Shift|Ctrl|Alt|Super)\+)*(Shift|Ctrl|Alt|Super|F\d+|Delete|Escape|Return|Enter|Tab|Space|Page (Up|Down)|Home|End|Backspace|Left|Right|Up|Down|.)$")
PSEUDO = "xx"  # not a real language: the catalog in a temporary NOTULA_LOCALEDIR
TEXT_ROLES = {"label", "push button", "toggle button", "check box", "radio button", "menu item", "check menu item",
              "radio menu item", "page tab", "heading", "frame", "dialog", "window", "alert", "tool tip", "link"}


def pseudo_catalog(folder):
    """Compiles today's sources into a catalog whose every translation is ⟦English⟧."""
    pot = os.path.join(folder, "notula.pot")
    sources = sorted(glob.glob(os.path.join(REPO, "Sources", "NotesCore", "**", "*.swift"), recursive=True)
                     + glob.glob(os.path.join(REPO, "Sources", "NotesApp", "**", "*.swift"), recursive=True))
    subprocess.run([os.path.join(REPO, "scripts", "make-pot.sh"), pot, "0", *[os.path.relpath(s, REPO) for s in sources]],
                   check=True, capture_output=True)
    with open(pot, encoding="utf-8") as handle:
        template = handle.read().replace("charset=CHARSET", "charset=UTF-8", 1).replace(
            '"Content-Transfer-Encoding: 8bit\\n"', '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', 1)
    english = subprocess.run(["msgen", "-"], input=template, capture_output=True, text=True, check=True).stdout
    marked = subprocess.run(["msgfilter", "--keep-header", "-i", "-", "-o", "-", "sed", "-e", f"1s/^/{OPEN}/", "-e", f"$s/$/{CLOSE}/"],
                            input=english, capture_output=True, text=True, check=True).stdout
    target = os.path.join(folder, PSEUDO, "LC_MESSAGES")
    os.makedirs(target)
    subprocess.run(["msgfmt", "--check", "-o", os.path.join(target, "notula.mo"), "-"], input=marked, text=True,
                   check=True, capture_output=True)
    return folder


def is_user_content(text, contents):
    return any(text in content for content in contents)


def unmarked_texts(root, contents, allowed=()):
    """The names of text-bearing accessibles under `root` that carry no ⟦ ⟧ marker: strings
    that bypassed translation. User content (the notes' own words) and GTK's own strings
    (`allowed`: GTK translates them with its own catalog) do not count."""
    found = []
    for accessible in find_all(root, lambda a: role(a) in TEXT_ROLES):
        text = name(accessible).strip()
        if (not re.search(r"[A-Za-z]", text) or OPEN in text or text in allowed or text in GTK_OWN
                or GTK_TYPE_NAME.match(text) or KEY_LABEL.match(text) or DATE_TEXT.match(text) or is_user_content(text, contents)):
            continue
        found.append(f"{role(accessible)} {text!r}")
    return found


GROCERIES = "Groceries\n- oat milk\n- a dozen eggs\n"
TEAM = "Weekly team sync\nAttendees: Priya, Jonas, Sam\n"


def marked(text):
    return f"{OPEN}{text}{CLOSE}"


def check_marked(app, window, contents, what, allowed=()):
    unmarked = unmarked_texts(window, contents, allowed)
    check(not unmarked, f"{what}: texts that bypass translation: {unmarked}")


@acceptance
def pseudo_locale_marks_every_label_button_and_dialog(binary, home):
    """Every string the app shows comes from the catalog: under a pseudo-language whose every
    translation is ⟦English⟧, no label, button, menu item, window title or dialog text of the
    main window, its menu, Preferences, Keyboard Shortcuts, Browse Versions, the Trash, the
    Empty Trash question, a toast or the first-launch question is unmarked."""
    home.write_note("groceries.md", GROCERIES, 25 * 60)
    home.write_note("team-sync.md", TEAM, 3 * 3600)
    contents = [GROCERIES, TEAM]
    catalog = pseudo_catalog(tempfile.mkdtemp(prefix="notula-pseudo-"))
    language = {"LANGUAGE": PSEUDO, "NOTULA_LOCALEDIR": catalog}
    app = Notula(binary, home, extra_env={**DATA_DIRS, **language})
    app.list_name, app.editor_name = marked("Notes"), marked("Note text")
    try:
        app.launch()
        app.wait_rows(["Groceries", "Weekly team sync"])
        app.click(app.row_accessible("Groceries"))
        wait_for(lambda: (app.editor_text() or "").startswith("Groceries"), 5, "Groceries did not open")
        main = wait_window(app, "Notula")
        check_marked(app, main, contents, "main window", allowed={"Notula"})

        app.focus()
        app.key("F10")
        wait_for(lambda: app.find(lambda a: role(a) == "menu item"), 3, "F10 did not open the main menu")
        items = [name(a) for a in app.find_all(lambda a: role(a) == "menu item")]
        check(marked("Preferences") in items, f"the main menu is not translated: {items}")
        check_marked(app, app.accessible_app(), contents, "main menu", allowed={"Notula"})
        app.key("Escape")

        for title, keys in [("Preferences", "ctrl+comma"), ("Keyboard Shortcuts", "ctrl+question")]:
            app.focus()
            app.key(keys)
            window = wait_window(app, marked(title))
            check_marked(app, window, contents, title)
            close_with_escape(app, marked(title))

        app.focus()
        app.key("ctrl+shift+h")
        versions = wait_for(lambda: next((w for w in children(app.accessible_app())
                                          if has_state(w, pyatspi.STATE_VISIBLE) and name(w).startswith(OPEN + "Versions")), None),
                            5, "Ctrl+Shift+H opened no Browse Versions window")
        check_marked(app, versions, contents, "Browse Versions")
        press_in_window(name(versions).replace("[", "\\[").replace("(", "\\("), "Escape")

        app.click(app.row_accessible("Weekly team sync"))
        app.key("Delete")
        toast = wait_for(lambda: app.find(lambda a: role(a) == "label" and "Weekly team sync" in name(a)
                                          and OPEN in name(a)), 3, lambda: f"no marked toast; labels {app.labels()}")
        check_marked(app, main, contents, "main window with a toast", allowed={"Notula"})
        app.click(wait_for(lambda: app.button(lambda n: n == marked("Show the Trash")), 3, "no marked Trash button"))
        wait_for(lambda: app.button(lambda n: n.startswith(OPEN + "Restore")), 5, "the Trash lists nothing")
        check_marked(app, main, contents, "the Trash", allowed={"Notula"})
        app.click(app.button(lambda n: n == marked("Empty Trash")))
        question = wait_for(lambda: next((w for w in children(app.accessible_app()) if has_state(w, pyatspi.STATE_VISIBLE)
                                          and role(w) in {"dialog", "alert", "window"} and name(w) != "Notula"), None),
                            5, "Empty Trash asked nothing")
        texts = [name(a) for a in find_all(question, lambda a: role(a) in {"label", "push button"})]
        check(any(OPEN in t for t in texts), f"the Empty Trash question shows no translated text: {texts}")
        check_marked(app, question, contents, "the Empty Trash question")
        app.key("Escape")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
        shutil.rmtree(catalog, ignore_errors=True)


@acceptance
def pseudo_locale_marks_the_first_launch_question(binary, home):
    """The first start asks where the notes live: every word of that question is translated."""
    catalog = pseudo_catalog(tempfile.mkdtemp(prefix="notula-pseudo-"))
    fresh = type(home)(prefix="notula-first-launch-", first_launch=True)
    os.makedirs(os.path.join(fresh.root, "Sync", ".stfolder"))  # a Syncthing folder to offer
    app = Notula(binary, fresh, extra_env={**DATA_DIRS, "LANGUAGE": PSEUDO, "NOTULA_LOCALEDIR": catalog})
    try:
        app.launch()
        question = wait_for(lambda: next((w for w in children(app.accessible_app()) if has_state(w, pyatspi.STATE_VISIBLE)
                                          and name(w) != "Notula"), None), 8, "the first launch asked nothing")
        buttons = [name(a) for a in find_all(question, lambda a: role(a) == "push button")]
        check(len(buttons) >= 2 and all(OPEN in b for b in buttons), f"first-launch buttons not all translated: {buttons}")
        check_marked(app, question, [], "the first-launch question", allowed={"Notula"})
    finally:
        app.cleanup()
        fresh.remove()
        shutil.rmtree(catalog, ignore_errors=True)


def visible_dialog(app):
    return next((w for w in children(app.accessible_app()) if has_state(w, pyatspi.STATE_VISIBLE)
                 and role(w) in {"dialog", "alert", "window"} and name(w) != "Notula"), None)


def empty_trash_question(app):
    """Clicks Papierkorb leeren; the question's labels (the dialog stays open)."""
    app.click(wait_for(lambda: app.button(lambda n: n.startswith("Papierkorb leeren")), 3, "no 'Papierkorb leeren' button"))
    dialog = wait_for(lambda: visible_dialog(app), 5, "Papierkorb leeren asked nothing")
    return dialog, [name(a) for a in find_all(dialog, lambda a: role(a) == "label")]


def delete_note(app, title, remaining):
    app.click(wait_for(lambda: app.row_accessible(title), 3, f"no '{title}' row"))
    wait_for(lambda: has_state(app.row_accessible(title), pyatspi.STATE_FOCUSED), 3, f"the '{title}' row did not take the focus")
    app.key("Delete")
    app.wait_rows(remaining, timeout=5)


@acceptance
def german_labels_buttons_dialogs_and_plurals(binary, home):
    """LANGUAGE=de: the window, its menu, Preferences, a toast, the Trash and the Empty Trash
    question speak German (dates too), with the right plural for 1 and for 3 notes."""
    home.write_note("groceries.md", GROCERIES, 25 * 60)
    home.write_note("team-sync.md", TEAM, 3 * 3600)
    now = time.localtime()
    since_midnight = now.tm_hour * 3600 + now.tm_min * 60 + now.tm_sec
    home.write_note("ideas.md", "Project ideas\nA plant-watering reminder\n", since_midnight + 12 * 3600)  # yesterday noon
    home.write_note("books.md", "Books to read\nThe Left Hand of Darkness\n", 5 * 24 * 3600)
    app = Notula(binary, home, extra_env={**DATA_DIRS, "LANGUAGE": "de"})
    app.list_name, app.editor_name = "Notizen", "Notiztext"
    try:
        app.launch()
        rows = app.wait_rows(["Groceries", "Weekly team sync", "Project ideas", "Books to read"])
        check(rows[0].startswith("Groceries, vor 25 Minuten"), f"the list does not say when in German: {rows}")
        check(rows[2].startswith("Project ideas, Gestern") and rows[3].startswith("Books to read, vor 5 Tagen"),
              f"older dates are not German: {rows}")
        main = wait_window(app, "Notula")
        buttons = [name(a) for a in find_all(main, lambda a: role(a) in {"push button", "toggle button"})]
        for expected in ["Neue Notiz", "Hauptmenü", "Papierkorb anzeigen"]:
            check(any(b.startswith(expected) for b in buttons), f"no '{expected}' button: {buttons}")
        check("Alle Notizen" in [name(a) for a in find_all(main, lambda a: role(a) == "label")], "no 'Alle Notizen' in the sidebar")
        screenshot("main-window-de.png")

        choose_from_main_menu(app, "Einstellungen")
        preferences = wait_window(app, "Einstellungen")
        center_over_main_window(app, "Einstellungen")  # no window manager places it here
        shown = [name(a) for a in find_all(preferences, lambda a: role(a) in {"label", "radio button", "check box", "push button"})]
        check(any(s.endswith("— 4 Notizen") for s in shown), f"Preferences does not count '4 Notizen': {shown}")
        check(any("Dunkel" in s for s in shown) and any("Hell" in s for s in shown), f"the styles are not German: {shown}")
        screenshot("preferences-de.png")
        close_with_escape(app, "Einstellungen")

        delete_note(app, "Weekly team sync", ["Groceries", "Project ideas", "Books to read"])
        wait_for(lambda: app.find(lambda a: role(a) == "label" and name(a) == "„Weekly team sync“ in den Papierkorb verschoben"),
                 3, lambda: f"no German toast; labels {app.labels()}")
        check(app.button(lambda n: n.startswith("Rückgängig")) is not None, "the toast offers no 'Rückgängig'")
        app.click(app.button(lambda n: n.startswith("Papierkorb anzeigen")))
        wait_for(lambda: app.find(lambda a: role(a) == "label" and name(a) == "gerade eben gelöscht"), 5,
                 lambda: f"the Trash does not say 'gerade eben gelöscht': {app.labels()}")
        dialog, texts = empty_trash_question(app)
        check("Papierkorb leeren?" in texts, f"the question is not German: {texts}")
        check(any(t.startswith("Die Notiz im Papierkorb wird endgültig gelöscht.") for t in texts),
              f"one note: not the German singular: {texts}")
        screenshot("empty-trash-de.png")
        app.click(wait_for(lambda: next((b for b in find_all(dialog, lambda a: role(a) == "push button")
                                         if name(b) == "Abbrechen"), None), 3, "no button named exactly 'Abbrechen'"))
        wait_for(lambda: visible_dialog(app) is None, 5, "Abbrechen did not close the question")

        app.click(app.button(lambda n: n.startswith("Zurück zu den Notizen")))
        delete_note(app, "Groceries", ["Project ideas", "Books to read"])
        delete_note(app, "Project ideas", ["Books to read"])
        app.click(wait_for(lambda: app.button(lambda n: n.startswith("Papierkorb anzeigen")), 3, "no Trash button"))
        dialog, texts = empty_trash_question(app)
        check(any(t.startswith("Die 3 Notizen im Papierkorb werden endgültig gelöscht.") for t in texts),
              f"three notes: not the German plural: {texts}")
        app.click(wait_for(lambda: next((b for b in find_all(dialog, lambda a: role(a) == "push button")
                                         if name(b) == "Abbrechen"), None), 3, "no button named exactly 'Abbrechen'"))
        wait_for(lambda: visible_dialog(app) is None, 5, "Abbrechen did not close the question")
        check(len(os.listdir(os.path.join(home.library, ".notula", "Trash", "files"))) == 3, "Abbrechen emptied the Trash")
        check(app.quit() == 0, "Strg+Q failed")
    finally:
        app.cleanup()


@acceptance
def a_file_listed_in_english_is_described_in_german_the_next_time(binary, home):
    """The library index keeps what it read; the words around it follow the language shown:
    a non-UTF-8 file listed by an English session says so in German in a German one."""
    home.write_note("groceries.md", GROCERIES, 25 * 60)
    home.write_note("latin1.md", b"Caf\xe9 cr\xe8me\n", 3600)
    time.sleep(2.5)  # the index trusts a file's row at the next start only once it is 2 s old (ctime)
    for language, names, preview in [({}, ("Notes", "Note text"), "Not UTF-8 text: opens read-only"),
                                     ({"LANGUAGE": "de"}, ("Notizen", "Notiztext"), "Kein UTF-8-Text: wird schreibgeschützt geöffnet")]:
        app = Notula(binary, home, extra_env={**DATA_DIRS, **language})
        app.list_name, app.editor_name = names
        try:
            app.launch()
            app.wait_rows(["Groceries", "latin1.md"])
            wait_for(lambda: app.find(lambda a: role(a) == "label" and preview in name(a)), 5,
                     lambda: f"no preview '{preview}': {app.labels()}")
            check(app.quit() == 0, "quitting failed")
        finally:
            app.cleanup()
