"""Spelling on the real binary with the real Hunspell dictionaries: a misspelled word typed is
marked for screen readers (AT-SPI's `underline:error` text attribute, what GTK exports for the
wavy underline), the context menu's suggestion fixes it in the file and Ctrl+Z takes it back,
Add to Dictionary unmarks every occurrence and lasts past a restart, the Menu-key path and F7
work from the keyboard, and LANGUAGE=de checks German."""
import os

import pyatspi

from notula_driver import Notula, acceptance, check, find_all, has_state, name, role, screenshot, wait_file, wait_for
from tests_markdown import open_note


def editor(app):
    """The editor, which must be there: one walk of the accessible tree can miss it while the
    tree changes under load (a soak run once read None right after the editor was found)."""
    return wait_for(app.editor, 5, "the editor is not in the window")


def offset_of(app, word, occurrence=0):
    text = editor(app).queryText()
    text = text.getText(0, text.characterCount)
    index = -1
    for _ in range(occurrence + 1):
        index = text.find(word, index + 1)
        check(index >= 0, f"{word!r} (#{occurrence}) is not in the editor: {text!r}")
    return index


def is_marked(app, word, occurrence=0):
    """Whether the word carries the misspelling attribute, as a screen reader reads it."""
    offset = offset_of(app, word, occurrence)
    attributes, start, end = editor(app).queryText().getAttributeRun(offset + 1, False)
    return "underline:error" in attributes and start <= offset and end >= offset + len(word)


def right_click_word(app, word, occurrence=0):
    x, y, width, height = editor(app).queryText().getCharacterExtents(offset_of(app, word, occurrence) + 1, pyatspi.WINDOW_COORDS)
    check(width > 0 and height > 0, f"{word!r} has no extents on screen")
    app.click_at(x + width // 2, y + height // 2, button=3)


def menu_item(app, label):
    return wait_for(lambda: app.find(lambda a: name(a) == label and role(a) in ("menu item", "push button", "check menu item", "radio menu item")),
                    5, lambda: f"no menu item {label!r}; menu items: {[name(a) for a in app.find_all(lambda a: 'menu' in role(a))]}")


def choose(item):
    """Chooses a menu item. The menu is a popover, a surface of its own that window
    coordinates do not reach: through its accessible action, as a screen reader's user does."""
    actions = item.queryAction()
    check(actions.nActions > 0, f"menu item {name(item)!r} has no action")
    actions.doAction(0)


@acceptance
def spelling_marks_a_typed_word_and_the_menu_fixes_it(binary, home):
    app = Notula(binary, home)
    try:
        app.launch()
        app.focus()
        file_name = app.new_note()
        app.type("Spelling")
        app.key("Return")
        app.type("This is a mispelled word")
        wait_file(home, file_name, b"Spelling\nThis is a mispelled word")
        wait_for(lambda: is_marked(app, "mispelled"), 5, "the misspelled word is not marked")
        check(not is_marked(app, "This") and not is_marked(app, "word"), "a right word (or the one being typed) is marked")
        right_click_word(app, "mispelled")
        item = menu_item(app, "misspelled")
        screenshot("spelling-menu.png")
        choose(item)
        wait_file(home, file_name, b"Spelling\nThis is a misspelled word")
        wait_for(lambda: not is_marked(app, "misspelled"), 5, "the fixed word is still marked")
        app.key("ctrl+z")
        wait_file(home, file_name, b"Spelling\nThis is a mispelled word")

        # From the keyboard: F7 selects the misspelled word, Shift+F10 opens its menu.
        app.key("ctrl+Home")
        app.key("F7")
        start = offset_of(app, "mispelled")
        wait_for(lambda: app.editor().queryText().getSelection(0)[:2] == (start, start + len("mispelled")), 5,
                 lambda: f"F7 selected {app.editor().queryText().getSelection(0)}")
        app.key("shift+F10")
        menu_item(app, "misspelled")
        app.key("Escape")
        wait_for(lambda: not app.find(lambda a: name(a) == "Add to Dictionary" and has_state(a, pyatspi.STATE_SHOWING)), 3,
                 "the menu did not close")

        # Add to Dictionary: every occurrence unmarked, and still after a restart.
        app.key("ctrl+End")
        app.key("Return")
        app.type("Quorblinax and Quorblinax ok")
        wait_file(home, file_name, b"Spelling\nThis is a mispelled word\nQuorblinax and Quorblinax ok")
        wait_for(lambda: is_marked(app, "Quorblinax") and is_marked(app, "Quorblinax", 1), 5, "the new word is not marked")
        right_click_word(app, "Quorblinax")
        choose(menu_item(app, "Add to Dictionary"))
        wait_for(lambda: not is_marked(app, "Quorblinax") and not is_marked(app, "Quorblinax", 1), 5, "the added word is still marked")
        personal = os.path.join(home.config, "enchant", "en_US.dic")
        check(os.path.exists(personal) and "Quorblinax" in open(personal, encoding="utf-8").read(), "the word is not in the personal word list")
        check(is_marked(app, "mispelled"), "another word lost its mark")
        app.quit()
        app.launch()
        open_note(app, "Spelling")
        wait_for(lambda: is_marked(app, "mispelled"), 5, "after a restart the misspelled word is not marked")
        check(not is_marked(app, "Quorblinax") and not is_marked(app, "Quorblinax", 1), "the added word is marked after a restart")
    finally:
        app.cleanup()


@acceptance
def spelling_checks_german_with_language_de(binary, home):
    home.write_note("note-20261127-100000-abcde.md", "Rechtschreibung\nDie Rechtschreibung und die Rechtschreibng.\n", age_seconds=60)
    app = Notula(binary, home, extra_env={"LANGUAGE": "de"})
    app.list_name, app.editor_name = "Notizen", "Notiztext"
    try:
        app.launch()
        open_note(app, "Rechtschreibung")
        wait_for(lambda: is_marked(app, "Rechtschreibng"), 5, "the misspelled German word is not marked")
        check(not is_marked(app, "Rechtschreibung", 1), "a right German word is marked")
        screenshot("spelling-german.png")
    finally:
        app.cleanup()


@acceptance
def a_fifo_personal_word_list_neither_freezes_nor_loses_the_word(binary, home):
    """The personal word list is a FIFO (another program's, or a mistake): Notula starts,
    marks a misspelled word, stays responsive, says in Preferences that the list cannot be
    used, and Add to Dictionary says the word cannot be kept instead of dropping it silently."""
    folder = os.path.join(home.config, "enchant")
    os.makedirs(folder, exist_ok=True)
    personal = os.path.join(folder, "en_US.dic")
    os.mkfifo(personal, 0o600)
    home.write_note("note-20261127-100000-fifoo.md", "Fifo\nThis is a mispelled word\n", age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        open_note(app, "Fifo")
        wait_for(lambda: is_marked(app, "mispelled"), 10, "the misspelled word is not marked (spelling stuck on the FIFO?)")
        # Typing still lands: the window was never held up by the list.
        app.key("ctrl+End")
        app.type("Quorblinax ok")  # the word being typed is not marked: go past it
        wait_file(home, "note-20261127-100000-fifoo.md", b"Fifo\nThis is a mispelled word\nQuorblinax ok")
        wait_for(lambda: is_marked(app, "Quorblinax"), 5, "the new word is not marked")
        right_click_word(app, "Quorblinax")
        choose(menu_item(app, "Add to Dictionary"))
        alert = wait_for(lambda: app.find(lambda a: role(a) in ("dialog", "alert") and "personal word list" in name(a)), 8,
                         "Add to Dictionary said nothing about the list it could not write")
        texts = " ".join(name(a) for a in find_all(alert, lambda a: role(a) == "label"))
        check("named pipe" in texts and personal in texts, f"the message does not say why: {texts!r}")
        screenshot("spelling-fifo-add.png")
        app.click(app.button(lambda text: text == "OK"))
        wait_for(lambda: not is_marked(app, "Quorblinax"), 5, "the word is still marked for this run")
        check(os.path.exists(personal) and os.stat(personal).st_mode & 0o170000 == 0o010000, "the FIFO was replaced")
        app.key("ctrl+comma")
        wait_for(lambda: any("cannot be used" in text and "named pipe" in text for text in app.labels()), 8,
                 lambda: f"Preferences do not say the word list cannot be used: {app.labels()}")
        screenshot("spelling-fifo-preferences.png")
        app.key("Escape")
    finally:
        app.cleanup()
