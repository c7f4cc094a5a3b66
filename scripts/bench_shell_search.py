#!/usr/bin/python3
"""The desktop's search (GNOME Shell's search provider, issue #33) at 10,000 and 100,000 notes.

For each size the shared realistic library (bench_app.shared_library) is indexed once by the
app, then the app runs (its window open, as a user's session has it) and this script calls
`org.gnome.Shell.SearchProvider2` over the session bus exactly as GNOME Shell does, through
Gio on one connection (no process per call): for each query GetInitialResultSet, then
GetResultMetas for the first five results (what the Shell shows), timed together from the
call to the reply. Queries: a word in nearly every note (the most matches), two such words
(AND), a title's words, three words, a word in no note, and each query's refinement typed on
(GetSubsearchResultSet), 20 rounds from 3 s after the list is complete. Printed: the first
answer right when the list is complete (the start's own work still under way), then median
and worst ms per answer; the target is 50 ms at 100,000 notes.

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_shell_search.py --binary .build-release/release/notula
"""
import argparse
import shutil
import statistics
import tempfile
import time

import gi
gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

from bench_app import (APP_ID, build_index, fill_library, launch, private_home, stop, wait_line,  # noqa: E402
                       wait_name_released, write_results)

PATH = "/io/github/notula/Notula/SearchProvider"
INTERFACE = "org.gnome.Shell.SearchProvider2"
QUERIES = [["evening"], ["evening", "draft"], ["note", "4321"], ["invoice", "friday", "garden"], ["zzqx"], ["eve"], ["note", "43"]]
ROUNDS = 20
TARGET_MS = 50.0


def call(bus, method, arguments, reply):
    return bus.call_sync(APP_ID, PATH, INTERFACE, method, arguments, GLib.VariantType(reply),
                         Gio.DBusCallFlags.NONE, 10_000, None).unpack()


def answer(bus, terms, previous=None):
    """Ms from the search call to the metas of its first five results; the number of results."""
    started = time.perf_counter()
    if previous is None:
        results = call(bus, "GetInitialResultSet", GLib.Variant("(as)", (terms,)), "(as)")[0]
    else:
        results = call(bus, "GetSubsearchResultSet", GLib.Variant("(asas)", (previous, terms)), "(as)")[0]
    if results:
        call(bus, "GetResultMetas", GLib.Variant("(as)", (results[:5],)), "(aa{sv})")
    return (time.perf_counter() - started) * 1000, results


def measure(binary, count):
    root = tempfile.mkdtemp(prefix=f"notula-bench-shell-{count}-")
    try:
        env, library = private_home(root)
        fill_library(library, count)
        build_index(binary, root)
        wait_name_released()
        process, lines = launch(binary, dict(env, NOTULA_REPORT_SEARCH="1", NOTULA_REPORT_DESKTOP="1"))
        try:
            wait_line(lines, "notula-search-index-ready", 300)
            bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
            first_ms, _ = answer(bus, ["evening"])  # right after the list is complete: the start's work goes on
            time.sleep(3)  # then as a session at rest, as bench_search.py types
            times, found, per_query = [], {}, {}
            for _ in range(ROUNDS):
                for terms in QUERIES:
                    ms, results = answer(bus, terms)
                    times.append(ms)
                    found[" ".join(terms)] = len(results)
                    per_query.setdefault(" ".join(terms), []).append(ms)
                    if results:  # typed on: one more letter of the last term
                        refined = terms[:-1] + [terms[-1] + "e"]
                        ms, _ = answer(bus, refined, previous=results)
                        times.append(ms)
                        per_query.setdefault(" ".join(refined) + " (sub)", []).append(ms)
        finally:
            stop(process)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    times.sort()
    # In the app: from the call reaching its main loop to the reply (search, or metas).
    inside = sorted(float(line.split()[3]) for line in lines if line.startswith("notula-shell-search "))
    return {"inside_median_ms": statistics.median(inside) if inside else None, "inside_worst_ms": inside[-1] if inside else None,
            "notes": count, "first_ms": first_ms, "median_ms": statistics.median(times), "worst_ms": times[-1],
            "answers": len(times), "results": found,
            "worst_per_query_ms": {query: round(max(values), 1) for query, values in per_query.items()},
            "evening_rounds_ms": [round(ms, 1) for ms in per_query.get("evening", [])]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--counts", default="10000,100000")
    args = parser.parse_args()
    print(f"{'notes':>7} {'first ms':>9} {'median ms':>10} {'worst ms':>9} {'answers':>8}   target", flush=True)
    figures = {}
    for count in (int(c) for c in args.counts.split(",")):
        result = measure(args.binary, count)
        figures[str(count)] = result
        target = f"≤ {TARGET_MS:g} ms" if count >= 100_000 else "(no target)"
        print(f"{count:>7} {result['first_ms']:>9.1f} {result['median_ms']:>10.1f} {result['worst_ms']:>9.1f} {result['answers']:>8}   "
              f"{target}  results per query: {result['results']}", flush=True)
        if result["inside_median_ms"] is not None:
            print(f"{'':>7} inside the app, per call: median {result['inside_median_ms']:.1f} ms, worst {result['inside_worst_ms']:.1f} ms",
                  flush=True)
        print(f"{'':>7} worst ms per query: {result['worst_per_query_ms']}", flush=True)
        print(f"{'':>7} 'evening' round by round: {result['evening_rounds_ms']}", flush=True)
    write_results("shell_search", figures)


if __name__ == "__main__":
    main()
