#!/usr/bin/python3
"""Runs one step of an acceptance test as the user this process is (started by
`notula_driver.run_as_user` through setpriv, inside that user's own D-Bus session and AT-SPI
bus): `as_user.py MODULE FUNCTION BINARY HOME_ROOT` calls MODULE.FUNCTION(BINARY, home).
Prints PASS, or FAIL and why, as its last line; exits 0 or 1."""
import importlib
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from notula_driver import TempHome, TestFailure  # noqa: E402


def main():
    module, function, binary, root = sys.argv[1:5]
    try:
        getattr(importlib.import_module(module), function)(binary, TempHome.at(root))
    except TestFailure as error:
        print(f"FAIL {error}", flush=True)
        return 1
    except Exception as error:  # a broken step is a failure too, with its trace
        trace = " / ".join(line.strip() for line in traceback.format_exc().strip().splitlines()[-4:-1])
        print(f"FAIL {type(error).__name__}: {error} @ {trace}", flush=True)
        return 1
    print("PASS", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
