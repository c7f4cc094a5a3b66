#!/usr/bin/python3
"""Two REAL Syncthing instances ("a" and "b") on loopback, sharing one folder, for acceptance
tests about sync conflicts. Python 3 stdlib only; needs Debian's syncthing 1.19
(/usr/bin/syncthing).

A port of the measured recipe in /work/shared/labs/syncthing-pair.sh. Why it is built this way:

* Each instance gets its own home (``syncthing generate``) and a complete config.xml written
  BEFORE the first start: GUI/REST and sync listen on 127.0.0.1 only (free ports found by binding
  port 0), discovery, relays, NAT, usage and crash reporting and upgrades are all off, and each
  side knows the other under a static ``tcp://127.0.0.1:PORT`` address. Nothing leaves the host.
* Start-up is staggered: B first, until its REST API answers and it has tried (and failed) to
  dial A; only then A. When both dial each other at the same instant 1.19 can stall for its
  20 s hello timeout. B re-dials only after reconnectionIntervalS=5, so A's first dial wins.
* Waiting is deterministic, never a fixed sleep: ``POST /rest/db/scan`` returns when the scan is
  done, then the WRITER's ``/rest/db/completion`` for the reader's device must reach 100 % with
  nothing needed AND the writer's ``/rest/db/remoteneed`` for the reader must be empty (1.19's
  completion says 100 % for a device that has never announced a file). The reader's own
  ``/rest/db/status`` says "idle" before it has even heard of the change.
* Conflicts are made by pausing the FOLDER on one side (device pause/resume is rate-limited to
  one reconnect per ~5 s; folder pause keeps the connection).
* ``syncthing serve --no-restart`` still runs a monitor process plus a child; SIGTERM to the
  monitor is forwarded to the child. stop() stops the monitor, then checks that the child is
  gone (SIGTERM, then SIGKILL as a last resort). stop() also runs from __exit__ and atexit.

What Syncthing does with a conflict (measured, 1.19.2): the copy keeps the version with the OLDER
modification time and is named ``NAME.sync-conflict-YYYYMMDD-HHMMSS-SHORTID.EXT`` where SHORTID
is the short id (first 7 characters) of the device whose version WON. It is made on the losing
side when that side pulls the winner, then synced to the other side like any new file. Incoming
files are first written as ``.syncthing.NAME.tmp``; ``.stfolder`` is a directory marker.

Self-check: ``/usr/bin/python3 Tests/acceptance/syncthing_pair.py`` makes a real conflict.
"""
import atexit
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from xml.sax.saxutils import escape, quoteattr

SYNCTHING = "/usr/bin/syncthing"
FOLDER_ID = "notes"
SIDES = ("a", "b")
CONFLICT_PATTERN = re.compile(r"^(?P<stem>.*)\.sync-conflict-(?P<date>\d{8})-(?P<time>\d{6})-"
                              r"(?P<device>[A-Z0-9]{7})(?P<ext>\.[^.]*)?$")

# TZ fixes the times in conflict names; STHASHING=minio skips the hashing benchmark (~0.9 s);
# the rest keeps 1.19 from creating a default folder, upgrading or restarting itself.
SYNCTHING_ENV = {"TZ": "UTC", "STNODEFAULTFOLDER": "1", "STNOUPGRADE": "1", "STNORESTART": "1",
                 "STHASHING": "minio"}

# Requests go straight to 127.0.0.1, never through an http_proxy from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class SyncthingError(Exception):
    """Syncthing did not reach the expected state in time (message says what and shows why)."""


def other(side):
    """The other side: "a" -> "b", "b" -> "a"."""
    return {"a": "b", "b": "a"}[side]


def is_internal(name):
    """True for Syncthing's own entries in a folder: the .stfolder marker and temp files."""
    return name == ".stfolder" or (name.startswith(".syncthing.") and name.endswith(".tmp"))


def folder_snapshot(root):
    """{relative path: bytes} of every regular file under root, without Syncthing's own
    entries (.stfolder, .syncthing.*.tmp) - to compare the two sides of a pair."""
    snapshot = {}
    for directory, subdirectories, files in os.walk(root):
        subdirectories[:] = [d for d in subdirectories if not is_internal(d)]
        for name in files:
            if is_internal(name):
                continue
            path = os.path.join(directory, name)
            try:
                with open(path, "rb") as f:
                    snapshot[os.path.relpath(path, root)] = f.read()
            except FileNotFoundError:  # renamed away by Syncthing while we walked
                continue
    return snapshot


def parse_conflict_name(name):
    """For "note.sync-conflict-20240101-120000-ABCDEF1.md": {"stem": "note", "ext": ".md",
    "device": "ABCDEF1" (short id of the device whose version won), ...}; None otherwise."""
    match = CONFLICT_PATTERN.match(os.path.basename(name))
    return match.groupdict() if match else None


def _free_ports(count):
    """count distinct free TCP ports on 127.0.0.1 (all bound at once, so no duplicates)."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def _proc_identity(pid):
    """(pid, start time) from /proc, so a recycled pid is never mistaken for ours; None if the
    process is gone or a zombie (a zombie holds no ports or files)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    if fields[0] in ("Z", "X"):
        return None
    return (pid, fields[19])  # field 22 of stat, counted after "pid (comm)"


def _children(pid):
    """Pids of the direct children of pid (all its threads' /proc children lists)."""
    result = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return result
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                result.update(int(c) for c in f.read().split())
        except FileNotFoundError:
            pass
    return result


def _signal(pid, sig):
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


class SyncthingPair:
    """Two loopback-only Syncthing 1.19 instances "a" and "b" sharing folder FOLDER_ID.

        with SyncthingPair(folder_a, folder_b, work_dir) as pair:   # start() on enter
            ...write a file in folder_a...
            pair.sync("a", "note.md")      # scan on A, wait until B has it
            pair.pause("b"); ...edit both sides...; pair.resume("b"); pair.sync_both()

    work_dir holds the two Syncthing homes and logs (work_dir/a/home, work_dir/a/syncthing.log);
    the caller owns it and deletes it afterwards.
    """

    def __init__(self, folder_a, folder_b, work_dir):
        """Folders may already exist (with files: they are scanned on start); each is created,
        with its .stfolder marker, if needed."""
        self.folders = {"a": os.path.abspath(folder_a), "b": os.path.abspath(folder_b)}
        self.work_dir = os.path.abspath(work_dir)
        self.api_key = "notula-test-" + os.urandom(12).hex()
        self.gui_port = {}
        self.sync_port = {}
        self.ids = {}
        self.timings = {}         # name -> seconds, filled by start()
        self._monitors = {}       # side -> Popen of the monitor process
        self._processes = set()   # identities (pid, start time) of monitors and children
        self._logs = {}
        self._atexit = False

    # --- lifecycle -------------------------------------------------------------------------

    def start(self):
        """Generates both homes, starts B then A (staggered, see module doc), waits until they
        are connected and the folder is idle and in sync on both sides. Returns self. On any
        failure everything started so far is stopped before the exception propagates."""
        if self._monitors:
            raise RuntimeError("SyncthingPair already started")
        t0 = time.monotonic()
        try:
            self._setup()
            self._launch("b")
            self.wait_for(lambda: self._ready("b"), 30, "B's REST API answers")
            self.wait_for(lambda: self._dialed("b", "a"), 30, "B has dialled A once")
            t_a = time.monotonic()
            self._launch("a")
            self.wait_for(lambda: self._ready("a"), 30, "A's REST API answers")
            for me in SIDES:
                self.wait_for(lambda: self._connected(me, other(me)), 60,
                              f"{me.upper()} is connected to {other(me).upper()}")
            self.timings["connected_after_a_launch"] = time.monotonic() - t_a
            self._wait_in_sync(60)
            self.timings["start"] = time.monotonic() - t0
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self, timeout=10):
        """Stops every process this pair started and verifies that each one is gone: SIGTERM to
        each monitor (it forwards it to its child); a child whose monitor is gone but which is
        still alive gets SIGTERM itself; whatever is left after timeout seconds gets SIGKILL.
        Raises SyncthingError if anything survives that. Safe to call twice; also runs from
        __exit__ and at interpreter exit (atexit)."""
        if self._atexit:
            atexit.unregister(self.stop)
            self._atexit = False
        for side, monitor in self._monitors.items():
            self._note_children(side)  # once the monitor is gone they are orphans
            if monitor.poll() is None:
                monitor.terminate()
        terminated = {p for p in self._processes if p[0] in self._monitor_pids()}
        deadline = time.monotonic() + timeout
        while self._alive() and time.monotonic() < deadline:
            for identity in self._alive() - terminated:
                if not self._monitor_running_for(identity[0]):
                    _signal(identity[0], signal.SIGTERM)
                    terminated.add(identity)
            time.sleep(0.02)
        if self._alive():
            for identity in self._alive():
                _signal(identity[0], signal.SIGKILL)
            deadline = time.monotonic() + 5
            while self._alive() and time.monotonic() < deadline:
                time.sleep(0.02)
        survivors = self._alive()
        for log in self._logs.values():
            log.close()
        self._monitors.clear()
        self._logs.clear()
        if survivors:
            raise SyncthingError(f"syncthing processes survived SIGKILL: {sorted(survivors)}")
        self._processes.clear()

    def __enter__(self):
        """Starts the pair (unless already started) and returns it."""
        return self if self._monitors else self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # --- identity ----------------------------------------------------------------------------

    def device_id(self, side):
        """Full device id of side "a" or "b" (XXXXXXX-XXXXXXX-...)."""
        return self.ids[side]

    def short_id(self, side):
        """The 7-character short id, as it appears in conflict file names."""
        return self.ids[side][:7]

    def side_of(self, short_or_full_id):
        """"a" or "b" for a (short) device id, e.g. the one parsed from a conflict name."""
        for side in SIDES:
            if self.ids[side].startswith(short_or_full_id):
                return side
        raise KeyError(short_or_full_id)

    def folder(self, side):
        """Absolute path of the shared folder on that side."""
        return self.folders[side]

    # --- driving -----------------------------------------------------------------------------

    def api(self, side, method, path, body=None, timeout=10):
        """One REST call to that side's instance; path is after /rest/ (e.g. "system/status").
        Returns the decoded JSON, or None for an empty answer. Raises urllib.error.HTTPError."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.gui_port[side]}/rest/{path}", method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"X-API-Key": self.api_key, "Content-Type": "application/json"})
        with _OPENER.open(request, timeout=timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw.strip() else None

    def scan(self, side, path=None, timeout=60):
        """Rescans path (relative to the folder; None = whole folder) on that side. Returns when
        the scan is done and the result is in that side's database. Works on a side whose peer
        is paused (to make a conflict); fails on a paused folder."""
        query = f"db/scan?folder={FOLDER_ID}"
        if path is not None:
            query += "&sub=" + urllib.parse.quote(path)
        try:
            self.api(side, "POST", query, timeout=timeout)
        except urllib.error.HTTPError as error:  # e.g. 500 "folder is paused"
            raise SyncthingError(f"scan of {path or 'the folder'} on {side.upper()} failed: HTTP "
                                 f"{error.code} {error.read().decode(errors='replace').strip()}")

    def sync(self, writer, path=None, timeout=60):
        """Scans path (relative; None = whole folder) on writer, then waits until the WRITER
        reports the other device complete (100 %, nothing needed, see _peer_done).
        So afterwards the reader holds everything the writer has - as the writer knows it.
        Returns the seconds it took."""
        t0 = time.monotonic()
        self.scan(writer, path, timeout)
        reader = other(writer)
        self.wait_for(lambda: self._peer_done(writer, reader), timeout,
                      f"{writer.upper()} sees {reader.upper()} complete after scanning "
                      f"{path or 'the folder'}", detail=lambda: self._completion(writer, reader))
        return time.monotonic() - t0

    def sync_both(self, timeout=60):
        """Whole-folder sync in both directions, in three passes: A->B, B->A, A->B again, so
        that what pulling itself creates also arrives. E.g. after a conflict that B wins, pass 2
        returns once A has pulled B's version, so A's conflict copy is on A's disk; pass 3 scans
        it on A and waits until B has it. (If A wins, B makes the copy in pass 1 and pass 2
        brings it to A.) Both folders must be running. Returns the seconds it took."""
        t0 = time.monotonic()
        for writer in ("a", "b", "a"):
            self.sync(writer, None, timeout)
        return time.monotonic() - t0

    def pause(self, side):
        """Pauses the shared folder on that side (the devices stay connected). Until resume() its
        files can be edited without Syncthing noticing, and it takes nothing from the other side
        (which still sees it as needing everything: do not sync() towards a paused side)."""
        self._set_paused(side, True)

    def resume(self, side):
        """Resumes the folder on that side; Syncthing rescans it, then pulls. Waits only until the
        folder runs again, not until anything is synced: use sync() or sync_both() for that."""
        self._set_paused(side, False)

    def conflict_copies(self, side, name):
        """Sorted names of the conflict copies of name (relative path) on that side."""
        directory, base = os.path.split(os.path.join(self.folders[side], name))
        stem, ext = os.path.splitext(base)
        try:
            entries = os.listdir(directory)
        except FileNotFoundError:
            return []
        return sorted(e for e in entries if (info := parse_conflict_name(e))
                      and info["stem"] == stem and (info["ext"] or "") == ext)

    def wait_for(self, predicate, timeout, message, detail=None):
        """Polls predicate (every 20 ms) until it returns something true, and returns that.
        Exceptions from the predicate count as "not yet" (e.g. REST not up). On timeout raises
        SyncthingError with message, the last exception or detail() and the tails of the logs."""
        deadline = time.monotonic() + timeout
        last_error = None
        while True:
            try:
                value = predicate()
                if value:
                    return value
            except (OSError, ValueError, KeyError, TypeError) as error:  # URLError is an OSError
                last_error = error
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        why = f"last error: {last_error!r}" if last_error else ""
        if detail:
            try:
                why += f" state: {detail()}"
            except Exception as error:  # noqa: BLE001 - only for the message
                why += f" state: ({error!r})"
        raise SyncthingError(f"timed out after {timeout} s waiting until {message}. {why}\n"
                             + self._log_tails())

    # --- internals -------------------------------------------------------------------------

    def _setup(self):
        ports = _free_ports(4)
        self.gui_port = {"a": ports[0], "b": ports[1]}
        self.sync_port = {"a": ports[2], "b": ports[3]}
        for side in SIDES:
            home = self._home(side)
            if os.path.exists(os.path.join(home, "config.xml")):
                raise RuntimeError(f"{home} already holds a Syncthing home; use a fresh work_dir")
            os.makedirs(home)
            subprocess.run([SYNCTHING, "generate", f"--home={home}", "--skip-port-probing",
                            "--no-default-folder"], check=True, env=self._env(),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.ids[side] = subprocess.run(
                [SYNCTHING, "serve", f"--home={home}", "--device-id"], check=True,
                env=self._env(), capture_output=True, text=True).stdout.strip()
            os.makedirs(os.path.join(self.folders[side], ".stfolder"), exist_ok=True)
        for side in SIDES:
            self._write_config(side)

    def _home(self, side):
        return os.path.join(self.work_dir, side, "home")

    def _env(self):
        return {**os.environ, **SYNCTHING_ENV}

    def _write_config(self, me):
        """The complete config.xml (version taken from the generated one), as in the lab."""
        peer = other(me)
        path = os.path.join(self._home(me), "config.xml")
        with open(path) as f:
            version = re.search(r'<configuration version="(\d+)"', f.read()).group(1)
        address = {s: escape(f"tcp://127.0.0.1:{self.sync_port[s]}") for s in SIDES}
        config = f"""<configuration version="{version}">
  <folder id="{FOLDER_ID}" label="{FOLDER_ID}" path={quoteattr(self.folders[me])} type="sendreceive"
          rescanIntervalS="10" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false"
          autoNormalize="true">
    <filesystemType>basic</filesystemType>
    <device id="{self.ids['a']}"></device>
    <device id="{self.ids['b']}"></device>
    <maxConflicts>10</maxConflicts>
    <markerName>.stfolder</markerName>
  </folder>
  <device id="{self.ids[me]}" name="{me}"><address>{address[me]}</address></device>
  <device id="{self.ids[peer]}" name="{peer}"><address>{address[peer]}</address>
    <autoAcceptFolders>false</autoAcceptFolders></device>
  <gui enabled="true" tls="false"><address>127.0.0.1:{self.gui_port[me]}</address>
    <apikey>{self.api_key}</apikey></gui>
  <options>
    <listenAddress>{address[me]}</listenAddress>
    <globalAnnounceEnabled>false</globalAnnounceEnabled>
    <localAnnounceEnabled>false</localAnnounceEnabled>
    <relaysEnabled>false</relaysEnabled>
    <natEnabled>false</natEnabled>
    <urAccepted>-1</urAccepted>
    <urSeen>3</urSeen>
    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
    <crashReportingEnabled>false</crashReportingEnabled>
    <stunKeepaliveStartS>0</stunKeepaliveStartS>
    <announceLANAddresses>false</announceLANAddresses>
    <startBrowser>false</startBrowser>
    <reconnectionIntervalS>5</reconnectionIntervalS>
    <setLowPriority>false</setLowPriority>
    <restartOnWakeup>false</restartOnWakeup>
  </options>
</configuration>
"""
        with open(path, "w") as f:
            f.write(config)

    def _launch(self, side):
        if not self._atexit:
            atexit.register(self.stop)
            self._atexit = True
        log = open(os.path.join(self.work_dir, side, "syncthing.log"), "ab")
        self._logs[side] = log
        monitor = subprocess.Popen(
            [SYNCTHING, "serve", f"--home={self._home(side)}", "--no-browser", "--no-restart",
             "--no-upgrade", "--no-default-folder",
             f"--gui-address=http://127.0.0.1:{self.gui_port[side]}", "--logflags=3"],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=self._env())
        self._monitors[side] = monitor
        identity = _proc_identity(monitor.pid)
        if identity:
            self._processes.add(identity)

    def _note_children(self, side):
        """Remembers the monitor's children now: once the monitor is gone they are orphans."""
        found = False
        for pid in _children(self._monitors[side].pid):
            identity = _proc_identity(pid)
            if identity:
                self._processes.add(identity)
                found = True
        return found

    def _alive(self):
        """Our processes that still run. Reaps exited monitors first (poll), so they count as
        gone; orphaned children are reaped by init."""
        for monitor in self._monitors.values():
            monitor.poll()
        return {p for p in self._processes if _proc_identity(p[0]) == p}

    def _monitor_pids(self):
        return {m.pid for m in self._monitors.values()}

    def _monitor_running_for(self, pid):
        """True while pid is a monitor that runs, or the child of a monitor that runs."""
        for monitor in self._monitors.values():
            if monitor.poll() is None and (pid == monitor.pid or pid in _children(monitor.pid)):
                return True
        return False

    def _ready(self, side):
        """REST answers, it is OUR instance (not a stray one on that port), and the monitor's
        child process (the real syncthing) is known, so stop() can check it."""
        if self._monitors[side].poll() is not None:
            raise SyncthingError(f"syncthing {side.upper()} exited with code "
                                 f"{self._monitors[side].returncode}\n" + self._log_tails())
        status = self.api(side, "GET", "system/status", timeout=2)
        return status["myID"] == self.ids[side] and self._note_children(side)

    def _dialed(self, me, peer):
        status = self.api(me, "GET", "system/status", timeout=2)
        return f"tcp://127.0.0.1:{self.sync_port[peer]}" in (status.get("lastDialStatus") or {})

    def _connected(self, me, peer):
        connections = self.api(me, "GET", "system/connections", timeout=2)["connections"]
        return connections.get(self.ids[peer], {}).get("connected", False)

    def _completion(self, me, peer):
        return self.api(me, "GET", f"db/completion?folder={FOLDER_ID}&device={self.ids[peer]}",
                        timeout=5)

    def _peer_done(self, me, peer):
        """me knows that peer holds every file of the global state. 1.19's db/completion alone is
        not enough: for a device that has never announced a file (sequence 0, e.g. an empty
        folder) it says 100 % at once; db/remoteneed lists what peer lacks in that case too."""
        c = self._completion(me, peer)
        if c["completion"] != 100 or c["needItems"] != 0 or c.get("needDeletes", 0) != 0:
            return False
        need = self.api(me, "GET", f"db/remoteneed?folder={FOLDER_ID}&device={self.ids[peer]}"
                        "&page=1&perpage=1", timeout=5)
        return not need["files"]

    def _idle(self, side):
        status = self.api(side, "GET", f"db/status?folder={FOLDER_ID}", timeout=5)
        return status["state"] == "idle" and status["needTotalItems"] == 0

    def _wait_in_sync(self, timeout):
        for me in SIDES:
            self.wait_for(lambda: self._peer_done(me, other(me)), timeout,
                          f"{me.upper()} sees {other(me).upper()} complete",
                          detail=lambda: self._completion(me, other(me)))
        for me in SIDES:
            self.wait_for(lambda: self._idle(me), timeout, f"folder idle on {me.upper()}")

    def _set_paused(self, side, paused):
        """The PATCH returns once the folder is stopped/started (measured: ~3 ms). 1.19 reports
        the state of a paused folder as "" (no runner); wait for that, or for any real state."""
        self.api(side, "PATCH", f"config/folders/{FOLDER_ID}", {"paused": paused})
        self.wait_for(lambda: (self._folder_state(side) == "") == paused, 30,
                      f"the folder on {side.upper()} is {'paused' if paused else 'running'}",
                      detail=lambda: repr(self._folder_state(side)))

    def _folder_state(self, side):
        return self.api(side, "GET", f"db/status?folder={FOLDER_ID}", timeout=5)["state"]

    def _log_tails(self, lines=15):
        text = []
        for side in SIDES:
            path = os.path.join(self.work_dir, side, "syncthing.log")
            try:
                with open(path, errors="replace") as f:
                    tail = f.readlines()[-lines:]
            except FileNotFoundError:
                continue
            text.append(f"--- last lines of {path}:\n" + "".join(tail))
        return "".join(text)


# --- self-check --------------------------------------------------------------------------------

def _write(path, text, mtime=None):
    with open(path, "w") as f:
        f.write(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def _check(condition, message):
    if not condition:
        raise AssertionError(message)


def _note_first_copies(pair, name, t0, first_seen, timeout=30):
    deadline = time.monotonic() + timeout
    while len(first_seen) < 2 and time.monotonic() < deadline:
        for side in SIDES:
            if side not in first_seen and pair.conflict_copies(side, name):
                first_seen[side] = time.monotonic() - t0
        time.sleep(0.005)


def _self_check():
    """Makes a real conflict and checks what both sides end up with. Returns 0 on success."""
    t0 = time.monotonic()

    def mark(what):
        print(f"{time.monotonic() - t0:6.2f} s  {what}", flush=True)

    with tempfile.TemporaryDirectory(prefix="syncthing-pair-") as tmp:
        folder_a, folder_b = os.path.join(tmp, "notes-a"), os.path.join(tmp, "notes-b")
        os.makedirs(folder_a)  # one folder exists already, the other does not
        with SyncthingPair(folder_a, folder_b, tmp) as pair:
            mark(f"started: A={pair.short_id('a')} B={pair.short_id('b')} "
                 f"(connected {pair.timings['connected_after_a_launch']:.2f} s after A's launch)")
            note_a, note_b = os.path.join(folder_a, "note.md"), os.path.join(folder_b, "note.md")
            _write(note_a, "base\n")
            took = pair.sync("a", "note.md")
            with open(note_b, "rb") as f:
                _check(f.read() == b"base\n", "B does not hold A's bytes after sync")
            mark(f"note.md synced A->B in {took:.2f} s")

            pair.pause("b")
            mark("B's folder paused")
            # A's edit is the older one: backdated by 2 s instead of sleeping 1+ s before B's
            # edit. Syncthing only compares the mtimes, so this is the same conflict, faster.
            now = time.time()
            _write(note_a, "from A\n", mtime=now - 2)
            pair.scan("a", "note.md")
            _write(note_b, "from B\n", mtime=now)
            mark("edited on both sides")
            # A thread notes when the conflict copy first appears on each side (5 ms polls).
            first_seen = {}
            t_resume = time.monotonic()
            watcher = threading.Thread(target=_note_first_copies, daemon=True,
                                       args=(pair, "note.md", t_resume, first_seen))
            watcher.start()
            pair.resume("b")
            mark("B's folder resumed")
            took = pair.sync_both()
            mark(f"sync_both returned after {took:.2f} s")

            def settled():
                if not (pair.conflict_copies("a", "note.md") and
                        pair.conflict_copies("b", "note.md")):
                    return False
                snapshot_a = folder_snapshot(folder_a)
                return snapshot_a == folder_snapshot(folder_b) and snapshot_a

            # sync_both's third pass makes this true already when it returns (see its docstring).
            snapshot = pair.wait_for(settled, 30,
                                     "a note.sync-conflict-*.md on both sides, same files")
            mark("conflict copy on both sides, identical folders")
            watcher.join(1)
            copies = pair.conflict_copies("a", "note.md")
            _check(len(copies) == 1, f"expected one conflict copy, got {copies}")
            info = parse_conflict_name(copies[0])
            winner = pair.side_of(info["device"])
            _check(snapshot == {"note.md": b"from B\n", copies[0]: b"from A\n"},
                   f"unexpected folder contents: {snapshot}")
            _check(winner == "b", f"conflict name carries {info['device']} ({winner}), not B")
            print(f"conflict file: {copies[0]}")
            print(f"  holds the older version ('from A'); device id in the name: {info['device']}"
                  f" = {winner.upper()} ({pair.device_id(winner)}), whose newer version won")
            order = sorted(first_seen, key=first_seen.get)
            print("  copy first seen, counted from resume(): "
                  + ", ".join(f"{s.upper()} {first_seen[s]:.2f} s" for s in order))
        mark("stopped")
    return 0


def main():
    # SIGTERM (e.g. a test runner's timeout) must also run the finally/__exit__ cleanup.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return _self_check()
    except (SyncthingError, AssertionError) as error:
        print(f"FAIL: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
