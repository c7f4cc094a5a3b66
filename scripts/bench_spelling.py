#!/usr/bin/python3
"""Spelling benchmark: typing into a 1 MB note with spelling on and off, and checking a screen.

A 1 MB note of English prose with about one misspelled word in twenty opens at start. With
NOTULA_REPORT_STALLS=1 the app reports every main-loop gap over 4 ms (`notula-stall <end> <ms>`);
xdotool types 120 characters 25 ms apart at the end of the note (a pause in the middle lets the
idle autosave run). Figures per setting: the longest stall while typing (target 16 ms, both),
and the app's CPU time per keystroke (utime + stime from /proc, over the typing window, so it
includes drawing and autosaves). With NOTULA_REPORT_SPELLING=1 the app reports the time it spent
checking the lines around the view of the note just opened (`notula-spelling-checked <ms>
<lines> <marks>`): checking a screenful (and its margin).

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_spelling.py --binary .build-release/release/notula
"""
import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time

from bench_app import launch, private_home, stop, wait_line, wait_saved, window_id, write_results, xdotool

TARGET_MS = 16.0
TYPED_A = "typing into a long note while the spelling is "
TYPED_B = "checked around the view, as a writer would type on a long evening."


def make_note(path, size, seed=5):
    rng = random.Random(seed)
    words = ("the quick brown fox jumps over lazy dogs while writers keep their notes in plain text files "
             "and every morning they read what they wrote the evening before").split()
    typos = ["teh", "recieve", "wrng", "mispelled", "definately", "seperate"]
    lines = ["Spelling benchmark"]
    total = len(lines[0]) + 1
    while total < size:
        line = " ".join(rng.choice(typos) if rng.random() < 0.05 else rng.choice(words) for _ in range(rng.randint(8, 18)))
        lines.append(line.capitalize() + ".")
        total += len(line) + 2
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + "\n")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_once(binary, spelling):
    root = tempfile.mkdtemp(prefix="notula-spelling-")
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_STALLS="1", NOTULA_REPORT_SPELLING="1",
                                   NOTULA_REPORT_SEARCH="1")
        env.pop("LANGUAGE", None)
        with open(f"{root}/config/notula/preferences.json", "w") as handle:
            json.dump({"storage": "local", "checkSpelling": spelling, "spellingLanguage": "en_US"}, handle)
        note = f"{library}/bench.md"
        make_note(note, 1024 * 1024)
        process, lines = launch(binary, env)
        checked = None
        try:
            wid = window_id()
            xdotool("windowfocus", "--sync", wid)
            wait_line(lines, "notula-search-index-ready", 120)
            if spelling:
                found = wait_line(lines, "notula-spelling-checked", 20)
                checked = tuple(float(x) for x in found[1:4])
            time.sleep(1.0)
            xdotool("mousemove", "--window", wid, "600", "300", "click", "1")
            xdotool("key", "--clearmodifiers", "ctrl+End")
            time.sleep(0.5)
            start, cpu_before = time.monotonic(), cpu_seconds(process.pid)
            xdotool("type", "--delay", "25", "--", TYPED_A)
            time.sleep(1.5)
            xdotool("type", "--delay", "25", "--", TYPED_B)
            end, cpu_after = time.monotonic(), cpu_seconds(process.pid)
            saved = wait_saved(note, TYPED_A + TYPED_B)
        finally:
            stop(process)
        stalls = [float(p[2]) for p in (line.split() for line in lines)
                  if len(p) == 3 and p[0] == "notula-stall" and start <= float(p[1]) <= end + 0.05]
        per_key = (cpu_after - cpu_before) * 1000 / len(TYPED_A + TYPED_B)
        return max(stalls, default=0.0), per_key, saved, checked
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    print(f"spelling benchmark: {len(TYPED_A + TYPED_B)} characters 25 ms apart into a 1 MB note, cairo, {options.runs} runs each")
    results = {}
    for spelling in (False, True):
        runs = [run_once(binary, spelling) for _ in range(options.runs)]
        stalls = sorted(r[0] for r in runs)
        cpu = sorted(r[1] for r in runs)
        label = "on" if spelling else "off"
        print(f"spelling {label:3}: longest stall {stalls[len(stalls) // 2]:.1f} ms (worst {stalls[-1]:.1f}; target {TARGET_MS:g}), "
              f"CPU per keystroke {cpu[len(cpu) // 2]:.2f} ms, saved: {'yes' if all(r[2] for r in runs) else 'NO'}", flush=True)
        results[f"typing/{label}"] = {"stall_ms": stalls[len(stalls) // 2], "worst_ms": stalls[-1], "cpu_ms_per_key": cpu[len(cpu) // 2]}
        if spelling:
            checks = sorted(r[3] for r in runs if r[3])
            if checks:
                ms, lines_checked, marks = checks[len(checks) // 2]
                print(f"checking the screen and its margin at open: {ms:.1f} ms for {lines_checked:.0f} lines, {marks:.0f} words marked")
                results["screen"] = {"ms": ms, "lines": lines_checked, "marks": marks}
            else:
                print("checking a screen: NOT MEASURED")
    off, on = results["typing/off"], results["typing/on"]
    print(f"ratio on/off: stall {on['stall_ms'] / max(off['stall_ms'], 0.1):.2f}, CPU per keystroke {on['cpu_ms_per_key'] / max(off['cpu_ms_per_key'], 0.01):.2f}")
    write_results("spelling", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
