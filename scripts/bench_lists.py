#!/usr/bin/python3
"""Big lists benchmark (issue #29): Browse Versions with 5,000 versions of one note, and the
notebook sidebar with 2,000 notebooks, on the real binary.

The library holds one note and 2,000 notebooks (empty folders); the note history store is
written directly (the app's schema, zlib texts) with 5,000 versions of that note, all from the
last day (the history keeps every one). The app runs with NOTULA_REPORT_LISTS (ListsReport):

- sidebar: `notula-notebooks-listed` (a listing hands the sidebar its notebooks) to
  `notula-notebooks-shown` (the first frame painted with them); also exec to shown.
- AT-SPI: a pyatspi client, started once the sidebar is shown, walks the "Notebooks" list and
  its rows' buttons. A recycling list exposes only the rows GTK made (about 200 on GTK 4.8),
  not 2,000: the figure is the time until the client has read every row exposed, and how many.
- Browse Versions: from just before `xdotool key ctrl+shift+h` to `notula-versions-shown`
  (its first frame with the list), three times (Escape closes it between runs).

Targets: 200 ms for each list. Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_lists.py --binary .build-release/release/notula
"""
import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import zlib

from bench_app import launch, private_home, stop, window_id, write_results, xdotool

TARGET_MS = 200.0
NOTEBOOKS = 2_000
VERSIONS = 5_000


def wait_for(lines, prefix, timeout, after=0, predicate=lambda fields: True):
    """The first line from index `after` on starting with `prefix` (its fields) that `predicate` accepts."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for index in range(after, len(lines)):
            fields = lines[index].split()
            if fields and fields[0] == prefix and predicate(fields):
                return index, fields
        time.sleep(0.005)
    raise RuntimeError(f"no '{prefix}' within {timeout} s")


def fill_history(folder, note_path):
    """A history store as NoteHistory makes it (schema version 1) with VERSIONS versions of the note."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    connection = sqlite3.connect(os.path.join(folder, "history.sqlite"))
    connection.execute("PRAGMA auto_vacuum = 2")
    connection.executescript("""
        CREATE TABLE notes(id INTEGER PRIMARY KEY, path TEXT UNIQUE, title TEXT NOT NULL DEFAULT '');
        CREATE TABLE texts(key TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL);
        CREATE TABLE versions(id INTEGER PRIMARY KEY, note INTEGER NOT NULL, date REAL NOT NULL, key TEXT NOT NULL, origin TEXT NOT NULL);
        CREATE INDEX versions_by_note ON versions(note, date);
        CREATE INDEX versions_by_key ON versions(key);
        PRAGMA user_version = 1;
    """)
    connection.execute("INSERT INTO notes(id, path, title) VALUES (1, ?, 'Long history')", (note_path,))
    now = time.time()
    for index in range(VERSIONS):
        text = f"Long history\nversion {index}\n" + "words " * (index % 50)
        data = text.encode()
        key = f"bench-{index:08x}-{len(data)}"
        connection.execute("INSERT INTO texts(key, size, data) VALUES (?, ?, ?)", (key, len(data), zlib.compress(data, 6)))
        # Oldest first, 15 s apart, all within the last day (kept whole by the policy).
        connection.execute("INSERT INTO versions(note, date, key, origin) VALUES (1, ?, ?, ?)",
                           (now - 60 - 15 * (VERSIONS - index), key, "closed" if index % 20 == 0 else "edited"))
    connection.commit()
    connection.close()


# Walks the app's "Notebooks" list over AT-SPI; prints seconds taken and the rows read.
ATSPI_CLIENT = r"""
import sys, time
import pyatspi
start = time.monotonic()
pid = int(sys.argv[1])
def walk(acc, depth=0):
    if acc is None or depth > 40:
        return None
    try:
        if acc.getRoleName() == "list" and acc.name == "Notebooks":
            return acc
        for index in range(acc.childCount):
            found = walk(acc.getChildAtIndex(index), depth + 1)
            if found is not None:
                return found
    except Exception:
        return None
    return None
rows = names = 0
while time.monotonic() - start < 60:
    desktop = pyatspi.Registry.getDesktop(0)
    app = next((a for a in desktop if a is not None and a.get_process_id() == pid), None)
    notebooks = walk(app) if app is not None else None
    if notebooks is not None and notebooks.childCount > 0:
        rows = notebooks.childCount
        for index in range(rows):
            row = notebooks.getChildAtIndex(index)
            button = row.getChildAtIndex(0) if row is not None and row.childCount else None
            if button is not None and button.name.startswith("Notebook "):
                names += 1
        break
    time.sleep(0.01)
print(time.monotonic() - start, rows, names)
"""


def run(binary):
    root = tempfile.mkdtemp(prefix="notula-bench-lists-", dir=os.environ.get("BENCH_DIR", "/var/tmp"))
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_LISTS="1", NOTULA_REPORT_MAPPED="1",
                                    NOTULA_REPORT_OPEN="1")
        note = os.path.join(library, "long.md")
        with open(note, "w") as handle:
            handle.write("Long history\nnow\n")
        for index in range(NOTEBOOKS):
            os.makedirs(os.path.join(library, f"Book {index:04}"))
        fill_history(os.path.join(root, "data", "notula", "History"), note)

        started = time.monotonic()
        process, lines = launch(binary, env)
        try:
            wid = window_id()
            _, mapped = wait_for(lines, "notula-window-mapped", 30)
            at, listed = wait_for(lines, "notula-notebooks-listed", 30, predicate=lambda f: int(f[2]) == NOTEBOOKS)
            _, shown = wait_for(lines, "notula-notebooks-shown", 30, after=at, predicate=lambda f: int(f[2]) == NOTEBOOKS)
            sidebar_ms = (float(shown[1]) - float(listed[1])) * 1000
            exec_ms = (float(shown[1]) - started) * 1000
            client = subprocess.run(["/usr/bin/python3", "-c", ATSPI_CLIENT, str(process.pid)], capture_output=True, text=True, timeout=120, env=env)
            walked = client.stdout.split()
            atspi_ms, exposed, named = (float(walked[0]) * 1000, int(walked[1]), int(walked[2])) if len(walked) == 3 else (float("nan"), 0, 0)

            wait_for(lines, "notula-open", 30)  # the note is open: Browse Versions shows its history
            opens = []
            for attempt in range(3):
                after = len(lines)
                xdotool("windowfocus", "--sync", wid)
                asked = time.monotonic()
                xdotool("key", "--window", wid, "ctrl+shift+h")
                _, versions = wait_for(lines, "notula-versions-shown", 30, after=after)
                opens.append(((float(versions[1]) - asked) * 1000, int(versions[2])))
                window = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Versions of"], capture_output=True,
                                        text=True).stdout.split()
                if window:
                    subprocess.run(["xdotool", "windowfocus", "--sync", window[-1]], capture_output=True, timeout=10)
                    subprocess.run(["xdotool", "key", "Escape"], capture_output=True, timeout=10)
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline and subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Versions of"],
                                                                     capture_output=True, text=True).stdout.split():
                    time.sleep(0.05)
        finally:
            stop(process)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    print(f"big lists (release build, GTK {gtk_version()}, Cairo renderer)")
    print(f"{'':<44} {'ms':>9} {'target':>8}")
    print(f"{'sidebar: 2,000 notebooks listed → painted':<44} {sidebar_ms:>9.1f} {TARGET_MS:>8.0f}  {'ok' if sidebar_ms <= TARGET_MS else 'OVER'}")
    print(f"{'sidebar: exec → 2,000 notebooks painted':<44} {exec_ms:>9.1f} {'':>8}  (window mapped at {(float(mapped[1]) - started) * 1000:.0f} ms)")
    print(f"{'sidebar over AT-SPI: rows read (client)':<44} {atspi_ms:>9.1f} {TARGET_MS:>8.0f}  {'ok' if atspi_ms <= TARGET_MS else 'OVER'}"
          f"  ({exposed} rows exposed, {named} named, of {NOTEBOOKS}: a recycling list exposes only the rows GTK made)")
    for index, (ms, count) in enumerate(opens):
        label = f"Browse Versions: key → {count:,} shown ({index + 1})"
        print(f"{label:<44} {ms:>9.1f} {TARGET_MS:>8.0f}  {'ok' if ms <= TARGET_MS else 'OVER'}")
    write_results("lists", {"notebooks_ms": sidebar_ms, "atspi_ms": atspi_ms, "versions_ms": max(ms for ms, _ in opens)})
    return 0 if sidebar_ms <= TARGET_MS and max(ms for ms, _ in opens) <= TARGET_MS else 1


def gtk_version():
    try:
        return subprocess.run(["pkg-config", "--modversion", "gtk4"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    options = parser.parse_args()
    run(os.path.abspath(options.binary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
