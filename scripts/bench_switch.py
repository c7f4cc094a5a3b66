#!/usr/bin/python3
"""Note switching and quitting benchmark (issue: the document life-cycle under stress).

Switching: the app runs with NOTULA_BENCH_SWITCHES (see SwitchReport.swift): once the library
is indexed it sits idle for a baseline period, then opens the next notes of the list one by
one, 300 ms apart. Printed: the process's CPU per switch (every thread, drawing included,
minus the idle baseline) and the time from selection to the text shown. Target: 15 ms of CPU
per switch (issue #29).

Quitting: with 10,000 notes and an edited open note, SIGTERM; printed: the longest main-loop
stall after the signal (NOTULA_REPORT_STALLS), and the time until the process is gone.

Usage, inside the display session:
    scripts/with-display.sh /usr/bin/python3 scripts/bench_switch.py --binary .build-release/release/notula
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from bench_app import build_index, fill_library, launch, private_home, stop, window_id, write_results, xdotool

TARGET_MS = 15.0  # issue #29, at 5,000 and 100,000 notes
SWITCHES = 40


def wait_for(lines, prefix, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [line for line in lines if line.startswith(prefix)]
        if found:
            return found[0].split()
        time.sleep(0.05)
    raise RuntimeError(f"no '{prefix}' within {timeout} s")


# A screen reader's share: an AT-SPI client that listens to every event, as Orca does.
LISTENER = """
import pyatspi
pyatspi.Registry.registerEventListener(lambda event: None, "object:", "focus:", "window:")
pyatspi.Registry.start()
"""


def switching(binary, count, screen_reader=False):
    root = tempfile.mkdtemp(prefix="notula-switch-")
    listener = subprocess.Popen(["/usr/bin/python3", "-c", LISTENER], stderr=subprocess.DEVNULL) if screen_reader else None
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1",
                                    NOTULA_BENCH_SWITCHES=str(SWITCHES))
        fill_library(library, count)
        build_index(binary, root)  # switching in a warm start, not beside a first indexing
        process, lines = launch(binary, env)
        try:
            window_id()
            wait_for(lines, "notula-search-index-ready", 120)
            cpu = wait_for(lines, "notula-switch-cpu", 60 + 2 * 0.3 * SWITCHES)
        finally:
            stop(process)
        idle, busy, switches = float(cpu[1]), float(cpu[2]), int(cpu[3])
        shown = sorted(float(line.split()[2]) for line in lines if line.startswith("notula-switch "))
        return (busy - idle) / switches, shown
    finally:
        if listener:
            listener.kill()
            listener.wait()
        shutil.rmtree(root, ignore_errors=True)


def process_cpu_ms(pid):
    """User + system CPU of every thread of `pid`, read from outside (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def keyboard_switching(binary, count):
    """Switching as a user does it, measured from outside: the first row clicked, then Down
    pressed SWITCHES times 300 ms apart (each opens the next note); the process's CPU over
    that period minus the same period idle just before, per switch."""
    root = tempfile.mkdtemp(prefix="notula-switch-keys-")
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1")
        fill_library(library, count)
        build_index(binary, root)
        process, lines = launch(binary, env)
        try:
            window = window_id()
            wait_for(lines, "notula-search-index-ready", 300)
            time.sleep(3)  # the start's background work (history upkeep, memory trim) is over
            xdotool("windowfocus", "--sync", window)
            xdotool("mousemove", "--window", window, "150", "120", "click", "1")  # the first row
            time.sleep(1)
            period = 0.3 * SWITCHES
            idle_start = process_cpu_ms(process.pid)
            time.sleep(period)
            switch_start = process_cpu_ms(process.pid)
            for _ in range(SWITCHES):
                xdotool("key", "Down")
                time.sleep(0.3)
            time.sleep(0.3)
            switching_cpu = process_cpu_ms(process.pid) - switch_start - 0.3 * (switch_start - idle_start) / period
        finally:
            stop(process)
        return (switching_cpu - (switch_start - idle_start)) / SWITCHES
    finally:
        shutil.rmtree(root, ignore_errors=True)


def quitting(binary, count):
    root = tempfile.mkdtemp(prefix="notula-quit-")
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1", NOTULA_REPORT_STALLS="1")
        fill_library(library, count)
        process, lines = launch(binary, env)
        try:
            window = window_id()
            wait_for(lines, "notula-search-index-ready", 120)
            time.sleep(1)
            xdotool("windowfocus", "--sync", window)
            xdotool("mousemove", "--window", window, "600", "300", "click", "1")
            xdotool("key", "--clearmodifiers", "ctrl+End")
            xdotool("type", "--delay", "20", "--", " and a last sentence")
            time.sleep(0.3)
            signalled = time.monotonic()
            process.send_signal(signal.SIGTERM)
            process.wait(30)
            gone = time.monotonic()
            process.reader.join(2)
        except BaseException:
            stop(process)
            raise
        stalls = [float(line.split()[2]) for line in lines
                  if line.startswith("notula-stall ") and float(line.split()[1]) >= signalled]
        return max(stalls, default=0.0), (gone - signalled) * 1000, process.returncode
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--counts", default="5000,100000")
    parser.add_argument("--quit-notes", type=int, default=10_000)
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    print(f"note switch benchmark: {SWITCHES} switches 300 ms apart, Cairo; CPU of every thread minus an idle baseline")
    print(f"{'notes':>7} {'screen reader':>13} {'CPU ms/switch':>13} {'ratio to 15 ms':>14} {'shown median ms':>15} {'shown max ms':>12}")
    runs = [(int(value), False) for value in options.counts.split(",")]
    runs.append((runs[0][0], True))
    results = {}
    for count, screen_reader in runs:
        per_switch, shown = switching(binary, count, screen_reader)
        results[f"{count}{'-screen-reader' if screen_reader else ''}"] = {"cpu_ms": per_switch, "shown": shown}
        median = shown[len(shown) // 2] if shown else float("nan")
        print(f"{count:>7} {'listening' if screen_reader else 'none':>13} {per_switch:>13.1f} {per_switch / TARGET_MS:>14.2f} {median:>15.1f} "
              f"{(shown[-1] if shown else float('nan')):>12.1f}", flush=True)
    print(f"switching with the Down key, CPU read from /proc (outside), target {TARGET_MS:.0f} ms:")
    for count, _ in runs[:-1]:
        per_switch = keyboard_switching(binary, count)
        results[f"{count}-keyboard"] = {"cpu_ms": per_switch}
        print(f"{count:>7} {'keyboard':>13} {per_switch:>13.1f} {per_switch / TARGET_MS:>14.2f}", flush=True)
    stall, exit_ms, code = quitting(binary, options.quit_notes)
    print(f"quit (SIGTERM) with {options.quit_notes} notes and an edited note: longest main-loop stall "
          f"{stall:.1f} ms, gone after {exit_ms:.0f} ms, exit status {code}")
    write_results("switch", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
