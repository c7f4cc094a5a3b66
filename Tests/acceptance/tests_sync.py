"""Sync conflicts made by a real sync engine: two Syncthing instances on loopback (see
syncthing_pair.py). Notula runs on device A with A's folder as its synced library; device B is
"the other computer", edited by hand. The same note is changed on both while B's folder is
paused; on resume Syncthing makes its conflict copy. Notula shows the note in conflict, Show
Conflicts shows both versions, and each resolution leaves both devices with the same notes, no
conflict copy, and every word somewhere the user can find it.
"""
import os
import shutil
import tempfile
import time

from notula_driver import Notula, acceptance, check, children, history_versions, name, role, screenshot, wait_for
from syncthing_pair import SyncthingPair, folder_snapshot, parse_conflict_name
from tests_status_light import read_text, type_at_end, type_at_end_while_replaced, wait_status

BASE = "Trip\npassport\nday 1: museum\n"
ON_B = "Trip\npassport\nday 1: zoo\n"
TYPED_ON_A = "day 2: beach"


def conflict_copies(folder):
    return sorted(n for n in os.listdir(folder) if parse_conflict_name(n))


def notes(folder):
    return {path: data for path, data in folder_snapshot(folder).items() if path.endswith(".md")}


def click_button(app, label):
    found = wait_for(lambda: app.button(lambda text: text == label), 5, f"no button named exactly {label!r}")
    app.click(found)


def text_of(acc):
    text = acc.queryText()
    return text.getText(0, text.characterCount)


class Devices:
    """Device A (Notula's synced library) and device B, kept in sync by a real pair."""

    def __init__(self, home):
        self.work = tempfile.mkdtemp(prefix="notula-sync-")
        self.a = os.path.join(home.root, "Sync", "Notes")
        self.b = os.path.join(self.work, "device-b", "Notes")
        os.makedirs(self.a, mode=0o700)
        home.write_preferences({"storage": "synced", "syncedFolder": self.a})
        with open(os.path.join(self.a, "Trip.md"), "w", encoding="utf-8") as handle:
            handle.write(BASE)
        self.pair = SyncthingPair(self.a, self.b, self.work)

    def __enter__(self):
        self.pair.start()
        self.pair.sync("a")
        check(read_text(os.path.join(self.b, "Trip.md")) == BASE, "the note did not reach device B")
        return self

    def __exit__(self, *exc):
        self.pair.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    def make_conflict(self, app):
        """Edits Trip on B while B is paused, then on A in Notula (later, so A's version wins
        and Syncthing's copy holds B's), and resumes B."""
        self.pair.pause("b")
        on_b = os.path.join(self.b, "Trip.md")
        with open(on_b, "w", encoding="utf-8") as handle:
            handle.write(ON_B)
        earlier = time.time() - 5
        os.utime(on_b, (earlier, earlier))
        type_at_end(app, TYPED_ON_A)
        wait_for(lambda: TYPED_ON_A in read_text(os.path.join(self.a, "Trip.md")), 10, "Notula did not save the typing")
        wait_status(app, "Saved")
        self.pair.resume("b")
        self.pair.sync_both()
        wait_for(lambda: conflict_copies(self.a) and conflict_copies(self.b), 20, "Syncthing made no conflict copy on both devices")
        copy = conflict_copies(self.a)[0]
        check(read_text(os.path.join(self.a, copy)) == ON_B, "the conflict copy does not hold B's version")
        check(parse_conflict_name(copy)["device"] == self.pair.short_id("a"), "A's version should have won")
        return copy

    def settle(self):
        """Both devices have the same notes and no conflict copy (waited through the REST API)."""
        self.pair.sync_both()

        def same():
            return notes(self.a) == notes(self.b) and not conflict_copies(self.a) and not conflict_copies(self.b)

        self.pair.wait_for(same, 20, "the devices did not end with the same notes",
                           detail=lambda: f"A: {sorted(notes(self.a))} B: {sorted(notes(self.b))}")


def open_show_conflicts(app, from_list):
    wait_status(app, "Conflict", timeout=10)
    # The light hears of the conflict from the open document, the row from the library's index
    # a moment later (two watchers): the row is waited for, not read at once.
    def row_names():
        row = app.row_accessible("Trip")
        return [name(row)] + [name(child) for child in children(row)] if row is not None else []
    wait_for(lambda: any("in conflict" in text for text in row_names()), 5,
             lambda: f"the row does not say it is in conflict: {row_names()!r}")
    if from_list:
        app.click(wait_for(lambda: app.button(lambda text: text.startswith("Show Conflicts of")), 5, "no dot to click in the row"))
    else:
        app.click(wait_for(lambda: app.button(lambda text: text in ("Show Conflicts", "Show Conflicts Show Conflicts")), 5,
                           "no Show Conflicts in the light"))
    frame = wait_for(lambda: app.find(lambda a: role(a) == "frame" and name(a) == "Resolve Conflict"), 10, "no Resolve Conflict window")
    this_view = wait_for(lambda: app.find(lambda a: role(a) == "text" and name(a) == "This Version"), 5, "no This Version text")
    other_view = app.find(lambda a: role(a) == "text" and name(a) == "Other Version")
    check(text_of(this_view) == BASE + TYPED_ON_A, f"This Version shows {text_of(this_view)!r}")
    check(text_of(other_view) == ON_B, f"Other Version shows {text_of(other_view)!r}")
    labels = app.labels()
    check(any(label.startswith("This computer") for label in labels), f"where this version came from is not said: {labels}")
    check(any(label.startswith("Another device (Syncthing") for label in labels), f"where the other came from is not said: {labels}")
    return frame


def resolve_a_real_conflict(binary, home, from_list, choice, check_devices, shot=None):
    """Makes a real Syncthing conflict on Trip, opens Show Conflicts (from the list's dot or
    the status light), chooses `choice`, waits until both devices agree, then checks them."""
    with Devices(home) as devices:
        app = Notula(binary, home)
        try:
            app.launch()
            wait_for(lambda: app.editor_text() == BASE, 10, "Trip is not open")
            copy = devices.make_conflict(app)
            open_show_conflicts(app, from_list)
            if shot:
                screenshot(shot)
            click_button(app, choice)
            wait_for(lambda: not os.path.exists(os.path.join(devices.a, copy)), 10,
                     lambda: f"the conflict copy is still there (app running: {app.is_running()}; its output: {app.tail(40)})")
            devices.settle()
            check_devices(devices, app)
            wait_status(app, "Saved")
        finally:
            app.cleanup()


@acceptance
def syncthing_conflict_keep_both(binary, home):
    def both_notes_on_both_devices(devices, app):
        on_a = notes(devices.a)
        check(on_a.get("Trip.md") == (BASE + TYPED_ON_A).encode(), f"Trip holds {on_a.get('Trip.md')!r}")
        others = [path for path in on_a if path != "Trip.md"]
        check(len(others) == 1 and on_a[others[0]] == ON_B.encode(), f"B's version is not a note of its own: {on_a}")
        app.wait_rows(["Trip", "Trip"], timeout=5)

    resolve_a_real_conflict(binary, home, from_list=True, choice="Keep Both: the other version becomes a new note", check_devices=both_notes_on_both_devices,
                            shot="show-conflicts-syncthing.png")


@acceptance
def syncthing_conflict_keep_this(binary, home):
    def this_version_on_both_the_other_set_aside(devices, app):
        check(notes(devices.a) == {"Trip.md": (BASE + TYPED_ON_A).encode()}, f"A holds {notes(devices.a)}")
        kept = [text for path, origin, text in history_versions(home) if origin == "otherVersion" and path.endswith("/Trip.md")]
        check(kept == [ON_B], f"B's version was not set aside in the note's history: {kept}")

    resolve_a_real_conflict(binary, home, from_list=False, choice="Keep This Version", check_devices=this_version_on_both_the_other_set_aside)


@acceptance
def change_elsewhere_merges_with_unsaved_typing(binary, home):
    """Another device changes the title while the user is typing at the end: no conflict,
    both changes kept, and a brief notice says they were merged."""
    path = home.write_note("groceries.md", "Groceries\n- oat milk\n- bread\n")
    app = Notula(binary, home)
    try:
        app.launch()
        wait_status(app, "Saved")
        typist = type_at_end_while_replaced(app, path, "and butter for the weekend", "Groceries for Saturday\n- oat milk\n- bread\n")
        notice = wait_for(lambda: any(label.startswith("Changes made elsewhere were merged") for label in app.labels()), 5,
                          lambda: f"no merge notice; labels: {app.labels()}")
        check(notice, "no merge notice")
        typist.wait(20)
        expected = "Groceries for Saturday\n- oat milk\n- bread\nand butter for the weekend"
        wait_for(lambda: app.editor_text() == expected, 5, lambda: f"the editor shows {app.editor_text()!r}")
        wait_for(lambda: read_text(path) == expected, 10, lambda: f"the file holds {read_text(path)!r}")
        wait_status(app, "Saved")
        app.wait_rows(["Groceries for Saturday"])
    finally:
        app.cleanup()
