#!/usr/bin/python3
"""The first start of peers that do the same job — Gnote and tomboy-ng (both read Tomboy's
.note XML) — beside Notula's, on the same notes, measured the same way from outside.

The benchmark's Markdown notes are converted to .note files (title = first line, the whole
text as the note's content, the file's time as its change date) in a throwaway HOME: Gnote
reads $XDG_DATA_HOME/gnote, tomboy-ng $HOME/.local/share/tomboy-ng (its config, written first,
points there and asks for its note list — the Search window — at start). Before each start
the page cache is dropped where root allows (a cold first start). Measured from outside:

  shown  the process's first visible window (xdotool, polled every 20 ms)
  idle   the last moment it used CPU before a quiet second (/proc/PID/stat, 10 ms ticks):
         every note read and listed
  peak   its peak RSS (VmHWM)

Notula is measured the same way (its own report lines are in bench_start.py). A peer that is
not installed or shows no window under Xvfb is reported as such, never given a figure.

Usage, inside the display session (the library: any folder of .md notes):
    scripts/with-display.sh /usr/bin/python3 scripts/bench_peers.py --binary .build-release/release/notula --notes 10000
"""
import argparse
import datetime
import html
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid

from bench_app import cold_label, drop_caches, home_env, private_home, shared_library, write_results

PEERS = ("gnote", "tomboy-ng")
QUIET_S = 1.0
TICK_S = os.sysconf("SC_CLK_TCK") and 1 / os.sysconf("SC_CLK_TCK")
MB = 1024 * 1024

NOTE = """<?xml version="1.0" encoding="utf-8"?>
<note version="0.3" xmlns:link="http://beatniksoftware.com/tomboy/link" xmlns:size="http://beatniksoftware.com/tomboy/size" xmlns="http://beatniksoftware.com/tomboy">
  <title>{title}</title>
  <text xml:space="preserve"><note-content version="0.1">{text}</note-content></text>
  <last-change-date>{date}</last-change-date>
  <last-metadata-change-date>{date}</last-metadata-change-date>
  <create-date>{date}</create-date>
  <cursor-position>0</cursor-position>
  <selection-bound-position>-1</selection-bound-position>
  <width>450</width>
  <height>360</height>
  <x>0</x>
  <y>0</y>
  <open-on-startup>False</open-on-startup>
</note>
"""

TOMBOY_CONFIG = """[BasicSettings]
NotesPath={notes}/
ShowSplash=false
ShowSearchAtStart=true
Autostart=false
AutoRefresh=true

[SyncSettings]
Autosync=false
FileSyncEnabled=false
GitSyncEnabled=false

[Snapshot]
AutoSnapEnabled=0
"""


def convert(library, folder):
    """Every .md note of `library` as a Tomboy .note in `folder`; returns how many."""
    os.makedirs(folder, exist_ok=True)
    count = 0
    for name in sorted(os.listdir(library)):
        if not name.endswith(".md"):
            continue
        path = os.path.join(library, name)
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        title = text.split("\n", 1)[0].lstrip("# ").strip() or name
        mtime = os.stat(path).st_mtime
        date = datetime.datetime.fromtimestamp(mtime, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f0+00:00")
        note = NOTE.format(title=html.escape(title, quote=False), text=html.escape(text, quote=False), date=date)
        with open(os.path.join(folder, f"{uuid.uuid5(uuid.NAMESPACE_URL, name)}.note"), "w", encoding="utf-8") as handle:
            handle.write(note)
        os.utime(os.path.join(folder, f"{uuid.uuid5(uuid.NAMESPACE_URL, name)}.note"), (mtime, mtime))
        count += 1
    return count


def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime, every thread


def peak_rss(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def visible_window(pid):
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                           capture_output=True, text=True).stdout.split()
    return found[0] if found else None


def first_start_from_outside(command, env, timeout=300):
    """Starts `command`; returns {"shown", "idle", "peak"} (s, s, bytes) or {"error": why}."""
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        shown = None
        last_ticks, last_busy = 0, started
        deadline = started + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return {"error": f"exited with status {process.returncode} before it was idle"}
            now = time.monotonic()
            ticks = cpu_ticks(process.pid)
            if ticks != last_ticks:
                last_ticks, last_busy = ticks, now
            if shown is None and visible_window(process.pid):
                shown = time.monotonic() - started
            if shown is not None and now - last_busy >= QUIET_S:
                return {"shown": shown, "idle": last_busy - started, "peak": peak_rss(process.pid)}
            time.sleep(0.02)
        return {"error": "no window within the time" if shown is None else f"still busy after {timeout} s"}
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def peer_first_start(peer, library, base):
    """A cold first start of `peer` on the notes of `library`; figures or {"error": …}."""
    if not shutil.which(peer):
        return {"error": f"not installed (apt-get install {peer})"}
    root = tempfile.mkdtemp(prefix=f"notula-peer-{peer}-", dir=base)
    env = home_env(root)
    if peer == "gnote":
        convert(library, f"{root}/data/gnote")
    else:
        notes = f"{root}/.local/share/tomboy-ng"
        convert(library, notes)
        os.makedirs(f"{root}/config/tomboy-ng")
        with open(f"{root}/config/tomboy-ng/tomboy-ng.cfg", "w") as handle:
            handle.write(TOMBOY_CONFIG.format(notes=notes))
    figures = {"dropped": drop_caches()}
    figures.update(first_start_from_outside([peer], env))
    return figures


def notula_first_start(binary, library, base):
    """Notula's cold first start on `library` (no index), measured as the peers are."""
    root = tempfile.mkdtemp(prefix="notula-peer-notula-", dir=base)
    env, own = private_home(root, GSK_RENDERER="cairo")
    subprocess.run(["cp", "-al", library + "/.", own], check=True)
    figures = {"dropped": drop_caches()}
    figures.update(first_start_from_outside([binary], env))
    return figures


def describe(figures):
    if "error" in figures:
        return f"no figure: {figures['error']}"
    return (f"window {figures['shown']:.2f} s, idle {figures['idle']:.2f} s, peak RSS {figures['peak'] / MB:.0f} MB"
            f" ({cold_label(figures['dropped'])})")


def compare(binary, library, base):
    """{"notula": …, "gnote": …, "tomboy-ng": …} on the same notes, one after the other."""
    results = {"notula": notula_first_start(binary, library, base)}
    for peer in PEERS:
        results[peer] = peer_first_start(peer, library, base)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--notes", type=int, default=10_000)
    options = parser.parse_args()
    base = tempfile.mkdtemp(prefix="notula-peers-")
    try:
        results = compare(os.path.abspath(options.binary), shared_library(options.notes), base)
        print(f"first start, {options.notes} notes, from outside (window shown; idle = every note read):")
        for name, figures in results.items():
            print(f"  {name:10} {describe(figures)}", flush=True)
        write_results(f"peers-{options.notes}", results)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
