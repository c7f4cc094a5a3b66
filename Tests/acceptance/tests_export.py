"""Notes out, on the real binary (issue #34): Main Menu ▸ Export as HTML… and Export as PDF…
through GTK's file chooser, Export Notebook as HTML…, Ctrl+P through GTK's print dialog to
"Print to File", and an export to a read-only disk. The files are read back as a reader
would: the HTML by an XML parser (well-formed) and an HTML parser, the PDF by poppler."""
import base64
import os
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser

import pyatspi

from notula_driver import (Notula, acceptance, check, children, find_all, has_state, mount, name, role, skip, screenshot,
                           wait_for)
from tests_desktop import choose_from_main_menu, open_first_note
from tests_organize import notebook_button

EXPORT = {"NOTULA_REPORT_EXPORT": "1"}
ALL_TITLES = ["Trip plan", "Lyon", "Dijon", "Packing"]
RED_PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGP4z8AARww4OQD1MQv1NXv7ggAAAABJRU5ErkJggg==")
NOTE = """Trip plan
Some **bold** and *italic* words, see [[Packing]].

## Before leaving
- [ ] Book the train
- [x] Pack the tent

| Day | Place |
|-----|-------|
| Mon | Lyon  |

![Red square](attachments/red.png)
"""


def write_library(home):
    home.write_note("Trip plan.md", NOTE)
    home.write_note("Packing.md", "Packing\n- Tent\n", age_seconds=60)
    os.makedirs(os.path.join(home.library, "attachments"), exist_ok=True)
    with open(os.path.join(home.library, "attachments", "red.png"), "wb") as file:
        file.write(RED_PNG)
    os.makedirs(os.path.join(home.library, "Trips"), exist_ok=True)
    home.write_note("Trips/Lyon.md", "Lyon\nSee [[Dijon]].\n", age_seconds=10)
    home.write_note("Trips/Dijon.md", "Dijon\n1. Mustard\n", age_seconds=30)


def report(app, kind, timeout=15):
    """The app's `notula-export KIND PAGES PATH` line for the latest export of that kind."""
    failures = sum(1 for out in app.output if out.startswith("notula-export-failed"))
    def line():
        check(sum(1 for out in app.output if out.startswith("notula-export-failed")) == failures, f"an export failed: {app.tail()}")
        return next((out for out in reversed(app.output) if out.startswith(f"notula-export {kind} ")), None)
    return wait_for(line, timeout, lambda: f"no export report for {kind}: {app.tail()}").split(" ", 3)


def save_in_chooser(app, title_part, path):
    """GTK's own file chooser (no portal here): the full path put into its name field, Enter."""
    chooser = wait_for(lambda: app.find(lambda a: title_part in name(a) and role(a) in ("dialog", "frame", "window", "filler")), 8,
                       f"no file chooser '{title_part}'")
    app.enter_path(chooser, path)


class Elements(HTMLParser):
    """Counts the elements an HTML parser finds (a browser's reading, not XML's)."""

    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def text_of(element):
    return "".join(element.itertext()).strip()


@acceptance
def export_note_as_html_and_pdf_and_a_notebook(binary, home):
    write_library(home)
    out = os.path.join(home.root, "Exports")
    os.makedirs(out)
    app = Notula(binary, home, EXPORT)
    # A user who keeps their files private: every export is made 0600, as any program's
    # would be (they were 0644 whatever the umask).
    umask = os.umask(0o077)
    try:
        try:
            app.launch()
        finally:
            os.umask(umask)
        app.wait_rows(ALL_TITLES)
        open_first_note(app, "Trip plan")

        html_path = os.path.join(out, "Trip plan.html")
        choose_from_main_menu(app, "Export as HTML…")
        save_in_chooser(app, "as HTML", html_path)
        check(report(app, "html")[3] == html_path, "the HTML went elsewhere")
        with open(html_path, encoding="utf-8") as file:
            html = file.read()
        root = ElementTree.fromstring(html)  # raises unless well-formed
        check(text_of(root.find("head/title")) == "Trip plan", "the page's title")
        check([text_of(h) for h in root.iter("h1")] == ["Trip plan"], "the title is the heading")
        check([text_of(h) for h in root.iter("h2")] == ["Before leaving"], "the heading")
        items = [text_of(li) for li in root.iter("li")]
        check("Book the train" in items and "Pack the tent" in items, f"list items: {items}")
        boxes = [box for box in root.iter("input") if box.get("type") == "checkbox"]
        check(len(boxes) == 2 and boxes[1].get("checked") is not None and boxes[0].get("checked") is None,
              "the task boxes, the second checked")
        check([text_of(td) for td in root.iter("td")] == ["Mon", "Lyon"], "the table's cells")
        check(any(img.get("src", "").startswith("data:image/png;base64,") for img in root.iter("img")), "the picture is embedded")
        check("**" not in html and "[[" not in html and "- [ ]" not in html, "Markdown syntax left in the page")
        browser = Elements()
        browser.feed(html)
        check(sum(1 for tag, _ in browser.tags if tag == "li") == 2, "an HTML parser reads two list items")
        wait_for(lambda: app.find(lambda a: "Exported to “Trip plan.html”" in name(a)), 5, "no toast says where the file went")

        pdf_path = os.path.join(out, "Trip plan.pdf")
        choose_from_main_menu(app, "Export as PDF…")
        save_in_chooser(app, "as PDF", pdf_path)
        check(report(app, "pdf")[3] == pdf_path, "the PDF went elsewhere")
        words = subprocess.run(["pdftotext", pdf_path, "-"], capture_output=True, text=True, check=True).stdout
        for expected in ["Trip plan", "Before leaving", "Book the train", "Lyon", "see Packing."]:
            check(expected in words, f"{expected!r} is not in the PDF: {words!r}")
        check("**" not in words and "##" not in words, f"syntax in the PDF: {words!r}")
        images = subprocess.run(["pdfimages", "-list", pdf_path], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
        check(len(images) == 1, f"the picture is not drawn once in the PDF: {images}")
        check(not [n for n in os.listdir(out) if n.startswith(".")], f"temporary files left: {os.listdir(out)}")
        for folder in {tempfile.gettempdir(), home.env().get("XDG_RUNTIME_DIR") or tempfile.gettempdir()}:
            check(not [n for n in os.listdir(folder) if n.startswith("notula-export-")], f"the PDF's temporary is left in {folder}")

        # The notebook: both notes in one page, a [[link]] leading within it.
        app.click(notebook_button(app, "Trips"))
        app.wait_rows(["Lyon", "Dijon"])
        notebook_path = os.path.join(out, "Trips.html")
        choose_from_main_menu(app, "Export Notebook as HTML…")
        save_in_chooser(app, "Trips", notebook_path)
        report(app, "notebook-html")
        root = ElementTree.parse(notebook_path).getroot()
        headings = [text_of(h) for h in root.iter("h1")]
        check(headings == ["Dijon", "Lyon"], f"the notebook's notes by title: {headings}")
        links = [a.get("href") for a in root.iter("a") if text_of(a) == "Dijon" and a.get("href", "").startswith("#note-")]
        check(len(links) == 2, f"the contents and the [[link]] lead to Dijon's part of the page: {links}")
        for path in (html_path, pdf_path, notebook_path):
            check(os.stat(path).st_mode & 0o777 == 0o600, f"{path} is {oct(os.stat(path).st_mode & 0o777)} under umask 077")
        screenshot("export-toast.png")
        check(app.quit() == 0, "Ctrl+Q did not end the app cleanly")
    finally:
        app.cleanup()


@acceptance
def print_with_control_p_to_a_file(binary, home):
    write_library(home)
    app = Notula(binary, home, EXPORT)
    try:
        app.launch()
        app.wait_rows(ALL_TITLES)
        open_first_note(app, "Trip plan")
        app.focus()
        app.key("ctrl+p")
        dialog = wait_for(lambda: next((w for w in children(app.accessible_app()) if name(w) == "Print"
                                        and has_state(w, pyatspi.STATE_VISIBLE)), None), 10, "Ctrl+P showed no print dialog")
        printer = wait_for(lambda: next(iter(find_all(dialog, lambda a: name(a) == "Print to File")), None), 5,
                           "the print dialog offers no Print to File")
        app.click(printer)
        # Print to File proposes output.pdf; its File button opens GTK's chooser for another name.
        target = os.path.join(home.root, "Trip plan.pdf")
        file_button = wait_for(lambda: next(iter(find_all(dialog, lambda a: role(a) == "push button" and name(a).endswith("output.pdf"))), None),
                               5, "Print to File shows no File button")
        app.click(file_button)
        save_in_chooser(app, "Select a filename", target)
        wait_for(lambda: app.find(lambda a: role(a) == "push button" and name(a) == "~/Trip plan.pdf"), 5,
                 "the File button does not show the name typed")
        screenshot("print-dialog.png")
        app.click(next(b for b in find_all(dialog, lambda a: role(a) == "push button" and name(a) == "Print")))
        check(int(report(app, "print")[2]) >= 1, "no page printed")
        wait_for(lambda: os.path.exists(target) and os.path.getsize(target) > 0, 10, "the printed file is not there")
        # GTK's file printer writes the file after "done": wait until poppler reads it whole.
        words = wait_for(lambda: subprocess.run(["pdftotext", target, "-"], capture_output=True, text=True).stdout or None, 10,
                         "the printed PDF cannot be read")
        for expected in ["Trip plan", "Before leaving", "Book the train", "see Packing."]:
            check(expected in words, f"{expected!r} is not on the printed page: {words!r}")
        check("**" not in words and "[[" not in words, f"syntax on the printed page: {words!r}")
        check(app.quit() == 0, "Ctrl+Q did not end the app cleanly")
    finally:
        app.cleanup()


@acceptance
def export_to_a_read_only_disk_says_so_and_keeps_the_note(binary, home):
    write_library(home)
    disk = os.path.join(home.root, "usb")
    os.makedirs(disk)
    if mount("-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", disk).returncode != 0:
        skip("mounting needs root")
    app = Notula(binary, home, EXPORT)
    try:
        app.launch()
        app.wait_rows(ALL_TITLES)
        open_first_note(app, "Trip plan")
        choose_from_main_menu(app, "Export as HTML…")
        save_in_chooser(app, "as HTML", os.path.join(disk, "Trip plan.html"))
        wait_for(lambda: any(out == "notula-export-failed html" for out in app.output), 10, lambda: f"no failure reported: {app.tail()}")
        alert = wait_for(lambda: app.find(lambda a: role(a) in ("dialog", "alert") and "could not be exported" in name(a)), 8,
                         "no dialog says the note could not be exported")
        texts = " ".join(name(a) for a in find_all(alert, lambda a: role(a) == "label"))
        check("read-only" in texts, f"the dialog does not say the disk is read-only: {texts!r}")
        check("notes" not in texts, f"the dialog speaks of the notes' disk: {texts!r}")
        screenshot("export-read-only.png")
        check(os.listdir(disk) == [], f"something was written: {os.listdir(disk)}")
        # Choose Another Place… recovers: the chooser again, and the export done there.
        elsewhere = os.path.join(home.root, "Trip plan.html")
        app.click(wait_for(lambda: app.button(lambda n: n == "Choose Another Place…"), 5, "no Choose Another Place… button"))
        save_in_chooser(app, "as HTML", elsewhere)
        check(report(app, "html")[3] == elsewhere, "the export did not go to the other place")
        ElementTree.parse(elsewhere)
        with open(os.path.join(home.library, "Trip plan.md"), encoding="utf-8") as file:
            check(file.read() == NOTE, "the note changed")
    finally:
        app.cleanup()
        subprocess.run(["umount", "-l", disk], capture_output=True)
