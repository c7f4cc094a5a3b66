#!/usr/bin/python3
"""Export benchmark: the main loop while a long note becomes a PDF (issue #46: no stall over a
frame). The app runs with NOTULA_REPORT_STALLS, NOTULA_REPORT_EXPORT and
NOTULA_BENCH_EXPORT_PDF=<path>: 3 s after its window is made it exports the open note (the only
one) as a PDF to that path without a chooser (ExportReport.runBenchExport), printing
`notula-export-started <t>` and then `notula-export pdf <pages> <path>`. Printing lays the pages
out with the same code (NotePrinter), so the export's figures are Print's too, up to the dialog.

Printed per note size (plain paragraphs and Markdown, bench_typing's generators): the time to
the PDF written, its pages, and the longest main-loop stall in between (plus how many were over
16 ms). Cairo renderer.

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_export.py --binary .build-release/release/notula
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

from bench_app import home_env, launch, private_home, stop, wait_line, wait_name_released, write_results
from bench_stacks import print_stack, stall_stack
from bench_typing import make_markdown_note, make_note

TARGET_MS = 16.0
SIZES = [(300 * 1024, "300 KB", False), (300 * 1024, "300 KB md", True)]


def run_once(binary, size, markdown):
    """(seconds to the PDF, pages, longest stall ms, stalls over the target, its named stack)."""
    root = tempfile.mkdtemp(prefix="notula-bench-export-")
    try:
        _, library = private_home(root)
        (make_markdown_note if markdown else make_note)(os.path.join(library, "long.md"), size)
        pdf = os.path.join(root, "long.pdf")
        env = home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_STALLS="1", NOTULA_REPORT_EXPORT="1",
                       NOTULA_BENCH_EXPORT_PDF=pdf)
        wait_name_released()
        process, lines = launch(binary, env)
        try:
            started = float(wait_line(lines, "notula-export-started", 60)[1])
            done = wait_line(lines, "notula-export ", 300)
            finished = time.monotonic()
        finally:
            stop(process)
        if done[1] != "pdf" or not os.path.getsize(pdf):
            raise RuntimeError(f"the export did not write {pdf}: {done}")
        stalls = [(float(parts[2]), float(parts[1])) for parts in (line.split() for line in lines)
                  if len(parts) == 3 and parts[0] == "notula-stall" and started <= float(parts[1]) <= finished]
        longest, at = max(stalls, default=(0.0, 0.0))
        stack = stall_stack(lines, at, longest) if longest > TARGET_MS else None
        return finished - started, int(done[2]), longest, sum(1 for ms, _ in stalls if ms > TARGET_MS), stack
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    print("a long note exported as a PDF: the main loop meanwhile; Cairo")
    print(f"{'note':>9}  {'to the PDF s':>12}  {'pages':>5}  {'longest stall ms':>16}  {'stalls > 16 ms':>14}   target")
    results = {}
    for size, label, markdown in SIZES:
        seconds, pages, longest, over, stack = run_once(binary, size, markdown)
        results[label] = {"seconds": seconds, "pages": pages, "longest_stall_ms": longest, "stalls_over_target": over}
        print(f"{label:>9}  {seconds:>12.2f}  {pages:>5}  {longest:>16.1f}  {over:>14}   longest stall ≤ {TARGET_MS:g} ms", flush=True)
        if stack:
            print("    the main thread was in:")
            print_stack(stack, indent="      ")
    write_results("export", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
