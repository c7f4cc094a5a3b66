#!/usr/bin/python3
"""Acceptance tests: the real Notula binary, driven from outside as a user would
(xdotool for keys, clicks and the window; AT-SPI to read the screen; the files on disk).

Usage (inside the display session):
    scripts/with-display.sh /usr/bin/python3 Tests/acceptance/run.py --binary .build/debug/notula [-k NAME]

Prints one PASS/FAIL/SKIP line per test, then "N passed, M failed, K skipped"; exits 1 if any
failed. A test that cannot run here (not root, a tool missing) is a SKIP with its reason; under
CI (CI=true), where `make deps-test` installed every tool and the run is root, a skip is a
FAIL unless the test is on ALLOWED_SKIPS. No test is ever run again after a failure.
"""
import argparse
import fcntl
import os
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (TESTS, WAIT_SCALE, TempHome, TestFailure, TestSkipped, hold_display,  # noqa: E402
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


# Tests that may skip under CI, each with the reason it cannot run on a CI machine. Empty:
# every tool the tests need is installed by `make deps-test`, and CI runs as root.
ALLOWED_SKIPS = {}

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
