"""Notes that point to each other, on the real binary (issue #32): `[[Sho` offers "Shopping"
in a popover and picking it writes the link; Ctrl+click opens the linked note, whose backlinks
list the first note; retitling "Shopping" to "Groceries" and choosing Update rewrites the first
note's file, and Ctrl+Z while the toast shows restores both files; a tag typed in one note
shows in the sidebar and filters the list; a note another program adds with a link shows in
the backlinks without a restart; Ctrl+click on a link to a missing title creates that note."""
import os

import pyatspi

from notula_driver import Notula, acceptance, check, name, note_bytes, role, screenshot, wait_file, wait_for, xdotool
from tests_markdown import open_note
from tests_spelling import choose, offset_of

LINKS = {"NOTULA_REPORT_LINKS": "1"}


def reported(app, prefix):
    """The app's report lines starting with `prefix`."""
    return [line for line in app.output if line.startswith(prefix)]


def control_click_text(app, word, occurrence=0):
    """Ctrl+click on a word of the editor's text, as a user does to follow a link."""
    x, y, width, height = app.editor().queryText().getCharacterExtents(offset_of(app, word, occurrence) + 1, pyatspi.WINDOW_COORDS)
    check(width > 0 and height > 0, f"{word!r} has no extents on screen")
    app.focus()
    xdotool("mousemove", "--window", str(app.wid), str(int(x + width // 2)), str(int(y + height // 2)))
    xdotool("keydown", "ctrl")
    xdotool("click", "1")
    xdotool("keyup", "ctrl")


def button_named(app, predicate, what, timeout=5):
    return wait_for(lambda: app.find(lambda a: role(a) == "push button" and predicate(name(a))), timeout,
                    lambda: f"no {what}; buttons: {[name(a) for a in app.find_all(lambda a: role(a) == 'push button')][:40]}")


@acceptance
def links_complete_open_show_backlinks_and_follow_a_retitled_note(binary, home):
    home.write_note("shopping.md", "Shopping\n\nmilk, bread\n", age_seconds=60)
    home.write_note("first.md", "First note\n\n", age_seconds=30)
    app = Notula(binary, home, extra_env=LINKS)
    try:
        app.launch()
        app.focus()
        open_note(app, "First note")
        app.key("ctrl+End")
        app.type("See [[Sho")
        suggestion = button_named(app, lambda n: n == "Shopping", "suggestion 'Shopping' after typing [[Sho")
        screenshot("links-completion.png")
        choose(suggestion)
        wait_file(home, "first.md", b"First note\n\nSee [[Shopping]]")
        check(not app.find(lambda a: role(a) == "push button" and name(a) == "Shopping"), "the suggestions stayed after the choice")

        control_click_text(app, "Shopping", occurrence=0)
        wait_for(lambda: (app.editor_text() or "").startswith("Shopping"), 5, lambda: f"Ctrl+click did not open Shopping: {app.editor_text()!r}")
        wait_for(lambda: any(line.startswith("notula-backlinks shopping.md 1 first.md") for line in app.output), 5,
                 lambda: f"no backlinks report for shopping.md: {reported(app, 'notula-backlinks')}")
        button_named(app, lambda n: n == "Linked from 1 note", "backlinks heading")
        screenshot("links-backlinks.png")
        button_named(app, lambda n: n == "First note: See [[Shopping]]", "backlink row of the first note")

        # Retitle: the first line becomes "Groceries"; leaving the line asks about the links.
        app.click_editor()
        app.key("ctrl+Home")
        app.key("shift+End")
        app.type("Groceries")
        app.key("Down")
        update = button_named(app, lambda n: n == "Update", "Update button of the question about links", timeout=8)
        check(any(name(a) == "Update 1 link in 1 note?" for a in app.find_all(lambda a: role(a) == "label")),
              f"the question does not say what will change: {[name(a) for a in app.find_all(lambda a: role(a) == 'label')][:30]}")
        screenshot("links-update-question.png")
        app.click(update)
        wait_file(home, "first.md", b"First note\n\nSee [[Groceries]]")
        wait_file(home, "shopping.md", b"Groceries\n\nmilk, bread\n")
        button_named(app, lambda n: n.startswith("Undo: Updated 1 link in 1 note"), "Undo toast")
        app.focus()
        app.key("ctrl+z")
        wait_file(home, "first.md", b"First note\n\nSee [[Shopping]]")
        wait_file(home, "shopping.md", b"Shopping\n\nmilk, bread\n")
        check(any(line.startswith("notula-links-restored 1") for line in app.output), f"no restore reported: {reported(app, 'notula-links')}")

        # Another program adds a note linking here: the backlinks follow without a restart.
        home.write_note("third.md", "Third\n\nalso [[shopping]] from elsewhere\n")
        wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "Linked from 2 notes"), 10,
                 lambda: f"the backlinks did not follow another program's note: {reported(app, 'notula-backlinks')[-3:]}")
        app.quit()
    finally:
        app.cleanup()


@acceptance
def tags_show_in_the_sidebar_and_filter_and_missing_links_create_notes(binary, home):
    home.write_note("garden.md", "Garden\n\nplant roses\n", age_seconds=60)
    home.write_note("kitchen.md", "Kitchen\n\npaint walls\n", age_seconds=30)
    app = Notula(binary, home, extra_env=LINKS)
    try:
        app.launch()
        app.focus()
        app.wait_rows(["Kitchen", "Garden"])
        open_note(app, "Garden")
        app.key("ctrl+End")
        app.type(" #weekend and [[Shed plans]]")
        wait_file(home, "garden.md", b"Garden\n\nplant roses\n #weekend and [[Shed plans]]")
        tag = wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "Tag weekend, 1 note"), 10,
                       lambda: f"the typed tag is not in the sidebar: {reported(app, 'notula-tags')[-2:]}")
        screenshot("links-tags.png")
        app.click(tag)
        app.wait_rows(["Garden"])
        app.click(tag)  # again: every note
        app.wait_rows(["Garden", "Kitchen"])

        open_note(app, "Garden")
        control_click_text(app, "Shed plans")
        create = button_named(app, lambda n: n == "Create Note", "Create Note for a link to a missing title")
        screenshot("links-create-note.png")
        app.click(create)
        wait_for(lambda: (app.editor_text() or "").startswith("Shed plans"), 5, lambda: f"the new note is not open: {app.editor_text()!r}")
        made = wait_for(lambda: [f for f in home.md_files() if note_bytes(home, f).startswith(b"Shed plans\n")], 8,
                        lambda: f"no file starts with the link's title: {home.md_files()}")
        check(len(made) == 1, f"one note made: {made}")
        app.quit()
    finally:
        app.cleanup()


@acceptance
def a_link_to_a_heading_opens_the_note_at_that_heading(binary, home):
    """Issue #48: Ctrl+Enter in `[[Trip#Third]]` (Ctrl+click does the same) opens "Trip" with
    the caret at its heading "Third", far below the top; a Markdown link
    `[…](trip.md#second-part)` opens it at "Second part" (GitHub's anchor of it); `[…](#first)`
    goes to "First" in the same note. By keyboard: GTK 4.18 gives no character positions to
    click at."""
    filler = "".join(f"Day {n}: a long walk by the river.\n" for n in range(60))
    trip = f"Trip\n# First\n{filler}## Second part\n{filler}# Third\n{filler}Back to [the start](#first)."
    plan = "Plan\n\nSee [[Trip#Third]] and [the second](trip.md#second-part).\n"
    home.write_note("trip.md", trip, age_seconds=60)
    home.write_note("plan.md", plan, age_seconds=30)
    app = Notula(binary, home, extra_env=LINKS)

    def caret():
        return app.editor().queryText().caretOffset

    def follow(offset):
        """Ctrl+Enter with the caret at `offset` of the text (moved there by keys)."""
        app.key("ctrl+Home")
        app.key(*["Right"] * offset)
        wait_for(lambda: caret() == offset, 5, lambda: f"the caret is at {caret()}, not {offset}")
        app.key("ctrl+Return")

    def opened_at(heading):
        wait_for(lambda: (app.editor_text() or "").startswith("Trip"), 5, lambda: f"Trip did not open: {app.editor_text()!r}")
        wait_for(lambda: caret() == trip.index(heading), 5, lambda: f"the caret is at {caret()}, not at {trip.index(heading)} ({heading!r})")
    try:
        app.launch()
        app.focus()
        open_note(app, "Plan")
        follow(plan.index("Trip#"))
        opened_at("# Third")
        open_note(app, "Plan")
        follow(plan.index("trip.md#"))
        opened_at("## Second part")
        app.key("ctrl+End", "Left", "Left", "Left")  # in "(#first)"
        wait_for(lambda: caret() == len(trip) - 3, 5, lambda: f"the caret is at {caret()}, not {len(trip) - 3}")
        app.key("ctrl+Return")
        opened_at("# First")
        check(app.quit() == 0, "Ctrl+Q failed")
    finally:
        app.cleanup()
