#!/usr/bin/python3
"""Search benchmark: the cost of each keystroke in the search field with 10,000 notes.

The app runs with NOTULA_REPORT_SEARCH=1 (it prints `notula-search <t> <ms> <matches>` for every
search: matching every note's text plus showing the result in the list),
NOTULA_REPORT_STALLS=1 (main-loop gaps over 4 ms, which include drawing the new list) and
NOTULA_BENCH_QUERY=<query>: 3 s after the index is ready, the app searches for each prefix of
the query in turn, 200 ms apart, as typing would, then for nothing (Escape). (Typing with xdotool
was coalesced into one search by GTK's 150 ms search delay: it measured one keystroke, not each.)
Target: at most 16 ms per keystroke. Cairo renderer (GL under Xvfb is a software rasterizer).

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_search.py --binary .build/release/notula
"""
import argparse
import os
import random
import shutil
import sys
import tempfile
import time

from bench_app import launch, private_home, stop, window_id

TARGET_MS = 16.0
QUERIES = ["evening draft", "cafe"]
WORDS = ("alpha beta gamma delta notes sync write words paragraph evening draft river market garden letter "
         "Café Brötchen Zürich crème meeting budget travel passport recipe tomato basil").split()


def make_library(folder, count, seed=11):
    rng = random.Random(seed)
    for index in range(count):
        lines = [f"Note {index} " + " ".join(rng.choice(WORDS) for _ in range(3))]
        for _ in range(rng.randint(3, 30)):
            lines.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 14))))
        with open(os.path.join(folder, f"note-{index:05d}.md"), "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")




def run(binary, count, query):
    root = tempfile.mkdtemp(prefix="notula-search-")
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1", NOTULA_REPORT_STALLS="1",
                                    NOTULA_BENCH_QUERY=query)
        make_library(library, count)
        process, lines = launch(binary, env)
        try:
            window_id()
            deadline = time.monotonic() + 60
            while not any(line.startswith("notula-search-index-ready") for line in lines):
                if time.monotonic() > deadline:
                    raise RuntimeError("the search index was not ready within 60 s")
                time.sleep(0.05)
            ready = next(line for line in lines if line.startswith("notula-search-index-ready")).split()
            start = float(ready[1]) + 3  # stalls from the first search on
            expected = len(query) + 1  # every prefix, then cleared
            deadline = time.monotonic() + 30
            while sum(1 for line in lines if line.startswith("notula-search ")) < expected:
                if time.monotonic() > deadline:
                    raise RuntimeError("the app did not run every search")
                time.sleep(0.05)
            time.sleep(0.3)
            end = time.monotonic()
        finally:
            stop(process)
        searches, stalls = [], []
        for line in lines:
            parts = line.split()
            if len(parts) == 4 and parts[0] == "notula-search":
                searches.append((float(parts[2]), int(parts[3])))
            elif len(parts) == 3 and parts[0] == "notula-stall" and start <= float(parts[1]) <= end:
                stalls.append(float(parts[2]))
        return searches, stalls, int(ready[2])
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--notes", type=int, default=10_000)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    print(f"search benchmark: {options.notes} notes, Cairo, one search per typed character, 200 ms apart")
    print(f"{'query':16} {'searches':>8} {'median ms':>9} {'max ms':>7} {'ratio to 16 ms':>14} {'longest stall ms':>16} {'matches (last)':>14}")
    for query in QUERIES:
        searches, stalls, indexed = run(binary, options.notes, query)
        times = sorted(ms for ms, _ in searches)
        if not times:
            print(f"{query:16} no searches reported (indexed {indexed})")
            continue
        median = times[len(times) // 2]
        print(f"{query:16} {len(times):>8} {median:>9.2f} {times[-1]:>7.2f} {times[-1] / TARGET_MS:>14.2f} "
              f"{max(stalls, default=0.0):>16.1f} {searches[-2][1]:>14}", flush=True)
    print(f"target: at most {TARGET_MS:g} ms per keystroke (search + list update); the stall column adds drawing.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
