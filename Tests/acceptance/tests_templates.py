"""Today's note and templates (issue #48), on the real binary: `notula --today`, while Notula
runs and as its first start after a restart, Ctrl+T and the menu's Today's Note all open one
note titled with today's date, made once from the template "Today" (Templates/Today.md) with
its placeholders filled and the cursor where `{{cursor}}` was; New Note from Template… makes a
note from any template."""
import datetime
import json
import os

import pyatspi

from notula_driver import Notula, acceptance, check, has_state, name, press_in_window, role, wait_file, wait_for
from tests_desktop import choose_from_main_menu

TEMPLATE = "# {{date}}\n\n## Plan\n- [ ] {{cursor}}\n"


def notes_titled(home, title):
    """The library's notes, templates and the private folders left out, whose title is `title`."""
    found = []
    for folder, names, files in os.walk(home.library):
        names[:] = [name for name in names if not name.startswith(".") and name.lower() != "templates"]
        for file_name in files:
            if file_name.endswith(".md"):
                with open(os.path.join(folder, file_name), encoding="utf-8", errors="replace") as handle:
                    first = handle.readline().strip()
                if first.lstrip("#").strip() == title:
                    found.append(os.path.relpath(os.path.join(folder, file_name), home.library))
    return found


@acceptance
def todays_note_is_made_once_from_the_today_template_and_found_again_after_a_restart(binary, home):
    os.makedirs(os.path.join(home.library, "Templates"), exist_ok=True)
    home.write_note("Templates/Today.md", TEMPLATE, age_seconds=600)
    home.write_note("other.md", "Other note\n\nnot today\n", age_seconds=300)
    today = datetime.date.today().isoformat()
    expected = f"# {today}\n\n## Plan\n- [ ] \n"
    app = Notula(binary, home)

    def one_note_of_today():
        found = notes_titled(home, today)
        check(len(found) <= 1, f"more than one note of today: {found}")
        return found[0] if found else None

    def shows_today():
        wait_for(lambda: (app.editor_text() or "").startswith(f"# {today}"), 5, lambda: f"the editor shows {app.editor_text()!r}")

    try:
        app.launch()
        app.focus()
        first = app.spawn("--today")  # while Notula runs: the running instance does it
        check(app.wait_exit(first, timeout=5) == 0, f"`notula --today` failed: {first.lines[-5:]}")
        made = wait_for(one_note_of_today, 5, "no note of today was made")
        with open(os.path.join(home.library, made), encoding="utf-8") as handle:
            check(handle.read() == expected, f"today's note holds {open(os.path.join(home.library, made)).read()!r}, expected {expected!r}")
        shows_today()
        caret = lambda: app.editor().queryText().caretOffset  # noqa: E731
        wait_for(lambda: caret() == len(expected) - 1, 5, lambda: f"the caret is at {caret()}, not where {{{{cursor}}}} was")

        second = app.spawn("--today")
        check(app.wait_exit(second, timeout=5) == 0, f"the second `notula --today` failed: {second.lines[-5:]}")
        app.bus_messages_handled()
        app.focus()
        app.key("ctrl+t")
        app.bus_messages_handled()
        shows_today()
        check(one_note_of_today() == made, "Ctrl+T or a second --today made another note")
        check(app.quit() == 0, "Ctrl+Q failed")

        app.launch("--today")  # the first start of the day after a restart
        shows_today()
        app.bus_messages_handled()
        check(one_note_of_today() == made, "after a restart, --today made another note")
        check(app.quit() == 0, "the second Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def a_new_note_from_a_template_has_its_placeholders_filled_and_its_links_kept(binary, home):
    """Main Menu ▸ New Note from Template… lists the templates (notes of a "Templates"
    notebook, here Work/Templates) under the New Note button; choosing "Meeting" makes a new
    note from it: {{title}} and {{date}} filled, the cursor at {{cursor}}, a picture link
    rewritten to lead from the new note's folder to the same picture."""
    os.makedirs(os.path.join(home.library, "Work", "Templates"), exist_ok=True)
    home.write_note("Work/Templates/Meeting.md", "{{title}} {{date}}\n\nAttendees: {{cursor}}\n![logo](../../attachments/logo.png)\n",
                    age_seconds=600)
    home.write_note("other.md", "Other note\n\nnot a template\n", age_seconds=300)
    today = datetime.date.today().isoformat()
    expected = f"Meeting {today}\n\nAttendees: \n![logo](attachments/logo.png)\n"
    app = Notula(binary, home)
    try:
        app.launch()
        before = set(home.md_files())
        choose_from_main_menu(app, "New Note from Template…")
        wait_for(lambda: app.find(lambda a: role(a) == "menu item" and name(a) == "Meeting"), 5, "the templates were not listed")
        app.key("Return")  # the first (and only) template has the focus

        def made():
            new = set(home.md_files()) - before
            return new.pop() if len(new) == 1 else None
        file_name = wait_for(made, 5, lambda: f"no single new note; new files: {sorted(set(home.md_files()) - before)}")
        wait_file(home, file_name, expected.encode())
        caret = lambda: app.editor().queryText().caretOffset  # noqa: E731
        wait_for(lambda: (app.editor_text() or "").startswith("Meeting"), 5, lambda: f"the editor shows {app.editor_text()!r}")
        wait_for(lambda: caret() == expected.index("Attendees: ") + len("Attendees: "), 5, lambda: f"the caret is at {caret()}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def todays_note_another_device_made_is_opened_not_made_again(binary, home):
    """A sync client brought today's note from another device (its own file name) before the
    first start here: `notula --today` opens it — found by its title once the new index has
    read the folder — and makes no second one."""
    today = datetime.date.today().isoformat()
    home.write_note("from-phone.md", f"{today}\n\nwritten on the phone\n", age_seconds=60)
    for n in range(200):  # enough notes that the first index takes a moment
        home.write_note(f"older-{n}.md", f"Older note {n}\n\ntext {n}\n", age_seconds=3600 + n)
    app = Notula(binary, home)
    try:
        app.launch("--today")
        wait_for(lambda: (app.editor_text() or "").startswith(f"{today}\n\nwritten on the phone"), 10,
                 lambda: f"the editor shows {(app.editor_text() or '')[:60]!r}")
        app.bus_messages_handled()
        check(notes_titled(home, today) == ["from-phone.md"], f"notes of today: {notes_titled(home, today)}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()


@acceptance
def todays_note_is_made_in_the_notebook_and_with_the_title_preferences_choose(binary, home):
    """Preferences ▸ Today's Note: the notebook typed ("Journal/Daily", not there yet: made)
    and the long date title chosen — the title shown as the choice's own label. Ctrl+T then makes
    today's note there, titled so, from the "Today" template with {{date}} said the same way;
    Ctrl+T again opens it. A path that cannot be a notebook is refused and not saved."""
    os.makedirs(os.path.join(home.library, "Templates"), exist_ok=True)
    home.write_note("Templates/Today.md", "# {{date}}\n\n{{cursor}}\n", age_seconds=600)
    app = Notula(binary, home)

    def field():
        return app.find(lambda a: role(a) == "text" and name(a) == "Today's note notebook")

    def preferences():
        with open(home.preferences_file, encoding="utf-8") as handle:
            return json.load(handle)

    try:
        app.launch()
        app.key("ctrl+comma")
        entry = wait_for(field, 5, "no notebook field for today's note in Preferences")
        press_in_window("Preferences", "alt+n")  # the field's label: _Notebook
        wait_for(lambda: has_state(field(), pyatspi.STATE_FOCUSED), 5, "the notebook field did not take the focus")
        app.type(".hidden")
        wait_for(lambda: any("cannot be a notebook" in label for label in app.labels()), 5,
                 lambda: f"'.hidden' was not refused: {app.labels()}")
        check("todayNotebook" not in preferences(), f"a refused notebook was saved: {preferences()}")
        app.key("ctrl+a")
        app.type("Journal/Daily")
        wait_for(lambda: preferences().get("todayNotebook") == "Journal/Daily", 5, lambda: f"not saved: {preferences()}")
        choices = app.find_all(lambda a: role(a) in ("radio button", "check box") and name(a).startswith("Today's note title: "))
        check(len(choices) == 3, f"title choices: {[name(c) for c in choices]}")
        long_title = name(choices[1])[len("Today's note title: "):]
        press_in_window("Preferences", "Tab")  # from the field to the title choices, by keys
        wait_for(lambda: has_state(choices[0], pyatspi.STATE_FOCUSED), 5, lambda: f"Tab went to {app.focused_description()}")
        app.key("Down", "space")
        wait_for(lambda: preferences().get("todayTitle") == "long", 5, lambda: f"the title style was not saved: {preferences()}")
        press_in_window("Preferences", "Escape")
        app.focus()
        app.key("ctrl+t")
        folder = os.path.join(home.library, "Journal", "Daily")
        made = wait_for(lambda: [f for f in os.listdir(folder) if f.endswith(".md")] if os.path.isdir(folder) else None, 5,
                        "today's note was not made in Journal/Daily")
        check(len(made) == 1, f"notes made: {made}")
        wait_file(home, f"Journal/Daily/{made[0]}", f"# {long_title}\n\n\n".encode())
        wait_for(lambda: (app.editor_text() or "").startswith(f"# {long_title}"), 5, lambda: f"the editor shows {app.editor_text()!r}")
        app.key("ctrl+t")
        app.bus_messages_handled()
        check(notes_titled(home, long_title) == [f"Journal/Daily/{made[0]}"], f"notes of today: {notes_titled(home, long_title)}")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
