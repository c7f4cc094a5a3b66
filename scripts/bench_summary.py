#!/usr/bin/python3
"""The one table `make bench` ends with: every figure issues #29, #30 and #31 ask for, beside its target
(and the peers' first start beside Notula's), read from the JSON files the benchmarks wrote
to the results folder (bench_app.write_results). A figure whose benchmark did not run (or
whose script does not exist yet) is shown as "not measured", never guessed.

Usage: scripts/bench_summary.py [--write FILE] RESULTS_FOLDER

--write FILE also puts the table into FILE (make bench: docs/BENCHMARKS.md), in a fenced code
block under the heading "## Latest run": that section is replaced when FILE has one (up to the
next heading of level 1 or 2), appended otherwise; the rest of FILE is kept.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys

MB = 1024 * 1024


def load(folder, name):
    try:
        with open(os.path.join(folder, f"{name}.json")) as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def get(data, *keys):
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def cell(value, unit, target=None, fmt="{:.2f}"):
    if value is None:
        return "not measured"
    text = fmt.format(value) + f" {unit}"
    if target is not None:
        text += f"  {'ok' if value <= target else 'MISSES'}"
    return text


def summary(folder):
    """The closing table of `make bench`, as lines."""
    lines = []

    def out(text=""):
        lines.append(text)

    start, search, typing, switch, lists = (load(folder, name) for name in ("start", "search", "typing", "switch", "lists"))
    rows = []  # (figure, 10k, 100k, target)

    def both(label, getter, unit, targets, target_text, fmt="{:.2f}"):
        rows.append((label, *(cell(getter(count), unit, targets[i], fmt) for i, count in enumerate(("10000", "100000"))),
                     target_text))

    first = lambda key: (lambda count: get(start, count, "first", key))
    peak = lambda count: (None if get(start, count, "first", "peak") is None
                          else (start[count]["first"]["peak"] - start[count]["empty_rss"]) / MB)
    both("first start: window mapped", first("mapped"), "s", (0.25, 0.5), "≤ 0.25 s / ≤ 0.5 s")
    both("first start: list complete", first("complete"), "s", (1.0, 8.0), "≤ 1 s / ≤ 8 s")
    both("first start: all indexed", first("indexed"), "s", (3.0, 30.0), "≤ 3 s / ≤ 30 s")
    both("first start: peak RSS over empty", peak, "MB", (None, 80.0), "100k: ≤ +80 MB", "{:.0f}")
    both("warm start: window mapped", lambda c: get(start, c, "warm", "mapped"), "s", (0.25, 0.5), "≤ 0.25 s / ≤ 0.5 s")
    both("warm start: list complete", lambda c: get(start, c, "warm", "complete"), "s", (0.4, 1.0), "≤ 0.4 s / ≤ 1 s")
    warm_rss = lambda count: (None if get(start, count, "warm", "rss") is None
                              else (start[count]["warm"]["rss"] - start[count]["empty_rss"]) / MB)
    both("warm start: RSS at rest over empty", warm_rss, "MB", (None, 60.0), "100k: ≤ +60 MB", "{:.0f}")
    rows.append(("note dropped while indexing: listed after",
                 *(("not listed" if get(start, c, "first") and get(start, c, "first", "listed") is None
                    else cell(get(start, c, "first", "listed"), "s", 1.0)) for c in ("10000", "100000")), "≤ 1 s"))
    search_of = lambda key: (lambda count: get(search, count, key) if get(search, count) else get(start, count, "search", key))
    both("search per key (+frame, edits, clock wait out): median", search_of("median_ms"), "ms", (None, 16.0), "100k: ≤ 16 ms", "{:.1f}")
    both("search per key (+frame, edits, clock wait out): worst", search_of("worst_ms"), "ms", (16.0, 33.0), "≤ 16 ms / ≤ 33 ms", "{:.1f}")
    both("search per key: worst to the frame (clock's wait kept)", search_of("worst_to_frame_ms"), "ms", (None, None),
         "shown, not held to a target", "{:.1f}")
    both("search: keystrokes interrupted", search_of("interrupted"), "", (None, None), "counted in the figures", "{:.0f}")
    both("switch CPU per note (5k / 100k)", lambda c: get(switch, ("5000" if c == "10000" else c) + "-keyboard", "cpu_ms"), "ms",
         (15.0, 15.0), "≤ 15 ms at 5k and 100k", "{:.1f}")
    typing_md = get(typing, "1 MB md/cairo", "worst_ms")
    typing_large = next((value["worst_ms"] for key, value in (typing or {}).items() if " in " in key and key.endswith("cairo")), None)
    rows.append(("typing stall: 1 MB Markdown / 2 KB in 100k", cell(typing_md, "ms", 16.0, "{:.1f}"),
                 cell(typing_large, "ms", 16.0, "{:.1f}"), "≤ 16 ms (Cairo, worst of runs)"))
    rows.append(("Browse Versions, 5,000 versions", cell(get(lists, "versions_ms"), "ms", 200.0, "{:.0f}"), "", "≤ 200 ms"))
    rows.append(("sidebar, 2,000 notebooks", cell(get(lists, "notebooks_ms"), "ms", 200.0, "{:.0f}"), "", "≤ 200 ms"))
    imported = load(folder, "import")
    rows.append(("import of 10,000 Gnote notes (#34)", cell(get(imported, "seconds"), "s", None, "{:.1f}"), "", "no target"))
    quick = load(folder, "quick_note")
    rows.append(("quick note window, Notula running: median / worst", cell(get(quick, "running_median_ms"), "ms", 150.0, "{:.0f}"),
                 cell(get(quick, "running_worst_ms"), "ms", 150.0, "{:.0f}"), "≤ 150 ms (1,000 notes)"))
    rows.append(("quick note window, cold (main window cold start)", cell(get(quick, "cold_ms"), "ms", None, "{:.0f}"),
                 cell(get(quick, "main_cold_ms"), "ms", None, "{:.0f}"), "as fast as a cold start"))
    shell = load(folder, "shell_search")
    both("desktop search answer (#33): median", lambda c: get(shell, c, "median_ms"), "ms", (None, 50.0), "100k: ≤ 50 ms", "{:.1f}")
    both("desktop search answer (#33): worst", lambda c: get(shell, c, "worst_ms"), "ms", (None, 50.0), "100k: ≤ 50 ms", "{:.1f}")

    width = max(len(row[0]) for row in rows)
    out()
    out("=" * 100)
    out(f"{'summary (issue #29)':{width}}  {'10,000 notes':>20}  {'100,000 notes':>20}  target")
    out("-" * 100)
    for label, small, large, target in rows:
        out(f"{label:{width}}  {small:>20}  {large:>20}  {target}")
    peers = get(start, "10000", "peers")
    if peers:
        out("-" * 100)
        out("first start, 10,000 notes, from outside, same run (window shown / idle = every note read / peak RSS):")
        for name, figures in peers.items():
            if "error" in figures:
                out(f"  {name:10} no figure: {figures['error']}")
            else:
                out(f"  {name:10} {figures['shown']:.2f} s / {figures['idle']:.2f} s / {figures['peak'] / MB:.0f} MB"
                    f"{'' if figures.get('dropped') else '  (page cache not dropped)'}")
    cold = get(start, "10000", "first", "cache_dropped")
    if cold is not None:
        out(f"first starts: page cache {'dropped before each (cold)' if cold else 'NOT dropped (not root): warm files'}")
    pictures = load(folder, "pictures")
    out("-" * 100)
    out("issue #30: a note with 50 photos of 4000 × 3000 (Cairo)")
    for label, value, unit, target, target_text in (
            ("first pictures painted after the window mapped", get(pictures, "first_pictures_ms_from_map"), "ms", 1000.0, "≤ 1 s"),
            ("RSS growth after scrolling through it", get(pictures, "rss_growth_scrolled_mb"), "MB", 150.0, "≤ 150 MB"),
            ("longest main-loop stall while scrolling", get(pictures, "longest_scroll_stall_ms"), "ms", 16.0, "≤ 16 ms")):
        out(f"{'  ' + label:{width}}  {cell(value, unit, target, '{:.0f}'):>20}  {'':>20}  {target_text}")
    spelling = load(folder, "spelling")
    out("-" * 100)
    out("issue #31: spelling, typing at the end of a 1 MB note (Cairo)")
    for label, value, unit, target, target_text in (
            ("longest stall, spelling off", get(spelling, "typing/off", "stall_ms"), "ms", 16.0, "≤ 16 ms"),
            ("longest stall, spelling on", get(spelling, "typing/on", "stall_ms"), "ms", 16.0, "≤ 16 ms"),
            ("CPU per keystroke, spelling off", get(spelling, "typing/off", "cpu_ms_per_key"), "ms", None, ""),
            ("CPU per keystroke, spelling on", get(spelling, "typing/on", "cpu_ms_per_key"), "ms", None, ""),
            ("checking the screen and its margin at open", get(spelling, "screen", "ms"), "ms", None, "")):
        out(f"{'  ' + label:{width}}  {cell(value, unit, target, '{:.1f}'):>20}  {'':>20}  {target_text}")
    export = load(folder, "export")
    out("-" * 100)
    out("issue #46: a note of 300 KB exported as a PDF (Print lays its pages out the same way; Cairo)")
    for label in ("300 KB", "300 KB md"):
        out(f"{'  longest stall, ' + label:{width}}  {cell(get(export, label, 'longest_stall_ms'), 'ms', 16.0, '{:.1f}'):>20}  "
            f"{'':>20}  ≤ 16 ms")
    bulk = load(folder, "bulk")
    out("-" * 100)
    out("issue #47: every note selected and moved into a notebook (warm start; Cairo)")
    for count in ("10000", "100000"):
        out(f"{'  to done, ' + count + ' notes':{width}}  {cell(get(bulk, count, 'seconds'), 's', None, '{:.2f}'):>20}  {'':>20}")
        out(f"{'  longest stall, ' + count + ' notes':{width}}  {cell(get(bulk, count, 'longest_stall_ms'), 'ms', 16.0, '{:.1f}'):>20}  "
            f"{'':>20}  ≤ 16 ms")
    out("=" * 100)
    return lines


LATEST_RUN = "## Latest run"


def section_bounds(lines):
    """(start, end) of the "## Latest run" section in `lines` (end: the next heading of level 1
    or 2 outside a fenced block, or the end), or None."""
    start = next((i for i, line in enumerate(lines) if line.rstrip() == LATEST_RUN), None)
    if start is None:
        return None
    fenced = False
    for i in range(start + 1, len(lines)):
        line = lines[i]
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and (line.startswith("# ") or line.startswith("## ")):
            return start, i
    return start, len(lines)


def revision():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def write_latest_run(path, table, folder):
    """Replaces (or appends) the "## Latest run" section of the Markdown file at `path`."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        lines = []
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    commit = revision()
    section = [LATEST_RUN, "",
               f"Written by `make bench` (`scripts/bench_summary.py`) on {when}"
               + (f" at commit `{commit}`" if commit else "") + f", from `{folder}`.", "",
               "```text", *[line.rstrip() for line in table if line.strip()], "```"]
    bounds = section_bounds(lines)
    if bounds is None:
        while lines and not lines[-1].strip():
            lines.pop()
        lines += ([""] if lines else []) + section
    else:
        start, end = bounds
        rest = lines[end:]
        lines = lines[:start] + section + ([""] + rest if rest else [])
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description="The closing table of make bench.")
    parser.add_argument("folder", nargs="?", default=os.environ.get("NOTULA_BENCH_RESULTS", "build/bench"),
                        help="the results folder the benchmarks wrote (JSON files)")
    parser.add_argument("--write", metavar="FILE",
                        help='also write the table into FILE, replacing its section "## Latest run"')
    arguments = parser.parse_args()
    table = summary(arguments.folder)
    print("\n".join(table))
    if arguments.write:
        write_latest_run(arguments.write, table, arguments.folder)
        print(f"written to {arguments.write} ({LATEST_RUN})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
