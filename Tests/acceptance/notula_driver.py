"""Drives the real Notula binary from outside, the way a user (or a screen reader) would:
xdotool for the window, keys and clicks, AT-SPI (pyatspi) to read what is on screen.

Must run inside scripts/with-display.sh (DISPLAY, a D-Bus session and the AT-SPI bus)
and with the system Python (/usr/bin/python3), which has pyatspi.
"""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import tempfile
import threading
import time
import zlib

import pyatspi
from gi.repository import Atspi
from gi.repository import GLib

# GTK 4 apps have no AT-SPI cache object; libatspi warns about it once per app. Not a failure.
GLib.log_set_handler("dbind", GLib.LogLevelFlags.LEVEL_WARNING, lambda *args: None)

APP_ID = "io.github.notula.Notula"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WINDOW_TITLE_PATTERN = "^Notula$"
BANNER_NOT_UTF8 = "This file is not UTF-8 text. Notula shows it read-only and never changes it."


TESTS = []


def acceptance(function):
    """Registers an acceptance test (run.py runs them in the order they were defined)."""
    TESTS.append(function)
    return function


def mount(*args):
    return subprocess.run(["mount", *args], capture_output=True, text=True)


def tmpfs_library(home, size="1m"):
    """Mounts a small, real tmpfs as the library folder (a disk to fill or make read-only).
    Returns the folder, or None where mounting is not allowed (not root)."""
    library = home.make_library()
    if mount("-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", library).returncode != 0:
        return None
    return library


def screenshot(file_name):
    """With NOTULA_SHOTS=DIR set (make screenshot), saves the window area of the screen (so a
    dialog over the window shows too) as DIR/file_name."""
    folder = os.environ.get("NOTULA_SHOTS")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    time.sleep(0.4)  # the dialog's last frame
    subprocess.run(["import", "-window", "root", "-crop", "960x640+0+0", os.path.join(folder, file_name)],
                   capture_output=True, timeout=20)


class TestFailure(AssertionError):
    """A check about what the user sees or keeps did not hold."""


class TestSkipped(Exception):
    """The test cannot run here (not root, a tool missing); the runner counts it as skipped,
    and under CI (CI=true) as failed unless it is on run.py's allow-list."""


def skip(reason):
    raise TestSkipped(reason)


def check(condition, message):
    if not condition:
        raise TestFailure(message)


# How much slower than a quiet machine this one may be (`make soak` keeps a core busy beside
# two test displays on two cores: 3). Every wait is for something the app must do, so a longer
# bound costs nothing when it does it; it is never a pause.
WAIT_SCALE = float(os.environ.get("NOTULA_WAIT_SCALE", "1"))


def wait_for(predicate, timeout, message, interval=0.05):
    """Polls `predicate` until it returns a truthy value (returned) or `timeout` seconds pass
    (times `WAIT_SCALE`). `message` may be a callable, called at the end to describe what was
    seen instead."""
    timeout *= WAIT_SCALE
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except TestFailure:
            raise
        except Exception as error:  # AT-SPI or X errors while the app starts or changes
            last_error = error
        if time.monotonic() >= deadline:
            text = message() if callable(message) else message
            if last_error is not None:
                text += f" (last error: {last_error!r})"
            raise TestFailure(f"{text} [after {timeout:g} s]")
        time.sleep(interval)


def note_bytes(home, file_name):
    """The bytes of a note in the library, as the user's file holds them."""
    with open(os.path.join(home.library, file_name), "rb") as handle:
        return handle.read()


def wait_file(home, file_name, expected, timeout=8):
    """Waits until the note's file holds exactly `expected` (autosave included)."""
    wait_for(lambda: note_bytes(home, file_name) == expected, timeout,
             lambda: f"{file_name} holds {note_bytes(home, file_name)!r}, expected {expected!r}")


def history_versions(home):
    """Every version in the app's note history (`NoteHistory`): (note path or None, origin,
    text), newest first, read from its SQLite store as another program would."""
    store = os.path.join(home.data, "notula", "History", "history.sqlite")
    if not os.path.exists(store):
        return []
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as connection:
        rows = connection.execute("SELECT notes.path, versions.origin, texts.data FROM versions JOIN notes ON notes.id = versions.note "
                                  "JOIN texts ON texts.key = versions.key ORDER BY versions.date DESC, versions.id DESC").fetchall()
    return [(path, origin, zlib.decompress(data).decode("utf-8", "replace")) for path, origin, data in rows]


def run_tool(*args, timeout=10, check_rc=True):
    result = subprocess.run(list(args), capture_output=True, text=True, timeout=timeout)
    if check_rc and result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def xdotool(*args, timeout=10, check_rc=True):
    return run_tool("xdotool", *args, timeout=timeout, check_rc=check_rc)


def visible_notula_windows():
    """X window ids of every visible window titled exactly "Notula"."""
    out = xdotool("search", "--onlyvisible", "--name", WINDOW_TITLE_PATTERN, check_rc=False)
    return [line.strip() for line in out.splitlines() if line.strip()]


def app_name_owned():
    """Whether some process owns the app's name on the session bus (a running instance)."""
    out = run_tool("gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                   "--object-path", "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner",
                   APP_ID, timeout=10)
    return "true" in out


def name_owner():
    """The process owning the app's name: its pid and command line (a failure's message)."""
    out = run_tool("gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                   "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", APP_ID, timeout=10, check_rc=False)
    pid = "".join(c for c in out.split(",")[0] if c.isdigit())
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
        return f"pid {pid}: {command}"
    except OSError:
        return f"pid {pid or '?'} ({out.strip()})"


def press_in_window(title, key):
    """Focuses the X window titled `title` (app.click focuses the main window; a dialog that
    closed may hand the focus to either) and presses `key`."""
    wid = wait_for(lambda: xdotool("search", "--onlyvisible", "--name", f"^{title}$", check_rc=False).split(), 3,
                   f"no X window titled '{title}'")[0]
    xdotool("windowfocus", "--sync", wid)
    xdotool("key", "--clearmodifiers", key)


def window_geometry(wid):
    """(x, y, width, height) of an X window, as xdotool reports it."""
    out = xdotool("getwindowgeometry", "--shell", str(wid))
    values = dict(line.split("=", 1) for line in out.splitlines() if "=" in line)
    return int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"])


def hold_display(timeout=10):
    """Keeps one X connection open for as long as the returned process lives.

    Xvfb (started without -noreset) resets itself whenever its last client disconnects, and a
    client connecting during that reset gets "cannot open display". Between two launches of the
    app only short-lived xdotool calls connect, so without a held connection a launch fails now
    and then. `xprop -root -spy` just sits connected. Stop it with `release_display`."""
    deadline = time.monotonic() + timeout
    while True:
        holder = subprocess.Popen(["xprop", "-root", "-spy"], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.2)
        if holder.poll() is None:
            probe = subprocess.run(["xdpyinfo"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if probe.returncode == 0 and holder.poll() is None:
                return holder
        release_display(holder)
        if time.monotonic() > deadline:
            raise RuntimeError(f"cannot hold a connection to the X display {os.environ.get('DISPLAY')}")


def release_display(holder):
    if holder is not None and holder.poll() is None:
        holder.terminate()
        try:
            holder.wait(5)
        except subprocess.TimeoutExpired:
            holder.kill()
            holder.wait()


# ---------------------------------------------------------------------------------------------
# A private home for one test.

class TempHome:
    """A throwaway HOME with its XDG folders; the app's library and state live inside."""

    def __init__(self, prefix="notula-acceptance-", first_launch=False):
        self.root = tempfile.mkdtemp(prefix=prefix)
        self.data = os.path.join(self.root, "data")
        self.config = os.path.join(self.root, "config")
        self.state = os.path.join(self.root, "state")
        self.cache = os.path.join(self.root, "cache")
        for folder in (self.data, self.config, self.state, self.cache):
            os.makedirs(folder, mode=0o700)
        if not first_launch:  # the storage question was answered: keep notes on this computer
            self.write_preferences({"storage": "local"})

    @classmethod
    def at(cls, root):
        """The home already made at `root` (by another process: see `run_as_user`)."""
        home = cls.__new__(cls)
        home.root = root
        home.data, home.config = os.path.join(root, "data"), os.path.join(root, "config")
        home.state, home.cache = os.path.join(root, "state"), os.path.join(root, "cache")
        return home

    def give_to(self, user):
        """Makes every file and folder of this home `user`'s (a pwd entry), as a real home is."""
        for folder, names, files in os.walk(self.root):
            for path in [folder] + [os.path.join(folder, name) for name in names + files]:
                os.lchown(path, user.pw_uid, user.pw_gid)

    @property
    def preferences_file(self):
        return os.path.join(self.config, "notula", "preferences.json")

    def write_preferences(self, preferences):
        os.makedirs(os.path.dirname(self.preferences_file), mode=0o700, exist_ok=True)
        with open(self.preferences_file, "w", encoding="utf-8") as handle:
            json.dump(preferences, handle)

    @property
    def library(self):
        return os.path.join(self.data, "notula", "Notes")

    @property
    def window_state_file(self):
        return os.path.join(self.state, "notula", "window.json")

    @property
    def trash_files(self):
        return os.path.join(self.data, "Trash", "files")

    @property
    def trash_info(self):
        return os.path.join(self.data, "Trash", "info")

    def env(self, extra=None):
        env = dict(os.environ)
        env.update(HOME=self.root, XDG_DATA_HOME=self.data, XDG_CONFIG_HOME=self.config,
                   XDG_STATE_HOME=self.state, XDG_CACHE_HOME=self.cache)
        # English unless a test asks for a language; translations from the source tree's build.
        env.pop("LANGUAGE", None)
        env.setdefault("NOTULA_LOCALEDIR", os.path.join(REPO, "build", "locale"))
        if extra:
            env.update(extra)
        return env

    def make_library(self):
        os.makedirs(self.library, mode=0o700, exist_ok=True)
        os.chmod(self.library, 0o700)
        return self.library

    def write_note(self, name, content, age_seconds=0.0):
        """Writes a note file by hand (bytes or str) with mtime `age_seconds` in the past."""
        self.make_library()
        path = os.path.join(self.library, name)
        data = content.encode("utf-8") if isinstance(content, str) else content
        with open(path, "wb") as handle:
            handle.write(data)
        os.chmod(path, 0o600)
        when = time.time() - age_seconds
        os.utime(path, (when, when))
        return path

    def library_names(self):
        try:
            return sorted(os.listdir(self.library))
        except FileNotFoundError:
            return []

    def md_files(self):
        return [name for name in self.library_names() if name.endswith(".md")]

    def remove(self):
        shutil.rmtree(self.root, ignore_errors=True)


def run_as_user(user, module, function, binary, home, timeout=60):
    """Runs `module.function(binary, home)` as `user` (a pwd entry: an unprivileged one, since
    root ignores file permissions) in a D-Bus session and AT-SPI bus of that user's own, on this
    display: the app and the test's AT-SPI client then run as that user. Needs root; the home
    must be the user's (`TempHome.give_to`). A failure there fails here, with its message."""
    inner = [os.path.join(REPO, "scripts", "with-display.sh"), "/usr/bin/python3",
             os.path.join(os.path.dirname(os.path.abspath(__file__)), "as_user.py"), module, function, os.path.abspath(binary), home.root]
    env = dict(os.environ, HOME=home.root, NOTULA_IN_SESSION="1")
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    env.pop("AT_SPI_BUS_ADDRESS", None)
    result = subprocess.run(["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups",
                             "dbus-run-session", "--", *inner], env=env, capture_output=True, text=True, timeout=timeout,
                            start_new_session=True)
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    for line in lines:
        if not line.startswith(("PASS", "FAIL")):
            print(f"  ({user.pw_name}) {line}")
    check(result.returncode == 0 and lines and lines[-1] == "PASS",
          f"as {user.pw_name}: {lines[-1] if lines else '(no result)'}; {result.stderr.strip()[-400:]}")


# ---------------------------------------------------------------------------------------------
# AT-SPI helpers.

def _safe(call, default=None):
    try:
        return call()
    except Exception:
        return default


# AT-SPI's role names as at-spi2-core 2.46 (Debian 12) says them, for the few a newer one
# (2.56, Debian 13) says otherwise: the tests compare against one set of names.
ROLE_NAMES = {"button": "push button"}


# Controls a user presses, which AT-SPI presses as well (their first action); a text or a
# list row is clicked where it is.
# A GtkButton, or a GtkToggleButton or GtkMenuButton (whose own button is one): pressed through
# AT-SPI, each emits "clicked" 250 ms later (`Notula.press`).
BUTTON_ROLES = {"push button", "toggle button"}
PRESSABLE_ROLES = {"push button", "toggle button", "check box", "radio button", "menu item", "check menu item",
                   "radio menu item", "page tab", "link"}


def role(acc):
    found = _safe(acc.getRoleName, "")
    return ROLE_NAMES.get(found, found)


def name(acc):
    return _safe(lambda: acc.name, "") or ""


def children(acc):
    kids = []
    count = _safe(lambda: acc.childCount, 0) or 0
    for index in range(count):
        child = _safe(lambda: acc.getChildAtIndex(index))
        if child is not None:
            kids.append(child)
    return kids


def has_state(acc, state):
    return bool(_safe(lambda: acc.getState().contains(state), False))


def find_all(root, predicate, limit=100000):
    """Depth-first search of the accessible tree."""
    found = []
    stack = [root]
    seen = 0
    while stack and seen < limit:
        acc = stack.pop()
        seen += 1
        if predicate(acc):
            found.append(acc)
        stack.extend(reversed(children(acc)))
    return found


def find_one(root, predicate):
    found = find_all(root, predicate)
    return found[0] if found else None


def extents_in_window(acc):
    """(x, y, width, height) relative to the toplevel window (GTK 4 cannot give screen ones)."""
    box = acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    return box.x, box.y, box.width, box.height


def settled_extents(acc, timeout=3):
    """The object's extents once two reads 50 ms apart agree (bounded: after `timeout` the
    last read); a wait on the app's layout, not a fixed pause."""
    last = extents_in_window(acc)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = extents_in_window(acc)
        if now == last and now[2] > 0 and now[3] > 0:
            return now
        last = now
    return last


# ---------------------------------------------------------------------------------------------
# The app.

# Every app instance and helper process a test starts, stopped after the test whatever way it
# ended (`stop_leftovers`, run.py): a test that fails before its own cleanup must not leave an
# instance on the session bus, or a window, for the next test to meet.
_STARTED_IN_TEST = []


def track(process):
    """A helper process (an inotifywait, a peer app) to be stopped after the test."""
    _STARTED_IN_TEST.append(process)
    return process


def stop_leftovers():
    for started in _STARTED_IN_TEST:
        if isinstance(started, Notula):
            started.cleanup()
        elif started.poll() is None:
            try:
                os.killpg(started.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                started.kill()
            started.wait(5)
    _STARTED_IN_TEST.clear()


class Notula:
    """One running (or not yet running) instance of the binary in a TempHome.

    Every process it starts is remembered and stopped in `cleanup()`, so a failed test never
    leaves an instance on the session bus for the next test to talk to."""

    def __init__(self, binary, home, extra_env=None):
        self.binary = os.path.abspath(binary)
        self.home = home
        self.extra_env = dict(extra_env or {})
        # The accessible names the driver finds its way by, in the language the app speaks.
        self.list_name, self.editor_name = "Notes", "Note text"
        self._toolkit_version = None
        _STARTED_IN_TEST.append(self)
        self.process = None
        self.output = []
        self.wid = None
        self._spawned = []
        self._last_click = None

    # -- processes ------------------------------------------------------------------------

    def env(self):
        # Key and mouse button presses reported as they reach a window of notes: `keys_handled`
        # waits on them, `last_click` says whether a click arrived.
        return self.home.env({"NOTULA_REPORT_INPUT": "1", **self.extra_env})

    def _reader(self, process, sink):
        try:
            for line in process.stdout:
                sink.append(line.rstrip("\n"))
        except Exception:
            pass

    def spawn(self, *args, capture=True):
        """Starts the binary with this home's environment (a second launch, `--new-note`)."""
        process = subprocess.Popen([self.binary, *args], env=self.env(), stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
                                   stderr=subprocess.STDOUT if capture else subprocess.DEVNULL,
                                   text=True, errors="replace", start_new_session=True)
        process.lines = []
        if capture:
            threading.Thread(target=self._reader, args=(process, process.lines), daemon=True).start()
        self._spawned.append(process)
        return process

    def launch(self, *args, wait_window=True, timeout=15):
        check(self.process is None or self.process.poll() is not None, "app already running")
        check(not visible_notula_windows(),
              f"a Notula window is already on the display before launch: {visible_notula_windows()}")
        # A previous instance that just exited may still hold the bus name for a moment; a launch
        # then would hand over to it and exit.
        wait_for(lambda: not app_name_owned(), 5, lambda: f"{APP_ID} is still owned on the session bus, by {name_owner()}")
        self.wid = None
        self.process = self.spawn(*args)
        self.output = self.process.lines
        if wait_window:
            self.wait_window(timeout)
        return self

    def is_running(self):
        return self.process is not None and self.process.poll() is None

    def wait_window(self, timeout=15):
        def window():
            check(self.process.poll() is None,
                  f"notula exited with {self.process.returncode} before its window appeared; output: {self.tail()}")
            windows = visible_notula_windows()
            return windows[0] if len(windows) == 1 else None
        self.wid = wait_for(window, timeout, lambda: f"no visible 'Notula' window; windows={visible_notula_windows()}")
        return self.wid

    def tail(self, lines=8):
        return " | ".join(self.output[-lines:]) if self.output else "(none)"

    def wait_exit(self, process=None, timeout=10):
        process = process or self.process
        try:
            return process.wait(timeout)
        except subprocess.TimeoutExpired:
            # What kept it: a window still shown (a dialog?) and what it printed last.
            shown = [xdotool("getwindowname", wid, check_rc=False).strip()
                     for wid in xdotool("search", "--onlyvisible", "--pid", str(process.pid), check_rc=False).split()]
            printed = " | ".join(getattr(process, "lines", [])[-8:]) or "(nothing)"
            raise TestFailure(f"process {process.pid} did not exit within {timeout} s; its windows shown: {shown}; it printed: {printed}")

    def quit(self, timeout=10):
        """Ctrl+Q, as a user quits; waits for the process to end and returns its exit status."""
        check(self.is_running(), f"app is not running (exit {self.process and self.process.returncode}); output: {self.tail()}")
        self.focus()
        self.key("ctrl+q")
        status = self.wait_exit(timeout=timeout)
        wait_for(lambda: not visible_notula_windows(), 5, "the Notula window is still visible after quitting")
        self.wid = None
        return status

    def cleanup(self):
        for process in self._spawned:
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    try:
                        process.kill()
                    except ProcessLookupError:
                        pass
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                pass
            if process.stdout:
                try:
                    process.stdout.close()
                except Exception:
                    pass
        self._spawned = []

    # -- keyboard and mouse -----------------------------------------------------------------

    def focus(self):
        if self.wid is None:
            self.wait_window()
        xdotool("windowfocus", "--sync", str(self.wid))

    def key(self, *keys):
        xdotool("key", "--clearmodifiers", "--delay", "40", *keys)

    def set_caret(self, editor, offset):
        """Puts the text cursor of `editor` (in the focused window) at `offset`. GTK 4.18's text
        views refuse AT-SPI's SetCaretOffset, so there it goes by keys, as a keyboard user
        moves it: a click into the text (of the window `self.wid`), Ctrl+Home, Down to its line
        and Right to its column (lines that do not wrap)."""
        text = editor.queryText()
        try:
            if text.setCaretOffset(offset):
                return
        except Exception:
            pass
        self.click(editor)
        wait_for(lambda: has_state(editor, pyatspi.STATE_FOCUSED), 5, "a click into the text did not focus it")
        xdotool("key", "--clearmodifiers", "ctrl+Home")
        wait_for(lambda: text.caretOffset == 0, 5, lambda: f"Ctrl+Home left the cursor at {text.caretOffset}")
        before = text.getText(0, offset)
        line, column = before.count("\n"), len(before) - (before.rfind("\n") + 1)
        for key, count in (("Down", line), ("Right", column)):
            if count:
                xdotool("key", "--clearmodifiers", "--delay", "8", *([key] * count))
        wait_for(lambda: text.caretOffset == offset, 10,
                 lambda: f"the cursor is at {text.caretOffset}, not {offset} (line {line}, column {column}); "
                         f"focused: {has_state(editor, pyatspi.STATE_FOCUSED)}")

    def keys_handled(self, timeout=10):
        """Returns once the app has handled every key sent before: it sends Shift_R (which
        changes nothing) and waits for the app to report that key reaching its window (keys
        are handled in order). A check that typing changed nothing follows this, never a pause."""
        shift_r = "65506"
        def reported():
            return sum(1 for line in list(self.output) if line == f"notula-key {shift_r}")
        before = reported()
        self.key("Shift_R")
        wait_for(lambda: reported() > before, timeout,
                 lambda: f"the app never reported the key sent after the others; output: {self.tail()}")

    def bus_messages_handled(self):
        """Returns once the app's main loop has handled every D-Bus message the bus had for it
        before (a desktop setting's change signal, say): a method call the main loop answers
        (org.gtk.Actions.List of the application) comes after them."""
        run_tool("gdbus", "call", "--session", "--dest", APP_ID, "--object-path", "/" + APP_ID.replace(".", "/"),
                 "--method", "org.gtk.Actions.List", timeout=10)

    def type(self, text):
        xdotool("type", "--clearmodifiers", "--delay", "30", "--", text, timeout=max(10, len(text)))

    def enter_path(self, chooser, path, location_key=None):
        """Puts `path` into the focused name or location field of GTK's file `chooser` at once
        (pasted: typed letter by letter, GTK's inline completion of the folder part, arriving
        late under load, lands in the middle of what is still being typed), waits until the
        field holds exactly it, then Enter. `location_key` ("ctrl+l") opens the location field
        first (a folder chooser)."""
        if location_key:
            self.key(location_key)
        def focused_field():
            return next(iter(find_all(chooser, lambda a: role(a) == "text" and has_state(a, pyatspi.STATE_FOCUSED))), None)
        field = wait_for(focused_field, 8, "the file chooser never had the focus in its name field")
        clipboard = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-i"], stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        clipboard.stdin.write(path.encode())
        clipboard.stdin.close()
        try:
            wait_for(lambda: subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True).stdout == path.encode(),
                     5, "xclip does not offer the path")
            self.key("ctrl+a")
            self.key("ctrl+v")
            def text():
                content = field.queryText()
                return content.getText(0, content.characterCount)
            # GTK 4.18's completion adds the "/" of a folder the path names; with it, Enter goes
            # into the folder (and Select then takes the subfolder selected there), so it goes.
            wait_for(lambda: text() in (path, path + "/"), 8, lambda: f"the chooser's field holds {text()!r}, not {path!r}")
            if text() == path + "/":
                self.key("BackSpace")
                wait_for(lambda: text() == path, 5, lambda: f"the chooser's field holds {text()!r}, not {path!r}")
        finally:
            clipboard.kill()
            clipboard.wait()
        self.key("Return")

    def click_at(self, x, y, button=1):
        """Clicks at window-relative coordinates. The pointer leaves the spot first: resting
        there since an earlier step, it may have brought up a tooltip (a surface of its own,
        over the spot), which would take the click."""
        self.focus()
        self.hover_at(1, 1)
        self.hover_at(x, y)
        self._last_click = (int(x), int(y), len(self.output), self.pointer_window())
        xdotool("click", str(button))

    def pointer_window(self):
        """What is under the pointer: the app's window, or which others, topmost first (a
        failure's detail). Read from the X server's own list of windows: with no window manager
        xdotool cannot say."""
        shell = dict(line.split("=", 1) for line in xdotool("getmouselocation", "--shell", check_rc=False).splitlines() if "=" in line)
        x, y = int(shell.get("X", -1)), int(shell.get("Y", -1))
        tree = run_tool("xwininfo", "-root", "-children", check_rc=False)  # bottom to top
        viewable = {int(line) for line in xdotool("search", "--onlyvisible", "--name", "", check_rc=False).split()}
        under = []
        for match in re.finditer(r"^\s+(0x[0-9a-f]+) (.*?): .*?(\d+)x(\d+)\+(-?\d+)\+(-?\d+)", tree, re.M):
            wid, title, width, height, left, top = match.groups()
            inside = int(left) <= x < int(left) + int(width) and int(top) <= y < int(top) + int(height)
            if inside and int(wid, 16) in viewable:
                if int(wid, 16) == int(self.wid):
                    under.append(f"the app's window {hex(int(self.wid))}")
                else:
                    # A popup (a popover, a tooltip) is override-redirect: which one took the press.
                    popup = "Override Redirect State: yes" in run_tool("xwininfo", "-id", wid, check_rc=False)
                    under.append(f"{wid} {title} {width}x{height}+{left}+{top}{' override-redirect' if popup else ''}")
        return f"pointer at ({x}, {y}) over {list(reversed(under)) or 'no window'}"

    def last_click(self):
        """Where the last click was sent and the presses the windows of notes reported since
        (a failure's detail: a click that opened nothing either never reached the window or
        landed beside its target)."""
        if self._last_click is None:
            return "no click sent"
        x, y, mark, under = self._last_click
        presses = [line.split(" ", 1)[1] for line in list(self.output)[mark:] if line.startswith("notula-press ")]
        return f"clicked at ({x}, {y}), {under}; presses reported since: {presses or 'none'}; window at {self.geometry()}"

    def hover_at(self, x, y):
        """Moves the pointer to window-relative coordinates, without a click."""
        xdotool("mousemove", "--window", str(self.wid), str(int(x)), str(int(y)))

    def hover_toast(self):
        """Holds the toast: the pointer at the bottom middle of the main window, where it shows
        (a toast does not expire while hovered), found without a walk of the AT-SPI tree."""
        _, _, width, height = self.geometry()
        self.hover_at(width // 2, height - 30)

    def click(self, acc):
        """Clicks the middle of an accessible object, once it stopped moving (a banner sliding
        in, a list laying out: under load a click read mid-slide lands beside the button).
        Where GTK's window coordinates are off (`extents_are_off`), a control with an action
        is pressed through AT-SPI instead, as a screen reader user presses it."""
        check(acc is not None, "nothing to click: the accessible object was not found")
        if self.extents_are_off() and role(acc) in PRESSABLE_ROLES:
            action = _safe(acc.queryAction)
            if action is not None and (_safe(lambda: action.nActions, 0) or 0) > 0:
                self.press(acc)
                return
        x, y, width, height = settled_extents(acc)
        check(width > 0 and height > 0, f"{role(acc)} {name(acc)!r} has no size on screen ({width}x{height})")
        self.click_at(x + width // 2, y + height // 2)

    def press(self, acc):
        """Presses a control through AT-SPI, as a screen reader's user does. GTK runs a button's
        press 250 ms after the action (its press animation; the action's answer comes at once),
        so for a button this waits until the app reports the click: whatever the test does next
        meets what the click did, not the dialog it was to close still taking every press."""
        mark = len(self.output)
        check(acc.queryAction().doAction(0), f"{role(acc)} {name(acc)!r} refused its action")
        if role(acc) in BUTTON_ROLES:
            wait_for(lambda: any(line.startswith("notula-clicked") for line in list(self.output)[mark:]), 5,
                     lambda: f"{role(acc)} {name(acc)!r} took its action but the app reported no click: {self.tail()}")

    def extents_are_off(self):
        """GTK 4.10+ makes an object's window coordinates by adding up the bounds of its
        accessible parents, which leave out each one's CSS padding and border and the window's
        frame: an object comes out left of and above where it is drawn (GTK 4.18.6: "Set Up
        Sync…" by 22 and 18 px; docs/PLATFORM.md). GTK 4.8's are right."""
        if self._toolkit_version is None:
            version = _safe(lambda: self.accessible_app().get_toolkit_version(), "") or ""
            self._toolkit_version = tuple(int(part) for part in version.split(".")[:2] if part.isdigit())
        return self._toolkit_version >= (4, 10)

    def click_editor(self, timeout=5):
        """Clicks into the note's text, once the editor is found (while the window changes, a
        walk of the accessibility tree can miss it for a moment)."""
        self.click(wait_for(self.editor, timeout, "no 'Note text' editor"))

    def geometry(self):
        return window_geometry(self.wid)

    # -- AT-SPI -------------------------------------------------------------------------------

    def accessible_app(self, timeout=10):
        """The app's AT-SPI root (found by process id), its cache cleared so reads are fresh."""
        pid = self.process.pid

        def lookup():
            desktop = pyatspi.Registry.getDesktop(0)
            for app in children(desktop):
                if _safe(app.get_process_id) == pid:
                    # No caching at all, so every read is fresh. (Clearing the cache instead,
                    # atspi_accessible_clear_cache, crashed libatspi once a dialog was open.)
                    _safe(lambda: app.set_cache_mask(Atspi.Cache.NONE))
                    return app
            return None
        return wait_for(lookup, timeout, f"notula (pid {pid}) is not on the accessibility bus")

    def notes_list(self):
        app = self.accessible_app()
        return find_one(app, lambda a: role(a) == "list" and name(a) == self.list_name)

    def rows(self):
        """The accessible names of the rows of the notes list, top to bottom ("Title, time")."""
        notes = self.notes_list()
        if notes is None:
            return []
        result = []
        for item in children(notes):
            if role(item) != "list item":
                continue
            label = name(item)
            if not label:
                label = next((name(child) for child in children(item) if name(child)), "")
            result.append(label)
        return result

    def row_accessible(self, title):
        """The list item whose row is named "title, ...", or None."""
        notes = self.notes_list()
        for item in children(notes) if notes is not None else []:
            labels = [name(item)] + [name(child) for child in children(item)]
            if any(label.startswith(title + ", ") for label in labels):
                return item
        return None

    def wait_rows(self, expected_titles, timeout=5, after=None):
        """Waits until the list shows exactly these titles, in this order (`after`: what the
        user just did, for the message)."""
        def matches():
            rows = self.rows()
            return len(rows) == len(expected_titles) and all(
                row.startswith(title + ", ") for row, title in zip(rows, expected_titles))
        step = f" after {after}" if after else ""
        wait_for(matches, timeout, lambda: f"list rows{step} are {self.rows()!r}, expected titles {expected_titles!r}")
        return self.rows()

    def find(self, predicate):
        return find_one(self.accessible_app(), predicate)

    def find_all(self, predicate):
        return find_all(self.accessible_app(), predicate)

    def new_note(self):
        """Ctrl+N into an empty library: waits for the note's file and the focused text; its file name."""
        self.key("ctrl+n")
        wait_for(lambda: len(self.home.md_files()) == 1, 5, "Ctrl+N gave no note")
        self.wait_new_note_in_editor()
        return self.home.md_files()[0]

    def wait_new_note_in_editor(self, timeout=5):
        """After Ctrl+N: waits until the editor shows the new, empty note with the keyboard
        focus. Typing before that (the file made, the editor not yet there) sends the first
        keys to whatever had the focus."""
        def ready():
            editor = self.editor()
            return editor is not None and has_state(editor, pyatspi.STATE_FOCUSED) and self.editor_text() == ""
        wait_for(ready, timeout, lambda: f"Ctrl+N: the editor is not the new, empty note with the focus "
                                         f"(text {self.editor_text()!r}; focused: {self.focused_description()}; "
                                         f"output: {self.tail()})")

    def focused_description(self):
        """What holds the keyboard focus in the app, as 'role \'name\'' (a failure's detail)."""
        focused = self.find(lambda a: has_state(a, pyatspi.STATE_FOCUSED))
        return f"{role(focused)} {name(focused)!r}" if focused is not None else "nothing"

    def editor(self):
        return self.find(lambda a: role(a) == "text" and name(a) == self.editor_name)

    def editor_text(self):
        editor = self.editor()
        if editor is None:
            return None
        text = editor.queryText()
        return text.getText(0, text.characterCount)

    def labels(self):
        return [name(a) for a in self.find_all(lambda a: role(a) == "label")]

    def button(self, predicate):
        return self.find(lambda a: role(a) == "push button" and predicate(name(a)))
