#!/usr/bin/python3
"""Benchmark: the note history (issue #15), with the notula-bench tool's
`history` mode (NoteHistory, an injected clock for the edits).

1. Keeping a version of a 10 KB and a 1 MB note: the caller's (main) thread only hands the
   text over. Target: at most 1 ms on the main thread; compressing and writing happen on the
   history's own queue (its time per version printed too).
2. Disk used by 1,000 edits of a 10 KB note (an edit every 15 s, the note left every 100
   edits, a version at most every 5 minutes while editing).
Usage: /usr/bin/python3 scripts/bench_history.py --helper .build-release/release/notula-bench
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--helper", required=True)
    options = parser.parse_args()
    root = tempfile.mkdtemp(prefix="notula-bench-history-", dir=os.environ.get("BENCH_DIR", "/var/tmp"))
    try:
        output = subprocess.run([os.path.abspath(options.helper), "history", root], check=True, capture_output=True, text=True).stdout
        figures = json.loads(output.strip().splitlines()[-1])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("note history (release build)")
    print(f"{'keeping a version of':<24} {'main thread median':>20} {'max':>10} {'target':>8} {'ratio':>7} {'history queue':>15}")
    for label, name in (("10k", "10 KB note"), ("1m", "1 MB note")):
        median, worst = figures[f"main_median_ms_{label}"], figures[f"main_max_ms_{label}"]
        print(f"{name:<24} {median:>17.4f} ms {worst:>7.4f} ms {'1 ms':>8} {worst / 1.0:>7.3f} {figures[f'queue_ms_per_version_{label}']:>12.2f} ms")
    text, stored, disk, open_ = figures["edits_text_bytes"], figures["edits_stored_bytes"], figures["edits_file_bytes"], figures["edits_open_bytes"]
    print(f"1,000 edits of a 10 KB note: {int(figures['edits_versions'])} versions kept; texts {stored / 1024:.1f} KiB compressed; "
          f"store on disk {disk / 1024:.1f} KiB (= {disk / text:.1f}x the note's {text / 1024:.1f} KiB), "
          f"{open_ / 1024:.1f} KiB while open (with its write-ahead log)")

if __name__ == "__main__":
    main()
