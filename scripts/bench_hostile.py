#!/usr/bin/python3
"""What hostile libraries cost (issue #11): a 5 MB one-line note and a 50 MB note opened in
the safe mode, and inotify instances and watches with 200 and 2,000 notebooks.

Run inside the display session, with the release binary:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_hostile.py --binary .build-release/release/notula

For each large note: exec → the list shows it; a click on its row → the safe-mode banner;
the process's CPU time (user + system) and RSS then; SIGTERM → exit. The window must stay
reachable over AT-SPI throughout (the bug was minutes of 100 % CPU, SIGTERM ignored).
For notebooks: the process's inotify instances and watches once the list is shown.
A report: exit status 0 unless the benchmark itself could not run.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "acceptance"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import Notula, TempHome, has_state, name, role, wait_for  # noqa: E402
import pyatspi  # noqa: E402
from bench_app import rss_mb  # noqa: E402


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def inotify(pid):
    instances = watches = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:inotify":
                continue
            instances += 1
            with open(f"/proc/{pid}/fdinfo/{fd}") as handle:
                watches += sum(1 for line in handle if line.startswith("inotify wd:"))
        except OSError:
            pass
    return instances, watches


def large_note(binary, label, content):
    home = TempHome(prefix="notula-bench-hostile-")
    app = Notula(binary, home)
    try:
        home.write_note("small.md", "Small note\n", age_seconds=600)
        path = os.path.join(home.make_library(), "large.md")
        with open(path, "wb") as handle:
            handle.write(content)
        start = time.monotonic()
        app.launch(timeout=60)
        wait_for(lambda: app.row_accessible("Large"), 60, "the large note is not listed")
        listed = time.monotonic() - start
        app.click(app.row_accessible("Large"))
        wait_for(lambda: app.find(lambda a: role(a) == "label" and "shows its beginning" in name(a)
                                  and has_state(a, pyatspi.STATE_VISIBLE)), 60, "no safe-mode banner")
        opened = time.monotonic() - start
        cpu, rss = cpu_seconds(app.process.pid), rss_mb(app.process.pid)
        before = time.monotonic()
        app.process.terminate()
        app.wait_exit(timeout=60)
        print(f"{label:28} listed {listed:5.2f} s, opened (safe mode) {opened:5.2f} s, CPU {cpu:5.2f} s, "
              f"RSS {rss:4.0f} MB, SIGTERM → exit {time.monotonic() - before:4.2f} s")
    finally:
        app.cleanup()
        home.remove()


def notebooks(binary, count):
    home = TempHome(prefix="notula-bench-hostile-")
    app = Notula(binary, home)
    try:
        home.write_note("top.md", "Top note\n")
        for index in range(count):
            os.makedirs(os.path.join(home.library, f"Book {index:04}"))
        start = time.monotonic()
        app.launch(timeout=60)
        wait_for(lambda: app.row_accessible("Top note"), 60, "the list did not show")
        time.sleep(1)
        instances, watches = inotify(app.process.pid)
        print(f"{count:5} notebooks{'':12} listed {time.monotonic() - start - 1:5.2f} s, inotify instances {instances}, "
              f"watches {watches}")
        app.process.terminate()
        app.wait_exit(timeout=30)
    finally:
        app.cleanup()
        home.remove()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    options = parser.parse_args()
    line = b"abcdefghij" * 500_000
    large_note(options.binary, "5 MB, one line", b"Large\n" + line + b"\n")
    paragraph = b"A line of ordinary words, as notes have them, repeated for a long while.\n"
    large_note(options.binary, "50 MB, 700,000 lines", b"Large\n" + paragraph * (50_000_000 // len(paragraph)))
    for count in (200, 2000):
        notebooks(options.binary, count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
