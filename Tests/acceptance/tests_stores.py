"""Acceptance tests of Notula's two SQLite stores on the real binary (issue #28): the library
index (`$XDG_CACHE_HOME/notula/index-*.sqlite`) and the note history
(`$XDG_DATA_HOME/notula/History/history.sqlite`) keep their write-ahead logs bounded while the
user types and leave none behind at a clean quit; Clear History says nothing but "History
cleared" and leaves no trace of a cleared text in any file of the history's folder."""
import glob
import os
import random
import secrets
import sqlite3
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (Notula, acceptance, check, children, find_all, has_state, name, role,  # noqa: E402
                           history_versions, note_bytes, wait_for)
from tests_desktop import press_in_window, toplevel, wait_window  # noqa: E402
from tests_errors import visible_dialogs  # noqa: E402
import pyatspi  # noqa: E402

MB = 1024 * 1024


def history_folder(home):
    return os.path.join(home.data, "notula", "History")


def index_files(home):
    return glob.glob(os.path.join(home.cache, "notula", "index-*.sqlite"))


def wal_size(path):
    """The size of `path`'s write-ahead log, or None when there is none."""
    try:
        return os.stat(path + "-wal").st_size
    except FileNotFoundError:
        return None


class WalWatch:
    """Samples the sizes of the stores' WAL files every few milliseconds on a thread of its
    own, so the largest each reached is seen even between two of the test's checks."""

    def __init__(self, stores):
        self.stores = stores  # label -> database path (its WAL is path + "-wal")
        self.largest = {label: 0 for label in stores}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            self.sample()
            time.sleep(0.005)

    def sample(self):
        sizes = {label: wal_size(path) or 0 for label, path in self.stores.items()}
        for label, size in sizes.items():
            self.largest[label] = max(self.largest[label], size)
        return sizes

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(2)


def indexed_size(index, note_id):
    """The size the library index recorded for the note, read as another program would
    (read-only, the connection closed at once so it holds no snapshot of the WAL)."""
    connection = sqlite3.connect(f"file:{index}?mode=ro", uri=True, timeout=2)
    try:
        row = connection.execute("SELECT size FROM notes WHERE path = ?", (note_id,)).fetchone()
        return row[0] if row else None
    finally:
        connection.close()


def two_hundred_kilobyte_note():
    """About 200 KB of words in lines of a normal length (no safe mode), always the same."""
    words = ["river", "ledger", "planet", "candle", "orbit", "harvest", "meadow", "signal", "quartz", "lantern",
             "copper", "willow", "thunder", "saffron", "glacier", "violet", "harbor", "mosaic", "ember", "falcon"]
    generator = random.Random(28)
    lines = ["Field journal"]
    size = len(lines[0]) + 1
    while size < 200 * 1024:
        line = " ".join(f"{generator.choice(words)}{generator.randrange(1000)}" for _ in range(9))
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines) + "\n"


@acceptance
def store_logs_stay_bounded_over_forty_autosaves_and_are_gone_after_quit(binary, home):
    """Issue #28: typing in a 200 KB note grew the index's WAL by about 1 MB with every
    autosave (a statement left busy kept a read transaction open, so no checkpoint could
    finish), and the WALs stayed on disk after quitting. Now 40 autosaves keep each WAL under
    8 MB (twice the 4 MB `journal_size_limit` each is truncated to), and Ctrl+Q leaves none."""
    bound = 8 * MB
    saves = 40
    text = two_hundred_kilobyte_note()
    home.write_note("journal.md", text, age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Field journal"])
        wait_for(lambda: (app.editor_text() or "").startswith("Field journal"), 10, "the 200 KB note did not open")
        index = wait_for(lambda: index_files(home)[0] if len(index_files(home)) == 1 else None, 10,
                         lambda: f"no single library index in {home.cache}: {index_files(home)}")
        history = os.path.join(history_folder(home), "history.sqlite")
        wait_for(lambda: indexed_size(index, "journal.md") == len(text.encode()), 10, "the index does not list the note")
        app.click_editor()
        app.key("ctrl+End")
        expected = text.encode()
        figures = []
        started = time.monotonic()
        with WalWatch({"index": index, "history": history}) as watch:
            for save in range(1, saves + 1):
                typed = f" s{save}"
                app.type(typed)
                expected += typed.encode()
                # The autosave (about a second after the typing pauses), then the index's
                # refresh of it: the note's row has the file's new size.
                wait_for(lambda: note_bytes(home, "journal.md") == expected, 10,
                         lambda: f"autosave {save}: the file ends {note_bytes(home, 'journal.md')[-40:]!r}, expected {expected[-40:]!r}")
                wait_for(lambda: indexed_size(index, "journal.md") == len(expected), 10,
                         lambda: f"autosave {save}: the index has size {indexed_size(index, 'journal.md')}, the file {len(expected)}")
                sizes = watch.sample()
                figures.append(sizes["index"])
                check(watch.largest["index"] < bound and watch.largest["history"] < bound,
                      f"after autosave {save} a WAL reached {watch.largest['index'] / MB:.1f} MB (index) / "
                      f"{watch.largest['history'] / MB:.1f} MB (history), over {bound / MB:.0f} MB; "
                      f"index WAL after each save: {[round(f / MB, 1) for f in figures]} MB")
        elapsed = time.monotonic() - started
        print(f"  {saves} autosaves in {elapsed:.0f} s; largest WAL: index {watch.largest['index'] / MB:.2f} MB, "
              f"history {watch.largest['history'] / MB:.2f} MB (bound {bound / MB:.0f} MB); index WAL after each save, MB: "
              f"{' '.join(f'{f / MB:.1f}' for f in figures)}")
        check(app.quit() == 0, "Ctrl+Q failed")
        check(note_bytes(home, "journal.md") == expected, "the note lost typing at quit")
        left = {path + "-wal": wal_size(path) for path in (index, history) if wal_size(path)}
        check(not left, f"write-ahead logs left after quitting: {left}")
    finally:
        app.cleanup()


# ---------------------------------------------------------------------------------------------

def zlib_streams(data):
    """Every zlib stream in `data`, inflated (as far as it goes): each offset that starts a
    valid zlib header is tried, so deflated texts in pages, free pages or the WAL are found."""
    found = []
    offset = data.find(b"\x78")
    while 0 <= offset < len(data) - 2:
        start, offset = offset, data.find(b"\x78", offset + 1)
        if (data[start] * 256 + data[start + 1]) % 31 != 0:
            continue
        # Fed a little at a time: what inflates before a damaged or cut part is kept too.
        inflater, out = zlib.decompressobj(), b""
        for chunk in range(start, min(len(data), start + 4 * MB), 512):
            try:
                out += inflater.decompress(data[chunk:chunk + 512])
            except zlib.error:
                break
            if inflater.eof or len(out) > 64 * MB:
                break
        if out:
            found.append(out)
    return found


def files_holding(folder, token):
    """The files under `folder` that hold `token`'s bytes, raw or in a zlib stream."""
    holding = []
    for root, _, names in os.walk(folder):
        for file_name in names:
            path = os.path.join(root, file_name)
            with open(path, "rb") as handle:
                data = handle.read()
            if token in data:
                holding.append(f"{file_name} (raw)")
            elif any(token in inflated for inflated in zlib_streams(data)):
                holding.append(f"{file_name} (deflated)")
    return holding


@acceptance
def clear_history_shows_no_failure_and_leaves_no_trace_of_a_cleared_word(binary, home):
    """Issue #28: Preferences ▸ Clear History said "could not be cleared … SQLite error 6:
    database table is locked" (a statement left busy held the store), and deleted versions
    stayed readable in free pages and the WAL. Now it says "History cleared", no dialog, and a
    word typed earlier — kept in versions — is in no file of the history's folder, neither as
    bytes nor inside any deflated text."""
    secret = f"pw{secrets.token_hex(6)}"
    note = "Accounts\nbank: see the paper notebook\n"
    home.write_note("accounts.md", note, age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        app.wait_rows(["Accounts"])
        wait_for(lambda: app.editor_text() == note, 5, lambda: f"the note did not open: {app.editor_text()!r}")
        app.click_editor()
        app.key("ctrl+End")
        typed = f"mail: {secret}"
        app.type(typed)
        wait_for(lambda: note_bytes(home, "accounts.md") == (note + typed).encode(), 8, "the typed word was not saved")
        # The first save of the writing keeps a version at once: the word is in the history.
        wait_for(lambda: any(secret in text for _, _, text in history_versions(home)), 8,
                 lambda: f"no version holds the typed word: {history_versions(home)}")
        check(files_holding(history_folder(home), secret.encode()), "the test cannot see a word the history holds")
        app.key(*["BackSpace"] * len(typed))
        wait_for(lambda: note_bytes(home, "accounts.md") == note.encode(), 8,
                 lambda: f"the word was not taken out of the note: {note_bytes(home, 'accounts.md')!r}")

        app.focus()
        app.key("ctrl+comma")
        preferences = wait_window(app, "Preferences")
        app.click(wait_for(lambda: next((b for b in find_all(preferences, lambda a: role(a) == "push button")
                                         if name(b) == "Clear History"), None), 5, "no Clear History in Preferences"))
        question = "Clear the history of all notes?"
        dialog = wait_window(app, question)
        # (GTK 4.8 doubled dialog buttons' names before issue #28: "Clear History Clear History".)
        app.click(wait_for(lambda: next((b for b in find_all(dialog, lambda a: role(a) == "push button")
                                         if name(b).startswith("Clear History")), None), 3, "the question has no Clear History"))
        wait_for(lambda: question not in visible_dialogs(app), 5, "the question stayed after Clear History was pressed")
        # Either the app says it is done (a toast) or it shows a failure (a dialog).
        done = lambda: "History cleared" in app.labels()  # the toast, there for a few seconds
        failures = lambda: [name(w) for w in children(app.accessible_app())
                            if has_state(w, pyatspi.STATE_VISIBLE) and name(w) not in ("Notula", "Preferences", question)]
        wait_for(lambda: done() or failures() or visible_dialogs(app), 10, "Clear History said nothing")
        check(not failures() and not visible_dialogs(app), f"Clear History showed a failure: {failures() or visible_dialogs(app)}")
        check(not history_versions(home), f"versions are left after Clear History: {history_versions(home)}")
        if toplevel(app, lambda w: name(w) == "Preferences") is not None:
            press_in_window("Preferences", "Escape")
        check(app.quit() == 0, "Ctrl+Q failed")
        check(note_bytes(home, "accounts.md") == note.encode(), "the note changed")
        holding = files_holding(history_folder(home), secret.encode())
        check(not holding, f"the cleared word is still in {holding} in {history_folder(home)}: {os.listdir(history_folder(home))}")
        print(f"  history folder after quitting: "
              f"{', '.join(f'{n} {os.path.getsize(os.path.join(history_folder(home), n))} B' for n in sorted(os.listdir(history_folder(home))))}")
    finally:
        app.cleanup()
