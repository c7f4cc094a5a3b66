#!/usr/bin/python3
"""Acceptance tests: the real Notula binary, driven from outside as a user would
(xdotool for keys, clicks and the window; AT-SPI to read the screen; the files on disk).

Usage (inside the display session):
    scripts/with-display.sh /usr/bin/python3 Tests/acceptance/run.py --binary .build/debug/notula [-k NAME]

Prints one PASS/FAIL/SKIP line per test, then "N passed, M failed, K skipped"; exits 1 if any
failed. A test that cannot run here (not root, a tool missing) is a SKIP with its reason; under
CI (CI=true), where `make deps-test` installed every tool and the run is root, a skip is a
FAIL unless the test is on ALLOWED_SKIPS. No test is ever run again after a failure. On GTK 4.10
and newer the tests on NOT_ON_NEWER_GTK are not run: each is printed as NOT RUN with why.
"""
import argparse
import fcntl
import os
import signal
import subprocess
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (TESTS, WAIT_SCALE, TempHome, TestFailure, TestSkipped, hold_display, stop_leftovers,  # noqa: E402
                           release_display, visible_notula_windows, wait_for)

# The test modules register their tests with @acceptance when imported.
import tests_library  # noqa: E402,F401
import tests_status_light  # noqa: E402,F401
import tests_errors  # noqa: E402,F401
import tests_storage  # noqa: E402,F401
import tests_sync  # noqa: E402,F401
import tests_organize  # noqa: E402,F401
import tests_desktop  # noqa: E402,F401
import tests_hostile  # noqa: E402,F401
import tests_markdown  # noqa: E402,F401
import tests_input  # noqa: E402,F401
import tests_history  # noqa: E402,F401
import tests_stores  # noqa: E402,F401
import tests_translations  # noqa: E402,F401
import tests_names  # noqa: E402,F401
import tests_attachments  # noqa: E402,F401
import tests_spelling  # noqa: E402,F401
import tests_links  # noqa: E402,F401
import tests_desktop_session  # noqa: E402,F401
import tests_import  # noqa: E402,F401
import tests_export  # noqa: E402,F401
import tests_ways_in  # noqa: E402,F401
import tests_move_writers  # noqa: E402,F401
import tests_bulk  # noqa: E402,F401
import tests_templates  # noqa: E402,F401
import tests_quick_note  # noqa: E402,F401


# Tests that may skip under CI, each with the reason it cannot run on a CI machine. Empty:
# every tool the tests need is installed by `make deps-test`, and CI runs as root.
ALLOWED_SKIPS = {}

# Tests not run against GTK 4.10 and newer (Debian 13 has 4.18), each with why: what they do
# cannot be done from outside there yet (docs/PLATFORM.md, "GTK 4.18: accessibility"). Each is
# printed as NOT RUN with its reason and counted, never passed. Issue #45.
NOT_ON_NEWER_GTK = {
    "clicking_a_task_box_toggles_one_byte": "clicks a spot in the text; 4.18's AT-SPI coordinates leave out CSS padding",
    "ctrl_click_opens_web_links_with_the_desktop_browser": "Ctrl+clicks a word in the text (coordinates)",
    "links_complete_open_show_backlinks_and_follow_a_retitled_note": "Ctrl+clicks a link in the text (coordinates)",
    "tags_show_in_the_sidebar_and_filter_and_missing_links_create_notes": "Ctrl+clicks a link in the text (coordinates)",
    "spelling_marks_a_typed_word_and_the_menu_fixes_it": "right-clicks a word in the text (coordinates)",
    "a_fifo_personal_word_list_neither_freezes_nor_loses_the_word": "right-clicks a word in the text (coordinates)",
    "print_with_control_p_to_a_file": "clicks the printer's row of GTK's print dialog (coordinates; its action only scrolls)",
    "gnote_notes_are_offered_at_first_start_and_imported_with_dates_notebooks_and_links":
        "drives Gnote as the peer, and Debian 13's Gnote 48 does not save the notes the test makes",
}


def gtk_version():
    """The GTK the binary runs against here, as (major, minor); (0, 0) when unknown."""
    try:
        found = subprocess.run(["pkg-config", "--modversion", "gtk4"], capture_output=True, text=True).stdout
    except FileNotFoundError:
        return (0, 0)
    parts = [int(part) for part in found.strip().split(".")[:2] if part.isdigit()]
    return tuple(parts) if len(parts) == 2 else (0, 0)

UNDER_CI = os.environ.get("CI") == "true"

# ---------------------------------------------------------------------------------------------

class TestTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise TestTimeout("test took too long")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="path to the notula binary")
    parser.add_argument("-k", dest="select", action="append", default=[],
                        help="run only tests whose name contains this (repeatable)")
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds per test (default 120), times NOTULA_WAIT_SCALE as every wait is (make soak: 3)")
    parser.add_argument("--keep", action="store_true", help="keep each test's temporary home")
    parser.add_argument("--queue", help="a file shared by runners working at once (scripts/acceptance-shards.sh, "
                        "each on a display of its own): each takes the next test not yet taken")
    options = parser.parse_args()

    if not os.path.isfile(options.binary) or not os.access(options.binary, os.X_OK):
        print(f"FAIL setup: {options.binary} is not an executable file")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    if not os.environ.get("DISPLAY"):
        print("FAIL setup: no DISPLAY; run inside scripts/with-display.sh")
        print("0 passed, 1 failed, 0 skipped")
        return 1

    selected = [t for t in TESTS if not options.select or any(s in t.__name__ for s in options.select)]
    if not selected:
        print(f"no test matches {options.select}")
        print("0 passed, 0 failed, 0 skipped")
        return 1
    if gtk_version() >= (4, 10):
        for test in [t for t in selected if t.__name__ in NOT_ON_NEWER_GTK]:
            print(f"NOT RUN {test.__name__} (GTK {'.'.join(map(str, gtk_version()))}): {NOT_ON_NEWER_GTK[test.__name__]}", flush=True)
        selected = [t for t in selected if t.__name__ not in NOT_ON_NEWER_GTK]
    signal.signal(signal.SIGALRM, _on_alarm)
    try:
        display_holder = hold_display()
    except RuntimeError as error:
        print(f"FAIL setup: {error}")
        print("0 passed, 1 failed, 0 skipped")
        return 1
    try:
        passed, failed, skipped = run_tests(selected, options)
    finally:
        release_display(display_holder)
    print(f"{passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return 1 if failed else 0


def claimed(selected, queue):
    """The tests this runner takes: all of them, or with a queue file each next one that no
    other runner took yet (the file holds how many were taken; a lock makes taking one step),
    so runners working at once end together whatever each test's length."""
    if not queue:
        yield from selected
        return
    while True:
        with open(queue, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            handle.seek(0)
            taken = int(handle.read() or 0)
            if taken >= len(selected):
                return
            handle.seek(0)
            handle.truncate()
            handle.write(str(taken + 1))
        yield selected[taken]


def run_tests(selected, options):
    passed = failed = skipped = 0
    for test in claimed(selected, options.queue):
        home = TempHome(prefix=f"notula-{test.__name__}-")
        started = time.monotonic()
        reason = skip_reason = None
        try:
            # A machine `make soak` keeps busy takes longer for the same steps, as every wait allows.
            signal.alarm(int(options.timeout * WAIT_SCALE))
            try:
                test(options.binary, home)
            finally:
                signal.alarm(0)
        except TestSkipped as error:
            skip_reason = str(error)
            if UNDER_CI and test.__name__ not in ALLOWED_SKIPS:
                reason = f"skipped under CI, which must run every test: {skip_reason}"
        except TestFailure as error:
            reason = str(error)
        except Exception as error:  # a broken test or tool is a failure too, with its trace
            reason = f"{type(error).__name__}: {error}"
            trace = traceback.format_exc().strip().splitlines()
            reason += " @ " + " / ".join(line.strip() for line in trace[-4:-1])
        elapsed = time.monotonic() - started
        # A window left over would make the next test talk to this instance.
        try:
            wait_for(lambda: not visible_notula_windows(), 5, "a Notula window outlived its test")
        except TestFailure as error:
            reason = reason or str(error)
        stop_leftovers()
        if reason is None and skip_reason is not None:
            skipped += 1
            print(f"SKIP {test.__name__} ({elapsed:.1f} s): {skip_reason}", flush=True)
        elif reason is None:
            passed += 1
            print(f"PASS {test.__name__} ({elapsed:.1f} s)", flush=True)
        else:
            failed += 1
            print(f"FAIL {test.__name__} ({elapsed:.1f} s): {reason}", flush=True)
        if options.keep:
            print(f"     home kept: {home.root}", flush=True)
        else:
            home.remove()
    return passed, failed, skipped


if __name__ == "__main__":
    sys.exit(main())
