"""Notes in from Gnote, on the real binary (issue #34): Debian's real Gnote, driven through its
D-Bus RemoteControl in this test's session, writes notes (formatting, a nested list, a link, a
notebook) into a fresh home; Notula's first start there offers them ("Import N notes from
Gnote?"); Import makes them notes with their dates and notebook, and a link opens the linked
note. A folder of Markdown files comes in through Main Menu ▸ Import Notes…."""
import glob
import os
import re
import shutil
import signal
import subprocess
from datetime import datetime, timezone
from xml.sax.saxutils import escape

from notula_driver import Notula, acceptance, check, name, role, screenshot, wait_for
from tests_links import control_click_text
from tests_organize import menu_item

GNOTE = "org.gnome.Gnote"
IMPORT = {"NOTULA_REPORT_IMPORT": "1", "NOTULA_REPORT_LINKS": "1"}


def gdbus(env, destination, path, method, *arguments, timeout=20):
    result = subprocess.run(["gdbus", "call", "--session", "--dest", destination, "--object-path", path, "--method", method,
                             *arguments, "--timeout", str(timeout)], capture_output=True, text=True, timeout=timeout + 5, env=env)
    check(result.returncode == 0, f"{method} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def gnote_owned(env):
    out = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                          "--method", "org.freedesktop.DBus.NameHasOwner", GNOTE], capture_output=True, text=True, env=env)
    return "true" in out.stdout


def remote_answers(env, remote):
    result = subprocess.run(["gdbus", "call", "--session", "--dest", GNOTE, "--object-path", remote[0], "--method",
                             f"{remote[1]}.Version"], capture_output=True, text=True, timeout=10, env=env)
    return result.returncode == 0


def gnote_writes(home, notes):
    """Real Gnote, in `home`, creates `notes` [(title, note-content XML, tags)] through its
    RemoteControl and quits (saving them). Returns its folder of .note files."""
    check(shutil.which("gnote"), "gnote is not installed (make deps-test installs it)")
    env = home.env({"GTK_A11Y": "none"})
    gnote = subprocess.Popen(["gnote", "--background"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        remote = ("/org/gnome/Gnote/RemoteControl", "org.gnome.Gnote.RemoteControl")
        # Gnote owns its name a moment before it exports the RemoteControl: wait for the object.
        wait_for(lambda: gnote_owned(env) and remote_answers(env, remote), 20, "Gnote's RemoteControl did not come up", interval=0.2)
        for title, content, tags in notes:
            uri = re.search(r"'([^']*)'", gdbus(env, GNOTE, remote[0], f"{remote[1]}.CreateNamedNote", title)).group(1)
            check(uri, f"Gnote made no note {title!r}")
            gdbus(env, GNOTE, remote[0], f"{remote[1]}.SetNoteContentsXml", uri, content)
            for tag in tags:
                gdbus(env, GNOTE, remote[0], f"{remote[1]}.AddTagToNote", uri, tag)
        # Gnote saves a changed note a few seconds later (it has no quit action to ask for it).
        folder = os.path.join(home.data, "gnote")

        def saved(title, content, tags):
            texts = [open(path, encoding="utf-8").read() for path in glob.glob(f"{folder}/*.note")]
            first_line = content.split("size\">" if "size\">" in content else ">", 1)[1].split("\n", 1)[0]
            return any(f"<title>{title}</title>" in text and first_line in text and all(f"<tag>{escape(tag)}</tag>" in text for tag in tags)
                       for text in texts)
        for note in notes:
            wait_for(lambda: saved(*note), 30, f"Gnote did not save {note[0]!r}", interval=0.3)
    finally:
        if gnote.poll() is None:
            os.killpg(gnote.pid, 15)
            try:
                gnote.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(gnote.pid, 9)
                gnote.wait(5)
    return folder


# As Gnote writes note content: its namespaces declared, each list item ending in a line break.
CONTENT = ('<note-content version="0.1" xmlns:link="http://beatniksoftware.com/tomboy/link" '
           'xmlns:size="http://beatniksoftware.com/tomboy/size">')
def titles(app):
    """The titles of the list's rows (a row reads "Title, Just now")."""
    return {row.rsplit(", ", 1)[0] for row in app.rows()}


SHOPPING = (CONTENT + 'Shopping list\n\n<bold>milk</bold>, <italic>bread</italic> and '
            '<strikethrough>cake</strikethrough>, see <link:internal>Recipes</link:internal>\n'
            '<list><list-item dir="ltr">eggs\n<list><list-item dir="ltr">brown\n</list-item></list></list-item>'
            '<list-item dir="ltr">flour\n</list-item></list></note-content>')
RECIPES = (CONTENT + 'Recipes\n\n<size:large>Pancakes</size:large>\n'
           'Mix with <monospace>2 eggs</monospace>.</note-content>')


@acceptance
def gnote_notes_are_offered_at_first_start_and_imported_with_dates_notebooks_and_links(binary, home):
    folder = gnote_writes(home, [("Shopping list", SHOPPING, []), ("Recipes", RECIPES, ["system:notebook:Kitchen"])])
    sources = sorted(glob.glob(f"{folder}/*.note"))
    before = {path: open(path, "rb").read() for path in sources}
    app = Notula(binary, home, IMPORT)
    app.launch()
    offer = f"Import {len(sources)} notes from Gnote?"
    wait_for(lambda: offer in app.labels(), 10, lambda: f"no offer {offer!r}: {app.labels()[:20]}")
    app.click(app.button(lambda n: n == "Import"))
    wait_for(lambda: any(line.startswith("notula-import ") for line in app.output), 20, lambda: f"no import: {app.tail()}")
    imported, skipped, partly = (int(n) for n in next(l for l in app.output if l.startswith("notula-import ")).split()[1:4])
    check(imported + skipped == len(sources) and imported >= 2, f"imported {imported}, skipped {skipped} of {len(sources)}")
    screenshot("import-report.png")
    app.press(wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "OK"), 5, "no report"))
    wait_for(lambda: {"Shopping list", "Recipes"} <= titles(app), 10, lambda: f"rows: {app.rows()}")
    check({path: open(path, "rb").read() for path in sorted(glob.glob(f"{folder}/*.note"))} == before, "the Gnote folder changed")

    # Recipes: in the notebook Kitchen, named after its creation date, with its last change as its time.
    recipes = [p for p in glob.glob(os.path.join(home.library, "Kitchen", "*.md"))]
    check(len(recipes) == 1, f"Kitchen holds {recipes}")
    text = open(recipes[0], encoding="utf-8").read()
    check(text == "Recipes\n\n### Pancakes\nMix with `2 eggs`.\n", f"Recipes as Markdown: {text!r}")
    source = next(open(p, encoding="utf-8").read() for p in sources if "<title>Recipes</title>" in open(p, encoding="utf-8").read())
    created = re.match(r"(.*T\d\d:\d\d:\d\d)(\.\d+)?(.*)$", re.search(r"<create-date>([^<]+)</create-date>", source).group(1))
    stamp = datetime.fromisoformat(created.group(1) + created.group(3)).astimezone(timezone.utc).strftime("%Y%m%d-%H%M%S")
    check(os.path.basename(recipes[0]).startswith(f"note-{stamp}-"), f"{os.path.basename(recipes[0])} does not carry {stamp}")

    # Shopping list: its formatting, and its link opens Recipes.
    shopping = next(p for p in glob.glob(os.path.join(home.library, "*.md")) if open(p, encoding="utf-8").read().startswith("Shopping list"))
    check(open(shopping, encoding="utf-8").read()
          == "Shopping list\n\n**milk**, *bread* and ~~cake~~, see [[Recipes]]\n- eggs\n  - brown\n- flour\n",
          f"Shopping list as Markdown: {open(shopping, encoding='utf-8').read()!r}")
    app.click(app.row_accessible("Shopping list"))
    wait_for(lambda: (app.editor_text() or "").startswith("Shopping list"), 5,
             lambda: f"Shopping list did not open: the editor shows {app.editor_text()!r}, rows {app.rows()}; {app.last_click()}")
    control_click_text(app, "Recipes")
    wait_for(lambda: (app.editor_text() or "").startswith("Recipes"), 5, lambda: f"the link did not open Recipes: {app.tail()}")
    app.quit()

    # The offer is made once.
    app = Notula(binary, home, IMPORT)
    app.launch()
    wait_for(lambda: "Shopping list" in titles(app), 10, "the imported notes are not listed after a restart")
    check(not any(label.startswith("Import ") for label in app.labels()), "the import was offered again")
    app.quit()


def tomboy_note(title, text):
    return ('<?xml version="1.0" encoding="utf-8"?>\n'
            '<note version="0.3" xmlns:link="http://beatniksoftware.com/tomboy/link" '
            'xmlns:size="http://beatniksoftware.com/tomboy/size" xmlns="http://beatniksoftware.com/tomboy">'
            f'<title>{title}</title><text xml:space="preserve"><note-content version="0.1">{title}\n{text}</note-content></text>'
            '<last-change-date>2021-11-12T13:14:15.0000000+00:00</last-change-date>'
            '<create-date>2019-03-04T05:06:07.0000000+01:00</create-date></note>\n')


def first_lines(library):
    lines = []
    for path in glob.glob(os.path.join(library, "**", "*.md"), recursive=True):
        with open(path, encoding="utf-8") as handle:
            lines.append(handle.readline().rstrip("\n"))
    return lines


@acceptance
def an_import_killed_halfway_and_run_again_imports_every_note_once(binary, home):
    """Import of 1,500 Gnote notes, the app killed (SIGKILL) halfway; Import Notes… again: the
    notes made before the kill are recognised, the rest imported, none twice, none half."""
    count = 1500
    folder = os.path.join(home.data, "gnote")
    os.makedirs(folder)
    for number in range(count):
        with open(os.path.join(folder, f"{number:08x}-0000-4000-8000-000000000000.note"), "w", encoding="utf-8") as handle:
            handle.write(tomboy_note(f"Imported {number:04}", f"words of note {number}"))
    app = Notula(binary, home, IMPORT)
    try:
        app.launch()
        offer = f"Import {count} notes from Gnote?"
        wait_for(lambda: offer in app.labels(), 10, lambda: f"no offer {offer!r}: {app.labels()[:20]}")
        app.click(app.button(lambda n: n == "Import"))
        wait_for(lambda: len(first_lines(home.library)) >= 300, 60, lambda: f"the import made {len(first_lines(home.library))} notes")
        os.killpg(app.process.pid, signal.SIGKILL)
        app.process.wait(10)
        made = len(first_lines(home.library))
        check(made < count, f"the import ended ({made} notes) before the kill: make more notes")
    finally:
        app.cleanup()

    app = Notula(binary, home, IMPORT)
    try:
        app.launch()
        menu_item(app, "Import Notes…")
        app.click(wait_for(lambda: app.button(lambda n: n == f"From Gnote ({count} notes)"), 10, lambda: f"no Gnote button: {app.labels()[:20]}"))
        wait_for(lambda: any(line.startswith("notula-import ") for line in app.output), 120, lambda: f"no import: {app.tail()}")
        imported, skipped, partly, already = (int(n) for n in next(l for l in app.output if l.startswith("notula-import ")).split()[1:5])
        check(already >= made and imported + already == count, f"imported {imported}, already {already} of {count}; {made} before the kill")
        wait_for(lambda: any(f"{already} notes were already imported." in label for label in app.labels()), 10,
                 lambda: f"the report does not say so: {app.labels()[:20]}")
        screenshot("import-resumed.png")
        titles = first_lines(home.library)
        check(len(titles) == count and len(set(titles)) == count,
              f"{len(titles)} notes, {len(set(titles))} titles after the second import of {count}")
        check(not glob.glob(os.path.join(home.library, ".notula-tmp-*")), "a half-written note was left")
    finally:
        app.cleanup()
