"""The Markdown editor on the real binary, driven by keys and clicks as a user would: lists
continue on Enter and tasks toggle by a click on their check box (changing one byte of the
file), Ctrl+B wraps a word, Ctrl+F in the text finds in the note (and from the list searches
all notes), Ctrl+H replaces all, and Ctrl+click on a link hands it to the desktop's browser."""
import json
import os
import stat

import pyatspi

from notula_driver import (Notula, acceptance, check, has_state, name, note_bytes, press_in_window, role, screenshot, wait_file,
                           wait_for)


def open_note(app, title):
    """Clicks the note's row and waits until its text is in the focused editor."""
    app.click(wait_for(lambda: app.row_accessible(title), 5, f"no row {title!r}: {app.rows()}"))
    wait_for(lambda: (app.editor_text() or "").startswith(title), 5, lambda: f"editor shows {app.editor_text()!r}")
    app.click_editor()
    wait_for(lambda: has_state(app.editor(), pyatspi.STATE_FOCUSED), 3, "the text did not take the focus")


@acceptance
def typing_markdown_continues_lists_and_formats(binary, home):
    app = Notula(binary, home)
    try:
        app.launch()
        app.focus()
        file_name = app.new_note()
        app.type("Shopping")
        app.key("Return")
        app.type("- [ ] milk")
        app.key("Return")          # continues the list with a new open task
        app.type("eggs")
        app.key("Return")
        app.key("Return")          # Enter on the empty item ends the list (the line stays, empty)
        app.key("Return")
        app.type("buy it all")
        app.key("ctrl+Left")       # the cursor into the last word
        app.key("ctrl+b")
        wait_file(home, file_name, b"Shopping\n- [ ] milk\n- [ ] eggs\n\nbuy it **all**")
        screenshot("markdown-typed.png")
        app.key("ctrl+z")
        wait_file(home, file_name, b"Shopping\n- [ ] milk\n- [ ] eggs\n\nbuy it all")
    finally:
        app.cleanup()


@acceptance
def clicking_a_task_box_toggles_one_byte(binary, home):
    text = "Chores\n- [ ] water the plants\n- [x] take out the bins\n"
    home.write_note("chores.md", text, age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        open_note(app, "Chores")
        box = wait_for(lambda: app.find(lambda a: role(a) == "check box" and name(a) == "Task: water the plants"), 5,
                       lambda: f"no task check box; check boxes: {[name(a) for a in app.find_all(lambda a: role(a) == 'check box')]}")
        check(not has_state(box, pyatspi.STATE_CHECKED), "the open task's box is checked")
        done = app.find(lambda a: role(a) == "check box" and name(a) == "Task: take out the bins")
        check(done is not None and has_state(done, pyatspi.STATE_CHECKED), "the done task's box is not checked")
        app.click(box)
        expected = text.replace("- [ ] water", "- [x] water").encode()
        wait_file(home, "chores.md", expected)
        before, after = text.encode(), note_bytes(home, "chores.md")
        check(len(before) == len(after) and sum(a != b for a, b in zip(before, after)) == 1, "more than one byte changed")
        wait_for(lambda: has_state(app.find(lambda a: role(a) == "check box" and name(a) == "Task: water the plants"),
                                   pyatspi.STATE_CHECKED), 3, "the box did not follow the text")
        screenshot("markdown-task-toggled.png")
        app.click_editor()
        app.key("ctrl+z")          # the toggle is an ordinary edit: undo takes it back
        wait_file(home, "chores.md", text.encode())
        # From the keyboard: Ctrl+Enter in a task's line toggles it, as a click on its box does.
        app.key("ctrl+End")
        app.key("Up")
        app.key("ctrl+Return")
        wait_file(home, "chores.md", text.replace("- [x] take", "- [ ] take").encode())
    finally:
        app.cleanup()


@acceptance
def find_and_replace_in_the_note(binary, home):
    text = "Recipe\nAdd the sugar, then more sugar.\nSugar-free version: no sugar.\n"
    home.write_note("recipe.md", text, age_seconds=60)
    home.write_note("other.md", "Other note\nsugar here too\n", age_seconds=120)
    app = Notula(binary, home)
    try:
        app.launch()
        open_note(app, "Recipe")
        app.key("ctrl+f")
        find = wait_for(lambda: app.find(lambda a: name(a) == "Find in note" and has_state(a, pyatspi.STATE_FOCUSED)), 5,
                        "Ctrl+F in the text did not open the find bar")
        app.type("sugar")
        wait_for(lambda: any(label in ("1 of 4", "2 of 4", "3 of 4", "4 of 4") for label in app.labels()), 5,
                 lambda: f"no match count; labels {app.labels()}")
        screenshot("find-in-note.png")
        app.key("Escape")
        wait_for(lambda: has_state(app.editor(), pyatspi.STATE_FOCUSED), 3, "Escape did not return to the text")
        check(app.rows()[:2] == [r for r in app.rows()[:2]] and len(app.rows()) == 2, f"the notes list changed: {app.rows()}")
        app.key("ctrl+h")
        replace = wait_for(lambda: app.find(lambda a: name(a) == "Replace with" and role(a) in ("text", "entry")), 5,
                           "Ctrl+H shows no replace field")
        app.click(replace)
        app.type("honey")
        app.click(wait_for(lambda: app.button(lambda n: n == "Replace All"), 3, "no Replace All button"))
        wait_file(home, "recipe.md", b"Recipe\nAdd the honey, then more honey.\nhoney-free version: no honey.\n")
        screenshot("markdown-replaced.png")
        app.click_editor()
        app.key("ctrl+z")          # replace all is one undo step
        wait_file(home, "recipe.md", text.encode())
        # From the list, Ctrl+F searches all notes, and Ctrl+Shift+F does from anywhere.
        app.click_editor()
        app.key("ctrl+shift+f")
        wait_for(lambda: has_state(app.find(lambda a: name(a) == "Search notes" and role(a) in ("text", "entry")),
                                   pyatspi.STATE_FOCUSED), 3, "Ctrl+Shift+F did not go to Search notes")
        app.type("sugar")
        app.wait_rows(["Recipe", "Other note"], timeout=5)
    finally:
        app.cleanup()


@acceptance
def ctrl_click_opens_web_links_with_the_desktop_browser(binary, home):
    # A browser of our own, registered as the desktop's handler of https links.
    opened = os.path.join(home.root, "opened.txt")
    browser = os.path.join(home.root, "fake-browser")
    with open(browser, "w") as handle:
        handle.write(f"#!/bin/sh\necho \"$1\" >> {opened}\n")
    os.chmod(browser, stat.S_IRWXU)
    applications = os.path.join(home.data, "applications")
    os.makedirs(applications, exist_ok=True)
    with open(os.path.join(applications, "fake-browser.desktop"), "w") as handle:
        handle.write("[Desktop Entry]\nType=Application\nName=Fake Browser\n"
                     f"Exec={browser} %u\nMimeType=x-scheme-handler/http;x-scheme-handler/https;\n")
    with open(os.path.join(home.config, "mimeapps.list"), "w") as handle:
        handle.write("[Default Applications]\nx-scheme-handler/https=fake-browser.desktop\n"
                     "x-scheme-handler/http=fake-browser.desktop\n")
    home.write_note("links.md", "Links\nSee [GNOME](https://www.gnome.org/) and [here](file:///etc/passwd)\n", age_seconds=60)
    # NOTULA_REPORT_LINKS: the app says what it did with each address (handed to the desktop, refused).
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_LINKS": "1"})
    try:
        app.launch()
        open_note(app, "Links")
        editor = app.editor()
        text = editor.queryText()
        for index, target in ((text.getText(0, -1).index("GNOME") + 1, "https"), (text.getText(0, -1).index("here") + 1, "file")):
            x, y, width, height = text.getCharacterExtents(index, pyatspi.WINDOW_COORDS)
            check(width > 0, f"no extents for the {target} link")
            app.focus()
            from notula_driver import xdotool
            xdotool("mousemove", "--window", str(app.wid), str(x + width // 2), str(y + height // 2))
            xdotool("keydown", "ctrl", "click", "1", "keyup", "ctrl")
        wait_for(lambda: os.path.exists(opened), 10, "Ctrl+click did not open the link")
        wait_for(lambda: "notula-link-address refused file:///etc/passwd" in app.output, 10,
                 lambda: f"the app did not refuse the file: link; output: {app.tail()}")
        check("notula-link-address desktop file:///etc/passwd" not in app.output, "the file: link was handed to the desktop")
        with open(opened) as handle:
            check(handle.read().split() == ["https://www.gnome.org/"], "the browser got something other than the web link")
        check(note_bytes(home, "links.md").startswith(b"Links\nSee [GNOME]"), "the note changed")
    finally:
        app.cleanup()


@acceptance
def the_counts_under_the_text_say_the_notes_words_and_then_the_selections(binary, home):
    """Issue #48: under the text, the note's words and characters; while text is selected,
    the selection's."""
    app = Notula(binary, home)

    def counts():
        return next((label for label in app.labels() if " word" in label), None)
    try:
        app.launch()
        app.focus()
        file_name = app.new_note()
        app.type("Counting")
        app.key("Return")
        app.type("one two three")
        wait_file(home, file_name, b"Counting\none two three")
        wait_for(lambda: counts() == "4 words, 21 characters", 5, lambda: f"the counts say {counts()!r}")
        app.key("shift+ctrl+Left")  # "three"
        wait_for(lambda: counts() == "Selected: 1 word, 5 characters", 5, lambda: f"the counts say {counts()!r}")
        app.key("shift+ctrl+Left")  # "two three"
        wait_for(lambda: counts() == "Selected: 2 words, 9 characters", 5, lambda: f"the counts say {counts()!r}")
        screenshot("note-counts.png")
        app.key("End")  # nothing selected: the whole note again
        wait_for(lambda: counts() == "4 words, 21 characters", 5, lambda: f"the counts say {counts()!r}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def vim_keys_chosen_in_preferences_delete_a_line_with_dd_and_u_brings_it_back(binary, home):
    """Issue #48: Preferences ▸ Editor ▸ Vim keys. The editor is then in Vim's normal mode:
    `dd` deletes the line, `u` brings it back, `:w` saves, `:q` closes the window; in insert mode
    Enter still continues a list; the command bar under the text says the mode. The choice
    outlives a restart; off again, keys type as before."""
    os.makedirs(home.library, exist_ok=True)
    with open(os.path.join(home.library, "Vim test.md"), "wb") as handle:
        handle.write(b"Vim test\n- one\n- two\nthree")
    app = Notula(binary, home)

    def preferences():
        with open(home.preferences_file, encoding="utf-8") as handle:
            return json.load(handle)

    def vim_keys_box():
        return app.find(lambda a: role(a) == "check box" and name(a) == "Vim keys")

    def toggle_vim_keys(on):
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(vim_keys_box, 5, "no 'Vim keys' check box in Preferences"))
        wait_for(lambda: has_state(vim_keys_box(), pyatspi.STATE_CHECKED) == on, 3, "the check box did not change")
        wait_for(lambda: preferences().get("vimKeys", False) == on, 3, lambda: f"not saved: {preferences()}")
        press_in_window("Preferences", "Escape")
        wait_for(lambda: vim_keys_box() is None, 5, "Escape did not close Preferences")

    def mode_shown(mode):
        wait_for(lambda: mode in app.labels(), 5, lambda: f"the command bar does not say {mode!r}: {app.labels()}")

    try:
        app.launch()
        toggle_vim_keys(True)
        open_note(app, "Vim test")
        app.key("Escape")            # normal mode (whatever the click did)
        app.key("g", "g", "j")       # the second line: "- one"
        app.key("d", "d")
        wait_file(home, "Vim test.md", b"Vim test\n- two\nthree")
        app.key("u")
        wait_file(home, "Vim test.md", b"Vim test\n- one\n- two\nthree")
        app.key("j", "A")            # append at the end of "- two": insert mode
        mode_shown("-- INSERT --")
        app.key("Return")            # the Markdown keys continue the list
        app.type("four")
        wait_file(home, "Vim test.md", b"Vim test\n- one\n- two\n- four\nthree")
        screenshot("vim-keys.png")
        app.key("Escape")
        wait_for(lambda: "-- INSERT --" not in app.labels(), 5, "Escape did not leave insert mode")
        app.type(":w")
        mode_shown(":w")
        app.key("Return")
        wait_file(home, "Vim test.md", b"Vim test\n- one\n- two\n- four\nthree")
        app.type(":q")               # closes the window, as Ctrl+W: the last one, so Notula quits
        app.key("Return")
        check(app.wait_exit() == 0, ":q did not end Notula cleanly")

        app.launch()                 # the choice kept: Vim's keys again
        open_note(app, "Vim test")
        app.key("Escape", "g", "g", "x")
        wait_file(home, "Vim test.md", b"im test\n- one\n- two\n- four\nthree")
        app.key("u")
        wait_file(home, "Vim test.md", b"Vim test\n- one\n- two\n- four\nthree")
        toggle_vim_keys(False)
        app.click_editor()
        app.key("ctrl+End")
        app.type("dd")               # plain typing again
        wait_file(home, "Vim test.md", b"Vim test\n- one\n- two\n- four\nthreedd")
        check("-- INSERT --" not in app.labels(), "the command bar stayed")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def the_outline_lists_the_headings_and_choosing_one_puts_the_cursor_there(binary, home):
    """Issue #48: Ctrl+Shift+O (or the button under the text) lists the note's headings,
    indented by level, the one the cursor is under marked; choosing the third puts the caret
    at its line; a heading typed is listed the next time."""
    os.makedirs(home.library, exist_ok=True)
    sentences = ["Train at 8:12 from the main station.", "- [ ] book the hotel", "Bring the blue umbrella.", ""]
    filler = "".join(sentences[n % len(sentences)] + "\n" for n in range(60))
    text = f"Outline test\n# First\n{filler}## Second\n{filler}# Third\n{filler}end"
    with open(os.path.join(home.library, "Outline test.md"), "w", encoding="utf-8") as handle:
        handle.write(text)
    app = Notula(binary, home)

    def items():
        # (GTK 4.18 lists other, nameless check items of closed menus too.)
        return [a for a in app.find_all(lambda a: role(a) == "menu item") if has_state(a, pyatspi.STATE_VISIBLE)]

    def open_outline(expected):
        app.key("ctrl+shift+o")
        wait_for(lambda: [name(a) for a in items()] == expected, 5, lambda: f"the outline lists {[name(a) for a in items()]}")
        return items()

    try:
        app.launch()
        open_note(app, "Outline test")
        app.key("ctrl+Home")
        shown = open_outline(["First", "\u2003Second", "Third"])
        wait_for(lambda: has_state(shown[0], pyatspi.STATE_FOCUSED), 5, "the first heading does not have the focus")
        screenshot("outline.png")
        app.key("Down", "Down", "Return")  # by keyboard, as every action
        third = text.index("# Third")
        caret = lambda: app.editor().queryText().caretOffset  # noqa: E731
        wait_for(lambda: caret() == third, 5, lambda: f"the caret is at {caret()}, not at {third} ('# Third')")
        shown = open_outline(["First", "\u2003Second", "Third"])
        check([has_state(a, pyatspi.STATE_CHECKED) for a in shown] == [False, False, True],
              "the heading the cursor is under is not the one marked")
        app.key("Escape")
        wait_for(lambda: not items(), 5, "Escape did not close the outline")
        app.key("ctrl+End")
        app.key("Return")
        app.type("### Fourth")
        open_outline(["First", "\u2003Second", "Third", "\u2003\u2003Fourth"])
        app.key("Escape")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
