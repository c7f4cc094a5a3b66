"""What the benchmarks share: a private HOME with an empty local library, the app started with
its report switches (its stdout collected), xdotool and the window's id, the app's name on the
session bus, the realistic generated libraries and the results files.

The one helper module of scripts/bench*.py: every benchmark imports its helpers from here, and
this module imports no benchmark script (so the imports among them have no circle)."""
import json
import os
import random
import signal
import subprocess
import threading
import time

APP_ID = "io.github.notula.Notula"

# Words of the generated notes (bench.py's realistic notes, the shared libraries, the Gnote notes
# of bench_import.py).
WORDS = ("the a we should maybe try to call ask about before after next week tomorrow remember "
         "check order book fix send write read plan meeting budget draft notes idea list ticket "
         "deadline review update design simple small first second again still already really "
         "garden window paint shelf door printer laptop backup photos letter invoice train "
         "morning evening weekend Monday Friday quickly carefully together later soon").split()


def sentence(rng, low=4, high=14):
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return (" ".join(words)).capitalize() + rng.choice([".", ".", ".", "?", "!"])


def make_library(folder, count, seed=7):
    """Writes `count` realistic notes (~2.3 KB each) note-NNNNNN.md into `folder`, mtimes over
    the last two years; returns the bytes written."""
    rng = random.Random(seed)
    now = time.time()
    os.makedirs(folder, exist_ok=True)
    total = 0
    for index in range(count):
        lines = [f"Note {index} " + sentence(rng, 2, 5)]
        while sum(len(line) for line in lines) < rng.randint(1500, 3100):
            lines.append(sentence(rng, 6, 20))
        data = ("\n".join(lines) + "\n").encode()
        path = os.path.join(folder, f"note-{index:06d}.md")
        with open(path, "wb") as handle:
            handle.write(data)
        mtime = now - rng.uniform(0, 2 * 365 * 86400)
        os.utime(path, (mtime, mtime))
        total += len(data)
    return total


def private_home(root, **env):
    """Environment for a run in `root` (no first-launch question); returns (env, library)."""
    environment = dict(os.environ, HOME=root, XDG_DATA_HOME=f"{root}/data", XDG_STATE_HOME=f"{root}/state",
                       XDG_CONFIG_HOME=f"{root}/config", XDG_CACHE_HOME=f"{root}/cache", **env)
    library = f"{root}/data/notula/Notes"
    os.makedirs(library, mode=0o700)
    os.makedirs(f"{root}/config/notula")
    with open(f"{root}/config/notula/preferences.json", "w") as handle:
        handle.write('{"storage": "local"}')
    return environment, library


def launch(binary, env):
    """Starts the app; returns (process, lines), `lines` filling with its stdout."""
    process = subprocess.Popen([binary], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    process.reader = reader
    return process, lines


def stop(process):
    """Stops an app started by `launch` (SIGTERM, its stdout read to the end)."""
    process.terminate()
    process.wait(10)
    process.reader.join(2)


def stop_process(process, timeout=10):
    """Stops any child process: SIGTERM, SIGKILL if it has not exited after `timeout` s."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def app_name_owned():
    out = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                          "--object-path", "/org/freedesktop/DBus", "--method",
                          "org.freedesktop.DBus.NameHasOwner", APP_ID],
                         capture_output=True, text=True, timeout=10).stdout
    return "true" in out


def wait_name_released(timeout=10):
    """Waits until no app instance owns APP_ID on the session bus (the previous one has quit)."""
    deadline = time.monotonic() + timeout
    while app_name_owned():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{APP_ID} is still owned on the session bus")
        time.sleep(0.05)


def xdotool(*args):
    subprocess.run(["xdotool", *args], check=True, capture_output=True, timeout=60)


def window_id(timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^Notula$"],
                             capture_output=True, text=True).stdout.split()
        if out:
            return out[0]
        time.sleep(0.05)
    raise RuntimeError("no Notula window")


def drop_caches():
    """Empties the kernel's page cache (root only): a "cold" start then reads every file from
    the disk. Returns whether it could."""
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as handle:
            handle.write("3\n")
        return True
    except OSError:
        return False


def cold_label(dropped):
    return "page cache dropped" if dropped else "page cache NOT dropped (needs root): files may be cached"


def shared_library(count):
    """A library of `count` realistic notes (make_library), generated once per machine
    session under $NOTULA_BENCH_LIBRARIES (default /tmp/notula-bench-libraries) and reused by
    every benchmark: the 100,000-note one takes a minute to write."""
    base = os.environ.get("NOTULA_BENCH_LIBRARIES", "/tmp/notula-bench-libraries")
    folder = os.path.join(base, str(count))
    if not os.path.exists(os.path.join(folder, ".complete")):
        if os.path.exists(folder):
            subprocess.run(["rm", "-rf", folder], check=True)
        make_library(os.path.join(folder, "notes"), count)
        with open(os.path.join(folder, ".complete"), "w"):
            pass
        # Files changed in the last 2 s are indexed as "read again next time" (their times
        # cannot be trusted yet): a library used at once would be re-read at its warm start.
        time.sleep(2.1)
    return os.path.join(folder, "notes")


def fill_library(library, count):
    """Puts the shared library of `count` notes into `library` as hard links (fast; the app
    replaces files by renaming, which leaves the shared copy alone). A file the benchmark
    changes in place must be unlinked first (`own_copy`)."""
    global _filled_at
    source = shared_library(count)
    if subprocess.run(["cp", "-al", source + "/.", library], capture_output=True).returncode != 0:
        subprocess.run(["cp", "-a", source + "/.", library], check=True)  # another file system
    _filled_at = time.monotonic()


# When fill_library last linked notes: a hard link changes the inode's ctime, so those notes
# count as changed in the last 2 s (see shared_library) until 2 s after it.
_filled_at = 0.0


def wait_until_notes_settle():
    """Waits until the notes fill_library linked are 2 s old: indexed sooner, they are stored
    as "changed in the last 2 s" and all read again at the next start, which is then not warm."""
    time.sleep(max(0.0, _filled_at + 2.1 - time.monotonic()))


def own_copy(path):
    """Breaks a hard link: `path` becomes a file of its own with the same bytes and times."""
    with open(path, "rb") as handle:
        data = handle.read()
    stat = os.stat(path)
    os.unlink(path)
    with open(path, "wb") as handle:
        handle.write(data)
    os.utime(path, (stat.st_atime, stat.st_mtime))


def rss_mb(pid):
    """The process's resident memory now, in MB (VmRSS)."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def write_results(name, figures):
    """Saves the figures for scripts/bench_summary.py as $NOTULA_BENCH_RESULTS/NAME.json."""
    folder = os.environ.get("NOTULA_BENCH_RESULTS")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{name}.json"), "w") as handle:
        json.dump(figures, handle, indent=1, sort_keys=True)


def reports(binary, line):
    """Whether the binary can print the report line `line` (a newer build may add lines)."""
    with open(binary, "rb") as handle:
        return line.encode() in handle.read()


def home_env(root, **extra):
    return dict(os.environ, HOME=root, XDG_DATA_HOME=f"{root}/data", XDG_STATE_HOME=f"{root}/state",
                XDG_CONFIG_HOME=f"{root}/config", XDG_CACHE_HOME=f"{root}/cache", **extra)


def wait_saved(path, typed, timeout=10):
    """Whether the file at `path` ends with `typed` (autosave) within `timeout` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path, encoding="utf-8") as handle:
            if handle.read().rstrip("\n").endswith(typed):
                return True
        time.sleep(0.1)
    return False


def wait_line(lines, prefix, timeout):
    """The first line starting with `prefix`, split; RuntimeError after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:  # looked at least once: a line that came already counts, whatever the timeout
        for line in list(lines):
            if line.startswith(prefix):
                return line.split()
        if time.monotonic() >= deadline:
            raise RuntimeError(f"no '{prefix}' within {timeout} s")
        time.sleep(0.02)


def build_index(binary, root, timeout=900):
    """Starts the app in `root` until its index is complete (the list, and the full text where
    the app reports that separately), then stops it: the next start is a warm one."""
    wait_until_notes_settle()
    wait_name_released()
    process, lines = launch(binary, home_env(root, GSK_RENDERER="cairo", NOTULA_REPORT_SEARCH="1"))
    try:
        wait_line(lines, "notula-search-index-ready", timeout)
        if reports(binary, "notula-search-indexed"):
            wait_line(lines, "notula-search-indexed", timeout)
    finally:
        stop(process)
