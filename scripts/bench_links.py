#!/usr/bin/python3
"""Benchmark: links and tags in the library index (issue #32), with the notula-bench
tool's `links` mode: a library of 10,000 and of 100,000 notes, each linking up to
three others by [[title]] and holding up to two of 300 tags, indexed as the app does; then
the lookups as the window asks them: `[[` completion (target 16 ms, also for a prefix no
title has: the titles' keys in memory, read after each change in the background — its time is
printed too), a note's backlinks and a tag's notes (5 ms each), the sidebar's tag counts (off
the main thread; no target).
Usage: /usr/bin/python3 scripts/bench_links.py --helper .build-release/release/notula-bench [--counts 10000,100000]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_app import write_results  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--helper", required=True)
    parser.add_argument("--counts", default="10000,100000")
    options = parser.parse_args()
    print("links and tags in the library index (release build)")
    print(f"{'notes':>8} {'lookup':<30} {'median':>10} {'worst':>10} {'target':>8} {'ratio':>7}")
    results = {}
    for count in [int(c) for c in options.counts.split(",")]:
        root = tempfile.mkdtemp(prefix="notula-bench-links-", dir=os.environ.get("BENCH_DIR", "/var/tmp"))
        try:
            output = subprocess.run([os.path.abspath(options.helper), "links", root, str(count)],
                                    check=True, capture_output=True, text=True).stdout
            figures = json.loads(output.strip().splitlines()[-1])
        finally:
            shutil.rmtree(root, ignore_errors=True)
        results[count] = figures
        for label, key, target in (("[[ completion", "completion", 16), ("[[ completion, no title", "completion_none", 16),
                                   ("backlinks of a note", "backlinks", 5), ("a tag's notes", "tag_notes", 5)):
            median, worst = figures[f"{key}_median_ms"], figures[f"{key}_worst_ms"]
            print(f"{count:>8} {label:<30} {median:>7.2f} ms {worst:>7.2f} ms {target:>5} ms {worst / target:>7.3f}")
        print(f"{count:>8} {'tag counts (sidebar)':<30} {figures['tag_counts_ms']:>7.2f} ms; titles' keys read in "
              f"{figures['title_keys_ms']:.1f} ms (after a change, off the main thread); indexed in {figures['index_s']:.1f} s")
    write_results("links", {str(count): figures for count, figures in results.items()})


if __name__ == "__main__":
    main()
