#!/usr/bin/python3
"""Library index benchmark (issue #13): start, memory and search with 10,000 and 100,000 notes.

For each library size a library of realistic notes (~2.3 KB each: 100,000 notes ≈ 230 MB) is
generated once. The app runs with NOTULA_REPORT_MAPPED (window mapped, first rows shown) and
NOTULA_REPORT_SEARCH (each search's time; "index ready" = the list is complete: reconciled
with the folder). Measured, per renderer:

  cold    no index yet (cache folder empty), the page cache dropped first where root allows
          (printed): mapped, first rows, list complete (`notula-search-index-ready`), all texts
          indexed (`notula-search-indexed`: searchable), peak RSS (VmHWM once all is indexed)
  warm    index from the previous run: mapped, first rows, list complete, RSS 2 s after the
          list is complete (at rest), then a query typed a character at a time (from 3 s after
          the list is complete), 200 ms apart
          (NOTULA_BENCH_QUERY): median and worst ms per keystroke (search + list update; n =
          answers shown; no edits while typing: the best case, see bench_search.py for the honest one) and the
          longest main-loop stall meanwhile, and the RSS once the query is answered ("searching"). Two queries: words every generated note contains
          (each keystroke matches nearly the whole library) and one note's title
  changed 1,000 files added, changed, deleted or renamed while closed: time to list complete

RSS growth is against an empty library. Targets from the issue are printed beside the figures.
Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_index.py --binary .build-release/release/notula
"""
import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

from bench_app import cold_label, drop_caches, launch, make_library, private_home, stop_process, wait_name_released

MB = 1024 * 1024
# Typed one character at a time: words every generated note contains (the worst case: each
# keystroke matches nearly the whole library), then a note's own title (a narrowing query).
QUERIES = ["evening draft", "note 4321"]
TARGETS = {  # notes: (mapped s, list complete s, RSS growth MB, median ms, worst ms)
    10_000: (0.25, 0.4, 20, 8, 16),
    100_000: (0.5, 1.0, 60, 16, 33),
}
COLD_TARGETS = {  # notes: (list complete s, all indexed s, peak growth MB) — issue #29
    10_000: (1.0, 3.0, None),
    100_000: (8.0, 40.0, 80),
}


def rss(pid, key="VmRSS"):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def first(lines, prefix, timeout, started):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in list(lines):
            if line.startswith(prefix):
                return float(line.split()[1]) - started
        time.sleep(0.01)
    raise RuntimeError(f"no '{prefix}' within {timeout} s")


def run(binary, root, renderer, query=None, timeout=600, indexed_line=True):
    """One launch; returns the figures. `indexed_line`: the binary prints `notula-search-indexed`
    (before issue #29 the list was complete when every text was in)."""
    wait_name_released()
    extra = {"NOTULA_BENCH_QUERY": query, "NOTULA_REPORT_STALLS": "1"} if query else {}
    env = dict(os.environ, HOME=root, XDG_DATA_HOME=f"{root}/data", XDG_STATE_HOME=f"{root}/state",
               XDG_CONFIG_HOME=f"{root}/config", XDG_CACHE_HOME=f"{root}/cache", GSK_RENDERER=renderer,
               NOTULA_REPORT_MAPPED="1", NOTULA_REPORT_SEARCH="1", **extra)
    started = time.monotonic()
    process, lines = launch(binary, env)
    try:
        figures = {"mapped": first(lines, "notula-window-mapped", 60, started)}
        figures["complete"] = first(lines, "notula-search-index-ready", timeout, started)
        figures["indexed"] = first(lines, "notula-search-indexed", timeout, started) if indexed_line else figures["complete"]
        try:
            figures["rows"] = first(lines, "notula-list-shown", 1, started)
        except RuntimeError:
            figures["rows"] = float("nan")  # an empty library
        figures["peak"] = rss(process.pid, "VmHWM")
        time.sleep(2)
        figures["rss"] = rss(process.pid)
        if query:
            expected = len(query) + 1
            deadline = time.monotonic() + 60
            while sum(1 for line in lines if line.startswith("notula-search ")) < expected and time.monotonic() < deadline:
                time.sleep(0.05)
            begin = started + figures["complete"]
            time.sleep(0.3)
            end = time.monotonic()
            figures["search"] = sorted(float(line.split()[2]) for line in lines if line.startswith("notula-search "))
            figures["stall"] = max((float(line.split()[2]) for line in lines if line.startswith("notula-stall ")
                                    and begin + 3 <= float(line.split()[1]) <= end), default=0.0)
            figures["searching"] = rss(process.pid)
        return figures
    finally:
        stop_process(process)


def change_while_closed(library, count, rng):
    names = sorted(os.listdir(library))
    chosen = rng.sample(names, 750)
    for name in chosen[:250]:
        os.unlink(os.path.join(library, name))
    for name in chosen[250:500]:
        with open(os.path.join(library, name), "a") as handle:
            handle.write("changed while Notula was closed\n")
    for index, name in enumerate(chosen[500:750]):
        os.rename(os.path.join(library, name), os.path.join(library, f"renamed-{index}-{name}"))
    for index in range(250):
        with open(os.path.join(library, f"added-{index}.md"), "w") as handle:
            handle.write(f"Added {index}\nwritten while Notula was closed\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--counts", default="10000,100000")
    parser.add_argument("--renderers", default="cairo,gl")
    parser.add_argument("--states", default="cold,warm,changed", help="which runs (cold: the first start)")
    parser.add_argument("--no-indexed-line", action="store_true",
                        help="the binary predates `notula-search-indexed` (its list is complete when all is indexed)")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    base = tempfile.mkdtemp(prefix="notula-index-bench-")
    try:
        empty = {}
        for renderer in options.renderers.split(","):
            root = f"{base}/empty-{renderer}"
            private_home(root)
            empty[renderer] = run(binary, root, renderer, indexed_line=not options.no_indexed_line)["rss"]
        print(f"empty library RSS: " + ", ".join(f"{r} {v / MB:.1f} MB" for r, v in empty.items()))
        print(f"{'notes':>7} {'renderer':8} {'state':8} {'mapped s':>8} {'rows s':>7} {'complete s':>10} {'indexed s':>9} {'RSS +MB':>8} "
              f"{'peak +MB':>8} {'search median ms (n)':>20} {'worst ms':>8} {'stall ms':>8} {'searching +MB':>13}")
        for count in (int(value) for value in options.counts.split(",")):
            for renderer in options.renderers.split(","):
                root = f"{base}/{count}-{renderer}"
                _, library = private_home(root)
                size = make_library(library, count)
                # Files changed in the last 2 s are indexed as "read again next time" (their
                # times cannot be trusted yet): a library written just now would make the first
                # warm start re-read its newest files.
                time.sleep(2.1)
                states = options.states.split(",")
                for state, query in (("cold", None), ("warm", QUERIES[0]), ("warm", QUERIES[1]), ("changed", None)):
                    if state not in states:
                        continue
                    if state == "changed":
                        change_while_closed(library, count, random.Random(count))
                    if state == "cold":
                        shutil.rmtree(f"{root}/cache", ignore_errors=True)
                    dropped = drop_caches() if state == "cold" else None
                    figures = run(binary, root, renderer, query=query, indexed_line=not options.no_indexed_line)
                    if dropped is not None:
                        print(f"        (cold: {cold_label(dropped)})")
                    searches = figures.get("search", [])
                    median = f"{statistics.median(searches):.1f} ({len(searches)})" if searches else "-"
                    worst = f"{searches[-1]:.1f}" if searches else "-"
                    stall = f"{figures['stall']:.1f}" if "stall" in figures else "-"
                    searching = f"{(figures['searching'] - empty[renderer]) / MB:.1f}" if "searching" in figures else "-"
                    print(f"{count:>7} {renderer:8} {state:8} {figures['mapped']:>8.3f} {figures['rows']:>7.3f} "
                          f"{figures['complete']:>10.3f} {figures['indexed']:>9.3f} {(figures['rss'] - empty[renderer]) / MB:>8.1f} "
                          f"{(figures['peak'] - empty[renderer]) / MB:>8.1f} {median:>20} {worst:>8} {stall:>8} {searching:>13}", flush=True)
                    if state == "cold" and count in COLD_TARGETS:
                        complete, indexed, peak = COLD_TARGETS[count]
                        print(f"        targets (cold, {count} notes): list complete ≤ {complete} s, all indexed ≤ {indexed} s"
                              + (f", peak ≤ +{peak} MB" if peak else ""), flush=True)
                shutil.rmtree(root, ignore_errors=True)
                print(f"        ({count} notes, {size / MB:.0f} MB of text)")
        print("targets (warm): " + "; ".join(f"{count} notes: mapped ≤ {t[0]} s, complete ≤ {t[1]} s, RSS ≤ +{t[2]} MB, "
                                              f"search median ≤ {t[3]} ms, worst ≤ {t[4]} ms" for count, t in TARGETS.items()))
        print("targets: 100,000 cold: mapped ≤ 0.5 s, first rows ≤ 1 s, peak ≤ +80 MB; 1,000 changed while closed: ≤ 2 s")
        print("targets (cold, issue #29): " + "; ".join(f"{count} notes: list complete ≤ {t[0]} s, all indexed ≤ {t[1]} s"
                                                       + (f", peak ≤ +{t[2]} MB" if t[2] else "") for count, t in COLD_TARGETS.items()))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
