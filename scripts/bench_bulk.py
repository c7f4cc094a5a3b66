#!/usr/bin/python3
"""Many notes at once (issue #47): every note selected (as Ctrl+A) and moved into a notebook,
at 10,000 and 100,000 notes. The app runs with NOTULA_REPORT_STALLS, NOTULA_REPORT_BULK and
NOTULA_BENCH_BULK_MOVE=Moved: a second after its index is complete (a warm start: the list
and the texts), as a user looks at the list first, it selects every note and moves them
(BulkReport.runBenchMove), printing `notula-bulk-started <t>` and, once the
files moved and the index read them, `notula-bulk-done action=move … ms=N`.

Printed per size: the time to done, how many moved, and the longest main-loop stall in
between (and how many were over 16 ms), with what the main thread was doing then. Cairo.

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_bulk.py --binary .build-release/release/notula
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

from bench_app import build_index, fill_library, home_env, launch, private_home, stop, wait_line, wait_name_released, write_results
from bench_stacks import print_stack, stall_stack

TARGET_MS = 16.0


def run_once(binary, count):
    """(seconds to done, notes moved, longest stall ms, stalls over the target, its stack)."""
    root = tempfile.mkdtemp(prefix="notula-bench-bulk-")
    try:
        _, library = private_home(root)
        fill_library(library, count)
        os.makedirs(os.path.join(library, "Moved"))
        build_index(binary, root)
        env = home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_STALLS="1", NOTULA_REPORT_BULK="1", NOTULA_BENCH_BULK_MOVE="Moved")
        wait_name_released()
        process, lines = launch(binary, env)
        try:
            started = float(wait_line(lines, "notula-bulk-started", 120)[1])
            done = dict(field.split("=", 1) for field in wait_line(lines, "notula-bulk-done action=move", 900)[1:])
            time.sleep(0.5)  # the list's change after the index read the notes, inside the window below
            finished = started + int(done["ms"]) / 1000 + 0.5
        finally:
            stop(process)
        moved = len(os.listdir(os.path.join(library, "Moved")))
        if moved != count or done["failed"] != "0":
            raise RuntimeError(f"{moved} of {count} notes moved: {done}")
        stalls = [(float(parts[2]), float(parts[1])) for parts in (line.split() for line in lines)
                  if len(parts) == 3 and parts[0] == "notula-stall" and started <= float(parts[1]) <= finished]
        if os.environ.get("NOTULA_BENCH_VERBOSE"):
            print("    ", [line for line in lines if line.startswith("notula-bulk")])
            print("    stalls over the target (s after the start, ms):",
                  [(round(t - started, 2), ms) for ms, t in sorted(stalls, key=lambda s: s[1]) if ms > TARGET_MS])
        longest, at = max(stalls, default=(0.0, 0.0))
        stack = stall_stack(lines, at, longest) if longest > TARGET_MS else None
        return int(done["ms"]) / 1000, moved, longest, sum(1 for ms, _ in stalls if ms > TARGET_MS), stack
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--counts", default="10000,100000")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    print("every note selected and moved into a notebook (warm start; Cairo)")
    print(f"{'notes':>7}  {'to done s':>9}  {'moved':>7}  {'longest stall ms':>16}  {'stalls > 16 ms':>14}   target")
    results = {}
    for count in (int(c) for c in options.counts.split(",")):
        seconds, moved, longest, over, stack = run_once(binary, count)
        results[str(count)] = {"seconds": seconds, "moved": moved, "longest_stall_ms": longest, "stalls_over_target": over}
        print(f"{count:>7}  {seconds:>9.2f}  {moved:>7}  {longest:>16.1f}  {over:>14}   longest stall ≤ {TARGET_MS:g} ms", flush=True)
        if stack:
            print("    the main thread was in:")
            print_stack(stack, indent="      ")
    write_results("bulk", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
