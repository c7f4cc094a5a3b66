"""Pictures in notes on the real binary (issue #30). A PNG on the real X clipboard (xclip, which
offers only image/png and answers a text request with the PNG's bytes) pasted with Ctrl+V lands
in LIBRARY/attachments and the note links it; the link keeps resolving after the note moves to
a notebook and after every note moves to the synced folder. A note's pictures show inline, and
missing or hostile files show placeholders that say why."""
import glob
import os
import re
import struct
import subprocess
import urllib.parse
import zlib

import pyatspi

from notula_driver import (Notula, acceptance, check, extents_in_window, has_state, name as accessible_name, role,
                           screenshot, wait_for)
from tests_organize import menu_item
from tests_status_light import type_at_end
from tests_storage import choose_folder, click_button

LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")


def write_png(path, width=120, height=80):
    """A real PNG: an orange rectangle."""
    row = b"\x00" + bytes((240, 140, 30)) * width
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def read_text(path):
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None


def linked_files(note_path):
    """The files the note's picture links point at (read against the note's folder)."""
    text = read_text(note_path)
    folder = os.path.dirname(note_path)
    return [os.path.normpath(os.path.join(folder, urllib.parse.unquote(address))) for address in LINK.findall(text or "")]


def shown_picture(app, file_name):
    """The picture the editor shows for `file_name` (its accessible name when the link has no alt
    text), once it is on screen with a size: a placeholder is a label, not an image."""
    def showing():
        picture = app.find(lambda a: role(a) == "image" and accessible_name(a) == file_name)
        # (GTK 4.8 never marks a text view's overlay "showing"; it marks it visible.)
        if picture is None or not has_state(picture, pyatspi.STATE_VISIBLE):
            return None
        return picture if extents_in_window(picture)[2] > 0 else None
    return wait_for(showing, 10, f"no picture {file_name!r} shown in the editor")


def pngs_in(library):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(library, "attachments", "*.png")))


@acceptance
def attachments_pasted_picture_is_stored_linked_and_follows_note_and_library(binary, home):
    home.make_library()
    os.makedirs(os.path.join(home.library, "Work"))
    home.write_note("a.md", "Groceries\n")
    sync = os.path.join(home.root, "Sync")
    os.makedirs(os.path.join(sync, ".stfolder"))
    source = os.path.join(home.root, "shot.png")
    write_png(source)
    with open(source, "rb") as handle:
        source_bytes = handle.read()
    app = Notula(binary, home)
    clipboard = None
    try:
        app.launch()
        app.wait_rows(["Groceries"])
        app.click(app.row_accessible("Groceries"))
        type_at_end(app, "Picture:")
        wait_for(lambda: read_text(os.path.join(home.library, "a.md")) == "Groceries\nPicture:", 8, "the typing was not saved")
        # The real clipboard holds only image/png, served by xclip in the foreground.
        clipboard = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-t", "image/png", "-i", source],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: "image/png" in subprocess.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"],
                                                       capture_output=True, text=True, timeout=5).stdout,
                 5, "xclip does not offer the picture")
        app.focus()
        app.key("ctrl+v")
        note = os.path.join(home.library, "a.md")
        wait_for(lambda: pngs_in(home.library) and "![](attachments/" in (read_text(note) or ""), 10,
                 lambda: f"no picture pasted: attachments {pngs_in(home.library)}, note {read_text(note)!r}")
        name = pngs_in(home.library)[0]
        check(re.fullmatch(r"pasted-\d{4}-\d\d-\d\d-\d{6}\.png", name) is not None, f"unexpected name {name!r}")
        text = read_text(note)
        check(text == f"Groceries\nPicture:\n![](attachments/{name})", f"the note holds {text!r}")
        check("\x89PNG" not in text and "IHDR" not in text, "the PNG's bytes were pasted as text")
        with open(os.path.join(home.library, "attachments", name), "rb") as handle:
            check(handle.read(4) == b"\x89PNG", "the stored file is not a PNG")
        check(linked_files(note) == [os.path.join(home.library, "attachments", name)], f"the link does not resolve: {linked_files(note)}")
        # Seen inline, at its own size (120 × 80: narrower than the column, never upscaled).
        _, _, width, height = extents_in_window(shown_picture(app, name))
        check((width, height) == (120, 80), f"the picture shows {width} × {height}, not 120 × 80")
        screenshot("pasted-picture.png")

        # Move the note to the notebook: its link is rewritten to reach the same file.
        menu_item(app, "Move to Notebook…")
        app.click(wait_for(lambda: app.button(lambda n: n == "Move to notebook Work"), 5, "no Work in the chooser"))
        moved = os.path.join(home.library, "Work", "a.md")
        wait_for(lambda: os.path.exists(moved) and not os.path.exists(note), 5, "the note did not move into Work")
        wait_for(lambda: linked_files(moved) == [os.path.join(home.library, "attachments", name)], 5,
                 lambda: f"after the move the link reads {read_text(moved)!r}")

        # Move every note to the synced folder: the picture goes too and the link still resolves.
        app.focus()
        app.key("ctrl+comma")
        app.click(wait_for(lambda: app.find(lambda a: accessible_name(a) == "Store notes in a Synced Folder"), 8, "Preferences did not open"))
        choose_folder(app, sync)
        click_button(app, "Move Notes")
        synced = os.path.join(sync, "Notes")
        synced_note = os.path.join(synced, "Work", "a.md")
        synced_png = os.path.join(synced, "attachments", name)
        wait_for(lambda: os.path.exists(synced_note) and os.path.exists(synced_png) and not os.path.exists(moved), 10,
                 lambda: f"after moving all: {sorted(os.listdir(synced)) if os.path.isdir(synced) else 'no folder'}")
        check(linked_files(synced_note) == [synced_png], f"in the synced folder the link reads {read_text(synced_note)!r}")
        with open(synced_png, "rb") as handle:
            stored = handle.read()
        check(stored[:4] == b"\x89PNG", "the moved picture is not a PNG")
        check(not pngs_in(home.library), f"the picture stayed in the local folder: {pngs_in(home.library)}")
        app.click(app.row_accessible("Groceries"))
        shown_picture(app, name)
        check(source_bytes == open(source, "rb").read(), "the source file changed")
    finally:
        if clipboard is not None:
            clipboard.kill()
            clipboard.wait()
        app.cleanup()


def write_landscape(path, width=640, height=360):
    """A real PNG that looks like a photo: a sky, a sun and two hills."""
    rows = []
    for y in range(height):
        row = bytearray(b"\x00")
        for x in range(width):
            hill = y > height * 0.62 + 40 * __import__("math").sin(x / 90.0) or y > height * 0.8 - 0.1 * x
            sun = (x - width * 0.72) ** 2 + (y - height * 0.3) ** 2 < (height * 0.11) ** 2
            if sun:
                pixel = (250, 205, 70)
            elif hill:
                pixel = (60 + y // 8, 140 - y // 10, 70)
            else:
                pixel = (110 + y // 4, 160 + y // 6, 235)
            row += bytes(pixel)
        rows.append(bytes(row))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    with open(path, "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


@acceptance
def attachments_pictures_shown_inline_and_hostile_files_placeholders(binary, home):
    """A note with a picture, a missing one, a truncated PNG and a FIFO named .png: the picture
    shows scaled to the column with its alt text, each bad file a placeholder that says why, the
    window stays responsive (typing reaches the file) and showing changes no byte of the note."""
    home.make_library()
    attachments = os.path.join(home.library, "attachments")
    os.makedirs(attachments)
    write_landscape(os.path.join(attachments, "hills at dusk.png"))
    write_png(os.path.join(attachments, "cut.png"), 300, 200)
    with open(os.path.join(attachments, "cut.png"), "r+b") as handle:
        handle.truncate(60)
    os.mkfifo(os.path.join(attachments, "pipe.png"))
    text = ("Trip to the hills\nThe view from the top:\n![The hills at dusk](attachments/hills%20at%20dusk.png)\n"
            "Lost on the way:\n![](attachments/gone.png)\n![](attachments/cut.png)\n![](attachments/pipe.png)\n"
            "The [report](attachments/report.pdf) follows.\n")
    home.write_note("trip.md", text)
    note = os.path.join(home.library, "trip.md")
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Trip to the hills"])
        app.click(app.row_accessible("Trip to the hills"))
        picture = shown_picture(app, "The hills at dusk")
        _, _, width, height = extents_in_window(picture)
        check(abs(width / height - 640 / 360) < 0.02 and width <= 640, f"the picture shows {width} × {height}")
        for reason in ("Picture not found: gone.png", "Not a picture: cut.png", "Not a picture: pipe.png"):
            wait_for(lambda: reason in app.labels(), 10, lambda: f"no placeholder {reason!r}: labels {app.labels()}")
        screenshot("pictures-in-note.png")
        with open(note, encoding="utf-8") as handle:
            check(handle.read() == text, "showing the pictures changed the note's file")
        # The FIFO was never opened for reading: typing still reaches the file. (A click in the
        # middle of the editor would land on the picture and open it: click the title line.)
        x, y, _, _ = extents_in_window(app.editor())
        app.click_at(x + 40, y + 12)
        app.key("ctrl+End")
        app.type("Home again.")
        wait_for(lambda: read_text(note) == text + "Home again.", 8, lambda: f"the note holds {read_text(note)!r}")
    finally:
        app.cleanup()


class RacingOwner:
    """The X clipboard handed between two other programs (xclip, serving text or a PNG and
    answering every request with its bytes) right before each Ctrl+V."""

    def __init__(self, png_path):
        self.png_path = png_path
        self.process = None

    def serve(self, data=None):
        """Takes the clipboard: `data` as text, or the PNG when None; returns once the X server
        names the new owner (TARGETS answers with its type), not once Notula heard of it."""
        previous = self.process
        if data is None:
            command, target = ["xclip", "-quiet", "-selection", "clipboard", "-t", "image/png", "-i", self.png_path], "image/png"
        else:
            command, target = ["xclip", "-quiet", "-selection", "clipboard", "-i"], "UTF8_STRING"
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, start_new_session=True)
        if data is not None:
            self.process.stdin.write(data)
        self.process.stdin.close()
        wait_for(lambda: target in subprocess.run(["xclip", "-o", "-selection", "clipboard", "-t", "TARGETS"],
                                                  capture_output=True, text=True, timeout=5).stdout.split(),
                 5, f"xclip does not offer {target}")
        if previous is not None:
            previous.wait(5)  # it exits once it lost the selection

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(5)


@acceptance
def paste_after_the_clipboard_changed_owner_inserts_what_it_holds_now(binary, home):
    """Fifty pastes, each right after the clipboard passed from text to a picture or back:
    the note gets the new owner's text, or the picture as an attachment, never a byte of the
    picture as text."""
    home.make_library()
    home.write_note("a.md", "Race\n")
    png = os.path.join(home.root, "shot.png")
    write_png(png, 12, 8)
    app = Notula(binary, home, extra_env={"NOTULA_REPORT_PASTE": "1"})
    owner = RacingOwner(png)
    note = os.path.join(home.library, "a.md")
    try:
        app.launch()
        app.wait_rows(["Race"])
        app.click(app.row_accessible("Race"))
        type_at_end(app, "")
        expected, pictures = [], 0
        owner.serve(b"start")
        for round_ in range(50):
            picture = round_ % 2 == 0  # text → picture, then picture → text
            word = f"w{round_}"
            owner.serve(None if picture else f"\n{word}\n".encode())
            reported = sum(1 for line in app.output if line.startswith("notula-paste "))
            app.focus()
            app.key("ctrl+v")
            outcome = wait_for(lambda: [l for l in app.output if l.startswith("notula-paste ")][reported:], 10,
                               f"round {round_}: the paste reported nothing")[0]
            if picture:
                check(outcome == "notula-paste picture", f"round {round_}: a picture on the clipboard gave {outcome!r}")
                pictures += 1
                wait_for(lambda: (read_text(note) or "").count("![](attachments/") == pictures, 10,
                         lambda: f"round {round_}: the picture is not linked: {read_text(note)!r}")
            else:
                check(outcome == "notula-paste text", f"round {round_}: text on the clipboard gave {outcome!r}")
                expected.append(word)
            text = read_text(note)
            check(text is not None and "PNG" not in text and "IHDR" not in text and "\ufffd" not in text,
                  f"round {round_}: the picture's bytes are in the note: {text!r}")
        wait_for(lambda: all(f"\n{w}\n" in (read_text(note) or "") for w in expected), 8,
                 lambda: f"not every pasted word was saved: {read_text(note)!r}")
        text = read_text(note)
        check(text.count("![](attachments/") == 25 and len(pngs_in(home.library)) == 25,
              f"{text.count('![](attachments/')} links, {len(pngs_in(home.library))} pictures stored")
        check(all(ord(c) >= 32 or c == "\n" for c in text), f"control bytes in the note: {text!r}")
    finally:
        owner.stop()
        app.cleanup()


@acceptance
def remove_unused_attachments_stops_at_a_note_it_cannot_read_and_names_it(binary, home):
    """A note that cannot be read might link any file: Remove Unused Attachments… stops with its
    name and removes nothing. (A link that leads to itself: unreadable even for root, as CI runs.)"""
    attachments = os.path.join(home.library, "attachments")
    os.makedirs(attachments, exist_ok=True)
    with open(os.path.join(home.library, "Groceries.md"), "w") as f:
        f.write("Groceries\nmilk\n")
    write_png(os.path.join(attachments, "orphan.png"))
    os.symlink("Loop.md", os.path.join(home.library, "Loop.md"))
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Groceries"], timeout=10)
        menu_item(app, "Remove Unused Attachments…")
        failure = wait_for(lambda: app.find(lambda a: role(a) in ("dialog", "alert") and "Unused attachments could not be removed" in accessible_name(a)),
                           10, lambda: f"no dialog saying why; labels: {app.labels()[:20]}")
        wait_for(lambda: any("Loop.md" in label for label in app.labels()), 5, lambda: f"the note is not named: {app.labels()[:20]}")
        screenshot("unused-attachments-unreadable-note.png")
        check(os.path.exists(os.path.join(attachments, "orphan.png")), "a file was removed although a note could not be read")
        check(accessible_name(failure), "the dialog has no name")
    finally:
        app.cleanup()
