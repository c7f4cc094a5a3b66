#!/usr/bin/python3
"""The heap at rest (issue #46): what Notula still holds once a warm start's index is complete,
with an empty library and with COUNT notes, and where it was allocated.

Runs the release binary under heaptrack (Debian's `heaptrack` package), Cairo, stops it
3 s after `notula-search-indexed` (SIGTERM), and reads what was still allocated then with
heaptrack_print. Prints the live and peak heap of each run, the VmRSS heaptrack adds to, and
the largest allocation sites of the larger run, each named by its first frames in Notula's
own code (or the library it came from).

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_heap.py --binary .build-release/release/notula --count 100000
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from bench_app import build_index, fill_library, home_env, private_home, rss_mb, wait_line, wait_name_released

SIZE = r"([0-9.]+)([KMG]?)"


def megabytes(number, unit):
    return float(number) * {"": 1 / 1024 / 1024, "K": 1 / 1024, "M": 1, "G": 1024}[unit]


def profile(binary, count, output):
    """Runs the app under heaptrack at rest; returns (VmRSS MB, heaptrack's data file)."""
    root = tempfile.mkdtemp(prefix="notula-bench-heap-")
    try:
        _, library = private_home(root)
        if count:
            fill_library(library, count)
            build_index(binary, root)
        wait_name_released()
        process = subprocess.Popen(["heaptrack", "-o", output, binary], env=home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1"),
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines = []
        threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True).start()
        wait_line(lines, "notula-search-indexed" if count else "notula-search-index-ready", 600)
        time.sleep(3)
        app = int(subprocess.run(["pgrep", "-f", "-x", binary], capture_output=True, text=True, check=True).stdout.split()[-1])
        rss = rss_mb(app)
        # Killed, so nothing is freed on the way out: what heaptrack saw still allocated is the heap at rest.
        os.kill(app, signal.SIGKILL)
        process.wait(300)
        return rss, output + ".zst"
    finally:
        shutil.rmtree(root, ignore_errors=True)


def leaks(data, sites):
    """heaptrack_print's report of what was still allocated at the end."""
    return subprocess.run(["heaptrack_print", "-f", data, "--print-leaks", "1", "--print-peaks", "0",
                           "--print-allocators", "0", "--print-temporary", "0", "--print-histogram", "/dev/null",
                           "-n", str(sites), "-s", str(sites)], capture_output=True, text=True).stdout


def totals(report):
    found = {key: re.search(rf"{key}: {SIZE}", report) for key in ("peak heap memory consumption", "total memory leaked")}
    return {key: megabytes(*match.groups()) if match else 0.0 for key, match in found.items()}


def sites(report, count):
    """The largest allocation sites (heaptrack's top level), each with its largest callers
    named by their first frames in Notula's code, or the library they are in."""
    def name(lines):
        ours = [line for line in lines if "NotesCore" in line or "NotesApp" in line or line.startswith("$s3Gtk")]
        libraries = [line[3:].rsplit("/", 1)[-1] for line in lines if line.startswith("in /") and "notula" not in line]
        return " <- ".join(frame[:80] for frame in ours[:2]) or (libraries[0] if libraries else lines[0] if lines else "?")

    # A site is "N leaked over C calls from" and its function on the next line; its callers
    # follow it, each "N leaked over C calls from:" and its frames, indented.
    found = []
    for entry in re.split(r"\n(?=[0-9.]+[KMG]? leaked over)", report.split("MEMORY LEAKS", 1)[-1]):
        lines = [line.strip() for line in entry.strip().splitlines()]
        head = re.match(rf"{SIZE} leaked over (\d+) calls from(:?)", lines[0]) if lines else None
        if not head:
            continue
        site = (megabytes(head.group(1), head.group(2)), int(head.group(3)), name(lines[1:]))
        if head.group(4) != ":":
            found.append(site + ([],))
        elif found:
            found[-1][3].append(site)
    return sorted(found, reverse=True)[:count]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--sites", type=int, default=20)
    options = parser.parse_args()
    if not shutil.which("heaptrack"):
        print("bench_heap: heaptrack is not installed (apt-get install heaptrack)", file=sys.stderr)
        return 1
    binary = os.path.abspath(options.binary)
    folder = tempfile.mkdtemp(prefix="notula-heaptrack-")
    try:
        reports = {}
        for count in (0, options.count):
            rss, data = profile(binary, count, os.path.join(folder, f"notula-{count}"))
            reports[count] = leaks(data, options.sites)
            figures = totals(reports[count])
            print(f"{count:>7} notes: live heap at rest {figures['total memory leaked']:.1f} MB, "
                  f"peak heap {figures['peak heap memory consumption']:.1f} MB, VmRSS {rss:.0f} MB (with heaptrack)", flush=True)
        print(f"largest allocation sites at rest, {options.count} notes (MB, calls, where):")
        for size, calls, where, callers in sites(reports[options.count], options.sites):
            print(f"  {size:7.2f}  {calls:>8}  {where}")
            for size, calls, where in sorted(callers, reverse=True)[:4]:
                print(f"      {size:7.2f}  {calls:>8}  {where}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
