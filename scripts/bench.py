#!/usr/bin/python3
"""Start-up time and memory of Notula with 0, 1,000 and 10,000 notes, GL and Cairo renderers.

Run inside the display session, with the release binary:
    scripts/with-display.sh /usr/bin/python3 scripts/bench.py --binary .build-release/release/notula

For each note count a throwaway library of realistic notes is generated once (a title line and
3-20 lines of text, modification times spread over two years). For each renderer (GSK_RENDERER)
the app is launched --runs times (after one uncounted warm-up launch, which builds the index: its
time is printed as the first start, with the page cache dropped first where root allows) with
NOTULA_REPORT_MAPPED=1:

  mapped  = the app's "notula-window-mapped T" (CLOCK_MONOTONIC) minus time.monotonic() taken
            just before the process is spawned: exec to window on screen;
  RSS     = VmRSS from /proc/PID/status, --settle seconds (default 2) after the window mapped;
            VmHWM (peak) is shown too.

Each instance is then stopped with SIGTERM (the library is throwaway). Prints a table (median
and min-max) and compares with the targets: 10k-note mapped time < 0.5 s, RSS growth from 0 to
10k notes < 30 MB, per renderer. Exit status 0 even if a target is missed (it is a report);
1 if the benchmark itself could not run.
"""
import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from bench_app import cold_label, drop_caches, sentence, stop_process, wait_name_released

MAPPED_TARGET_S = 0.5
RSS_GROWTH_TARGET_MB = 30.0
MB = 1024 * 1024

# ---------------------------------------------------------------------------------------------
# Realistic notes.

PEOPLE = ["Sam", "Priya", "Jonas", "Mei", "Carlos", "Aisha", "Tom", "Lena", "Yuki", "Omar"]
TOPICS = ["the garden", "the website", "Q3 planning", "the kitchen", "holiday trip", "the book club",
          "the release", "onboarding", "the bike", "taxes", "the podcast", "moving house"]
BOOKS = ["The Left Hand of Darkness", "Middlemarch", "Piranesi", "The Dispossessed", "Kindred",
         "A Wizard of Earthsea", "The Remains of the Day", "Station Eleven"]
DISHES = ["lentil soup", "banana bread", "shakshuka", "pad thai", "risotto", "apple crumble"]
GROCERIES = ["milk", "eggs", "bread", "butter", "apples", "rice", "coffee", "spinach", "tomatoes",
             "cheese", "yoghurt", "onions", "garlic", "olive oil", "pasta", "lemons", "oats"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
NAME_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"


def make_note(rng):
    kind = rng.randrange(7)
    lines_wanted = rng.randint(3, 20)
    if kind == 0:
        title = rng.choice(["Groceries", "Shopping list", "Market run"])
        body = ["- " + rng.choice(GROCERIES) for _ in range(lines_wanted)]
    elif kind == 1:
        title = f"Meeting with {rng.choice(PEOPLE)} about {rng.choice(TOPICS)}"
        body = [f"- {sentence(rng)}" if i % 3 else f"{rng.choice(PEOPLE)}: {sentence(rng)}" for i in range(lines_wanted)]
    elif kind == 2:
        title = f"# Ideas for {rng.choice(TOPICS)}"
        body = [f"{i + 1}. {sentence(rng, 3, 9)}" for i in range(lines_wanted)]
    elif kind == 3:
        title = f"{rng.choice(WEEKDAYS)} journal"
        body = [sentence(rng, 8, 24) if rng.random() > 0.15 else "" for _ in range(lines_wanted)]
    elif kind == 4:
        title = f"Reading notes: {rng.choice(BOOKS)}"
        body = [f"> {sentence(rng)}" if rng.random() < 0.3 else sentence(rng, 6, 18) for _ in range(lines_wanted)]
    elif kind == 5:
        title = f"Recipe: {rng.choice(DISHES)}"
        body = [f"- {rng.randint(1, 500)} g {rng.choice(GROCERIES)}" for _ in range(lines_wanted // 2)]
        body += [f"Step {i + 1}: {sentence(rng)}" for i in range(lines_wanted - len(body))]
    else:
        title = f"TODO {rng.choice(TOPICS)}"
        body = [f"- [{rng.choice([' ', 'x'])}] {sentence(rng, 3, 8)}" for _ in range(lines_wanted)]
    return title + "\n" + "\n".join(body) + "\n"


def generate_library(folder, count, seed=1):
    """Writes `count` notes named as the app names them, 0600, mtimes over the last two years."""
    os.makedirs(folder, mode=0o700, exist_ok=True)
    rng = random.Random(seed)
    now = time.time()
    used = set()
    total_bytes = 0
    for _ in range(count):
        mtime = now - rng.uniform(0, 2 * 365 * 86400)
        while True:
            suffix = "".join(rng.choice(NAME_ALPHABET) for _ in range(5))
            name = f"note-{time.strftime('%Y%m%d-%H%M%S', time.gmtime(mtime))}-{suffix}.md"
            if name not in used:
                used.add(name)
                break
        data = make_note(rng).encode("utf-8")
        total_bytes += len(data)
        path = os.path.join(folder, name)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.utime(path, (mtime, mtime))
    return total_bytes


# ---------------------------------------------------------------------------------------------
# The display.

def hold_display(timeout=10):
    """Keeps one X connection open (xprop -root -spy): Xvfb without -noreset resets whenever its
    last client leaves, and a launch that lands in the reset fails with "cannot open display"."""
    deadline = time.monotonic() + timeout
    while True:
        holder = subprocess.Popen(["xprop", "-root", "-spy"], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.2)
        if holder.poll() is None and subprocess.run(["xdpyinfo"], stdout=subprocess.DEVNULL,
                                                    stderr=subprocess.DEVNULL).returncode == 0:
            return holder
        stop_process(holder)
        if time.monotonic() > deadline:
            raise RuntimeError(f"cannot connect to the X display {os.environ.get('DISPLAY')}")


# ---------------------------------------------------------------------------------------------
# One launch.

def read_status(pid):
    values = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) * 1024
    return values


def uses_mesa_software_gl(pid):
    try:
        with open(f"/proc/{pid}/maps") as handle:
            maps = handle.read()
    except OSError:
        return None
    return "swrast_dri" in maps or "kms_swrast" in maps or "libgallium" in maps


class Run:
    def __init__(self, mapped_s, rss, hwm, software_gl):
        self.mapped_s = mapped_s
        self.rss = rss
        self.hwm = hwm
        self.software_gl = software_gl


def launch_once(binary, env, settle, timeout=60):
    wait_name_released()
    mapped_event = threading.Event()
    mapped = {}
    output = []

    def reader(stream):
        for line in stream:
            line = line.strip()
            output.append(line)
            if line.startswith("notula-window-mapped ") and "t" not in mapped:
                mapped["t"] = float(line.split()[1])
                mapped_event.set()

    started = time.monotonic()
    process = subprocess.Popen([binary], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    threading.Thread(target=reader, args=(process.stdout,), daemon=True).start()
    try:
        if not mapped_event.wait(timeout):
            raise RuntimeError(f"no 'notula-window-mapped' line within {timeout} s "
                               f"(exit {process.poll()}, output {output[-3:]})")
        mapped_at = mapped["t"]
        delay = mapped_at + settle - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        if process.poll() is not None:
            raise RuntimeError(f"notula exited ({process.returncode}) before the memory reading")
        status = read_status(process.pid)
        return Run(mapped_at - started, status["VmRSS"], status["VmHWM"], uses_mesa_software_gl(process.pid))
    finally:
        stop_process(process)
        process.stdout.close()


# ---------------------------------------------------------------------------------------------

def summary(values):
    return statistics.median(values), min(values), max(values)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--counts", default="0,1000,10000", help="note counts, comma-separated")
    parser.add_argument("--renderers", default="gl,cairo", help="GSK_RENDERER values, comma-separated")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds after mapping before reading RSS")
    parser.add_argument("--no-warmup", action="store_true", help="count the first launch too")
    options = parser.parse_args()

    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        print(f"bench: {binary} is not executable", file=sys.stderr)
        return 1
    if not os.environ.get("DISPLAY"):
        print("bench: no DISPLAY; run inside scripts/with-display.sh", file=sys.stderr)
        return 1
    counts = [int(c) for c in options.counts.split(",")]
    renderers = [r.strip() for r in options.renderers.split(",") if r.strip()]

    gtk_version = subprocess.run(["pkg-config", "--modversion", "gtk4"], capture_output=True, text=True).stdout.strip()
    print(f"binary: {binary}")
    print(f"GTK {gtk_version or '?'}, {os.cpu_count()} CPUs, display {os.environ.get('DISPLAY')} (Xvfb), "
          f"{options.runs} runs per cell after {'no' if options.no_warmup else 'one uncounted'} warm-up launch, "
          f"RSS read {options.settle:g} s after mapping; files in the page cache (warm start); MB = 2^20 bytes")

    results = {}
    root = tempfile.mkdtemp(prefix="notula-bench-")
    holder = hold_display()
    try:
        for count in counts:
            home = os.path.join(root, f"home-{count}")
            dirs = {key: os.path.join(home, key) for key in ("data", "config", "state", "cache")}
            for folder in dirs.values():
                os.makedirs(folder, mode=0o700)
            os.makedirs(os.path.join(dirs["config"], "notula"))
            with open(os.path.join(dirs["config"], "notula", "preferences.json"), "w") as handle:
                handle.write('{"storage": "local"}')  # no first-launch question
            library = os.path.join(dirs["data"], "notula", "Notes")
            size = generate_library(library, count, seed=count + 1)
            print(f"library: {count} notes, {size / MB:.1f} MB", flush=True)
            for renderer in renderers:
                env = dict(os.environ, HOME=home, XDG_DATA_HOME=dirs["data"], XDG_CONFIG_HOME=dirs["config"],
                           XDG_STATE_HOME=dirs["state"], XDG_CACHE_HOME=dirs["cache"],
                           GSK_RENDERER=renderer, NOTULA_REPORT_MAPPED="1")
                if not options.no_warmup:
                    # The first launch of the first renderer builds the index: a first start,
                    # cold where the page cache can be dropped (root).
                    first = renderer == renderers[0]
                    dropped = drop_caches() if first else False
                    cold = launch_once(binary, env, 0.2)
                    if first:
                        print(f"  {renderer:5s} first start ({cold_label(dropped)}): mapped {cold.mapped_s:.3f} s", flush=True)
                runs = [launch_once(binary, env, options.settle) for _ in range(options.runs)]
                results[(count, renderer)] = runs
                m = summary([r.mapped_s for r in runs])
                rss = summary([r.rss / MB for r in runs])
                print(f"  {renderer:5s} mapped {m[0]:.3f} s   RSS {rss[0]:.1f} MB", flush=True)
    finally:
        stop_process(holder)
        shutil.rmtree(root, ignore_errors=True)

    print()
    header = f"{'notes':>6}  {'renderer':8}  {'mapped s: median [min-max]':28}  {'RSS MB: median [min-max]':28}  {'peak RSS MB':>12}"
    print(header)
    print("-" * len(header))
    for count in counts:
        for renderer in renderers:
            runs = results[(count, renderer)]
            m = summary([r.mapped_s for r in runs])
            rss = summary([r.rss / MB for r in runs])
            hwm = statistics.median([r.hwm / MB for r in runs])
            print(f"{count:>6}  {renderer:8}  {m[0]:.3f} [{m[1]:.3f}-{m[2]:.3f}]{'':9}  "
                  f"{rss[0]:6.1f} [{rss[1]:.1f}-{rss[2]:.1f}]{'':7}  {hwm:12.1f}")
    software = {renderer: any(r.software_gl for runs in [results[(c, renderer)] for c in counts] for r in runs)
                for renderer in renderers}

    print()
    print("targets:")
    low, high = min(counts), max(counts)
    for renderer in renderers:
        mapped = statistics.median([r.mapped_s for r in results[(high, renderer)]])
        growth = (statistics.median([r.rss for r in results[(high, renderer)]])
                  - statistics.median([r.rss for r in results[(low, renderer)]])) / MB
        verdict_m = "meets" if mapped < MAPPED_TARGET_S else "MISSES"
        verdict_r = "meets" if growth < RSS_GROWTH_TARGET_MB else "MISSES"
        print(f"  {renderer:5s} {high}-note mapped time {mapped:.3f} s vs {MAPPED_TARGET_S} s target: "
              f"{mapped / MAPPED_TARGET_S:.2f}x of target, {verdict_m} it")
        print(f"  {renderer:5s} RSS growth {low}->{high} notes {growth:+.1f} MB vs {RSS_GROWTH_TARGET_MB:g} MB target: "
              f"{growth / RSS_GROWTH_TARGET_MB:.2f}x of target, {verdict_r} it")
    if "gl" in software and software["gl"]:
        print("note: GL here is Mesa's software rasterizer (swrast/llvmpipe) under Xvfb, not a GPU.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
