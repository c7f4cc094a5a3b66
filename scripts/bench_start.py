#!/usr/bin/python3
"""The first start, the warm start, a note dropped during indexing and search per keystroke,
at 10,000 and 100,000 notes, each beside its target (issue #29), with the peers' first start.

One shared library per size (bench_app.shared_library: realistic ~2.3 KB notes) and one home
per size, used in turn for:

  empty    an empty library: the RSS at rest, the base of "peak +MB"
  first    a cold first start — no index, the page cache dropped where root allows — with
           NOTULA_REPORT_MAPPED/SEARCH/LISTED: window mapped, list complete
           (notula-search-index-ready), all indexed (notula-search-indexed, where the build
           reports it; otherwise the same as list complete), peak RSS (VmHWM) over the empty
           library's. 0.5 s after the window maps, a new note is dropped into the folder (as a
           sync client would, renamed in): the time until the list has it (notula-listed).
  warm     the next start (index and page cache warm): mapped, list complete
  search   bench_search.measure: a query typed while another program edits a note every
           second, each keystroke up to the frame painted after the list changed
  peers    (10,000 notes) Gnote and tomboy-ng, and Notula, on the same notes measured from
           outside (bench_peers.py)

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_start.py --binary .build-release/release/notula
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

import bench_peers
import bench_search
from bench_app import (cold_label, drop_caches, fill_library, home_env, launch, private_home, reports, shared_library,
                       stop, wait_line, wait_name_released, wait_until_notes_settle, write_results)

MB = 1024 * 1024
DROPPED = "dropped-during-indexing.md"
# notes: mapped s, list complete s (first start), all indexed s, peak +MB, warm mapped s, warm complete s
TARGETS = {
    10_000: {"mapped": 0.25, "complete": 1.0, "indexed": 3.0, "peak": None, "warm_mapped": 0.25, "warm_complete": 0.4},
    100_000: {"mapped": 0.5, "complete": 8.0, "indexed": 30.0, "peak": 80.0, "warm_mapped": 0.5, "warm_complete": 1.0},
}
LISTED_TARGET = 1.0


def status(pid, key):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def empty_rss(binary, base):
    root = f"{base}/empty"
    private_home(root)
    wait_name_released()
    process, lines = launch(binary, home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1"))
    try:
        wait_line(lines, "notula-search-index-ready", 60)
        time.sleep(2)
        return status(process.pid, "VmRSS")
    finally:
        stop(process)


def first_start(binary, root, library, timeout):
    wait_name_released()
    dropped = drop_caches()
    env = home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_MAPPED="1", NOTULA_REPORT_SEARCH="1",
                   NOTULA_REPORT_LISTED=DROPPED)
    separate = reports(binary, "notula-search-indexed")
    started = time.monotonic()
    process, lines = launch(binary, env)
    try:
        mapped = float(wait_line(lines, "notula-window-mapped", 60)[1])
        time.sleep(max(0.0, mapped + 0.5 - time.monotonic()))
        staging = f"{root}/{DROPPED}"
        with open(staging, "w", encoding="utf-8") as handle:
            handle.write("Dropped during indexing\nA note a sync client brought while the index was being built.\n")
        os.rename(staging, f"{library}/{DROPPED}")
        dropped_at = time.monotonic()
        complete = float(wait_line(lines, "notula-search-index-ready", timeout)[1])
        indexed = float(wait_line(lines, "notula-search-indexed", timeout)[1]) if separate else complete
        try:
            listed = float(wait_line(lines, "notula-listed", max(0.0, complete + 30 - time.monotonic()))[1]) - dropped_at
        except RuntimeError:
            listed = None  # not listed within 30 s of the list being complete
        return {"cache_dropped": dropped, "mapped": mapped - started, "complete": complete - started,
                "indexed": indexed - started, "indexed_reported": separate, "listed": listed,
                "listed_before_complete": listed is not None and dropped_at + listed < complete,
                "peak": status(process.pid, "VmHWM")}
    finally:
        stop(process)


def warm_start(binary, root):
    wait_name_released()
    started = time.monotonic()
    process, lines = launch(binary, home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_MAPPED="1", NOTULA_REPORT_SEARCH="1"))
    try:
        mapped = float(wait_line(lines, "notula-window-mapped", 60)[1])
        complete = float(wait_line(lines, "notula-search-index-ready", 120)[1])
        time.sleep(2)
        return {"mapped": mapped - started, "complete": complete - started, "rss": status(process.pid, "VmRSS")}
    finally:
        stop(process)


def verdict(value, target, unit="s"):
    if value is None:
        return "-"
    text = f"{value:.2f} {unit}" if unit == "s" else f"{value:.0f} {unit}"
    if target is None:
        return text
    return f"{text} (≤ {target:g}{'' if unit == 's' else ' '}{unit}: {'meets' if value <= target else 'MISSES'})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--counts", default="10000,100000")
    parser.add_argument("--peers-at", default="10000", help="library sizes to run the peers at ('' for none)")
    parser.add_argument("--no-search", action="store_true")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    peers_at = {int(value) for value in options.peers_at.split(",") if value}
    base = tempfile.mkdtemp(prefix="notula-start-")
    results = {}
    try:
        empty = empty_rss(binary, base)
        print(f"start benchmark (Cairo); empty library at rest: {empty / MB:.0f} MB RSS", flush=True)
        for count in (int(value) for value in options.counts.split(",")):
            root = f"{base}/{count}"
            _, library = private_home(root)
            fill_library(library, count)
            wait_until_notes_settle()  # for the warm start after it
            targets = TARGETS.get(count, TARGETS[10_000])
            first = first_start(binary, root, library, timeout=max(120, count / 100))
            print(f"{count} notes, first start ({cold_label(first['cache_dropped'])}):")
            print(f"  window mapped   {verdict(first['mapped'], targets['mapped'])}")
            print(f"  list complete   {verdict(first['complete'], targets['complete'])}")
            indexed_note = "" if first["indexed_reported"] else "   [this build reports no separate full-text line: = list complete]"
            print(f"  all indexed     {verdict(first['indexed'], targets['indexed'])}{indexed_note}")
            print(f"  peak RSS        {verdict((first['peak'] - empty) / MB, targets['peak'], 'MB')} over the empty library")
            listed = "not listed within 30 s of the list being complete" if first["listed"] is None else (
                verdict(first["listed"], LISTED_TARGET) + ("" if first["listed_before_complete"] else ", only once the list was complete"))
            print(f"  a note dropped 0.5 s after the window mapped: listed after {listed}", flush=True)
            warm = warm_start(binary, root)
            print(f"{count} notes, warm start: window mapped {verdict(warm['mapped'], targets['warm_mapped'])}, "
                  f"list complete {verdict(warm['complete'], targets['warm_complete'])}, RSS +{(warm['rss'] - empty) / MB:.0f} MB", flush=True)
            figures = {"first": first, "warm": warm, "empty_rss": empty}
            if not options.no_search:
                search = bench_search.summarize([bench_search.measure(binary, root, library, query)
                                                 for query in bench_search.QUERIES])
                print(f"{count} notes, search per keystroke with a note edited every second, frame included: "
                      f"median {search['median_ms']:.1f} ms, worst {search['worst_ms']:.1f} ms (to the frame, the frame clock's wait "
                      f"kept: {search['worst_to_frame_ms']:.1f} ms) over {search['keystrokes']} "
                      f"keystrokes, {search['interrupted']} interrupted, {search['refreshes']} re-searches from "
                      f"{search['edits']} edits; target {bench_search.target_text(count)}", flush=True)
                figures["search"] = search
            shutil.rmtree(root, ignore_errors=True)
            if count in peers_at:
                peers = bench_peers.compare(binary, shared_library(count), base)
                print(f"{count} notes, first start from outside (window shown; idle = every note read), same run:")
                for name, values in peers.items():
                    print(f"  {name:10} {bench_peers.describe(values)}", flush=True)
                figures["peers"] = peers
            results[str(count)] = figures
        write_results("start", results)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
