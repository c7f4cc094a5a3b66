#!/usr/bin/python3
"""Prints one closing line, "N passed, N failed, N skipped", for the XUnit files `swift test
--parallel --xunit-output` wrote (a parallel run prints no "Executed N tests" line of its own),
and the failed tests' names. Exits 1 when a file is missing or a test failed.
Usage: scripts/xunit-summary.py FILE.xml…"""
import sys
import xml.etree.ElementTree as ElementTree

passed = failed = skipped = 0
status = 0
for path in sys.argv[1:]:
    try:
        cases = ElementTree.parse(path).getroot().iter("testcase")
    except (OSError, ElementTree.ParseError) as error:
        print(f"no results in {path}: {error}")
        status = 1
        continue
    for case in cases:
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
            print(f"FAILED {case.get('classname')}.{case.get('name')}")
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed or status else 0)
