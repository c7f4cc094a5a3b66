#!/usr/bin/python3
"""Acceptance tests: the real Notula binary, driven from outside as a user would
(xdotool for keys, clicks and the window; AT-SPI to read the screen; the files on disk).

Usage (inside the display session):
    scripts/with-display.sh /usr/bin/python3 Tests/acceptance/run.py --binary .build/debug/notula [-k NAME]

Prints one PASS/FAIL line per test, then "N passed, M failed"; exits 1 if any failed.
"""
import argparse
import os
import signal
import sys
import time
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import (TESTS, TempHome, TestFailure, hold_display, release_display,  # noqa: E402
                           visible_notula_windows, wait_for)

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
    parser.add_argument("--timeout", type=int, default=120, help="seconds per test (default 120)")
    parser.add_argument("--keep", action="store_true", help="keep each test's temporary home")
    options = parser.parse_args()

    if not os.path.isfile(options.binary) or not os.access(options.binary, os.X_OK):
        print(f"FAIL setup: {options.binary} is not an executable file")
        print("0 passed, 1 failed")
        return 1
    if not os.environ.get("DISPLAY"):
        print("FAIL setup: no DISPLAY; run inside scripts/with-display.sh")
        print("0 passed, 1 failed")
        return 1

    selected = [t for t in TESTS if not options.select or any(s in t.__name__ for s in options.select)]
    if not selected:
        print(f"no test matches {options.select}")
        print("0 passed, 0 failed")
        return 1
    signal.signal(signal.SIGALRM, _on_alarm)
    try:
        display_holder = hold_display()
    except RuntimeError as error:
        print(f"FAIL setup: {error}")
        print("0 passed, 1 failed")
        return 1
    try:
        passed, failed = run_tests(selected, options)
    finally:
        release_display(display_holder)
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


def run_tests(selected, options):
    passed = failed = 0
    for test in selected:
        home = TempHome(prefix=f"notula-{test.__name__}-")
        started = time.monotonic()
        reason = None
        try:
            signal.alarm(options.timeout)
            try:
                test(options.binary, home)
            finally:
                signal.alarm(0)
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
        if reason is None:
            passed += 1
            print(f"PASS {test.__name__} ({elapsed:.1f} s)", flush=True)
        else:
            failed += 1
            print(f"FAIL {test.__name__} ({elapsed:.1f} s): {reason}", flush=True)
        if options.keep:
            print(f"     home kept: {home.root}", flush=True)
        else:
            home.remove()
    return passed, failed


if __name__ == "__main__":
    sys.exit(main())
