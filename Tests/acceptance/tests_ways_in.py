"""Only the library's notes open as library notes, whatever another program hands Notula
(issue #44): a damaged session file (offsets GTK's int cannot hold, a path leading out of the
library) never stops a start, and the desktop search's ActivateResult opens only ids the index
lists — never a file outside the library, Notula's own files, or an id of 100 KB."""
import json
import os

import gi

from notula_driver import APP_ID, Notula, acceptance, check, wait_for
from tests_desktop_session import DESKTOP, PROVIDER, PROVIDER_PATH, provider_call, sample_notes, wait_results

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


def call_variant(method, parameters, timeout=10):
    """Calls the search provider with arguments too large for a command line (1 MB)."""
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    return bus.call_sync(APP_ID, PROVIDER_PATH, PROVIDER, method, parameters, None, Gio.DBusCallFlags.NONE,
                         timeout * 1000, None).unpack()


def resident_kb(pid):
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def write_session(home, state):
    os.makedirs(os.path.dirname(home.window_state_file), exist_ok=True)
    with open(home.window_state_file, "w", encoding="utf-8") as handle:
        json.dump(state, handle)


SECRET = "Secret\nnot a note of the library\n"


def write_secret(home):
    """A Markdown file beside the library, which nothing may open as a note."""
    path = os.path.join(home.root, "secret.md")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(SECRET)
    return path


def check_secret_unchanged(path):
    with open(path, encoding="utf-8") as handle:
        check(handle.read() == SECRET, "the file outside the library changed")


@acceptance
def a_damaged_session_file_never_stops_the_start(binary, home):
    sample_notes(home)
    secret = write_secret(home)
    # Offsets past what GTK's int holds once killed every start with SIGILL.
    write_session(home, {"width": 900, "height": 600, "isMaximized": False, "sidebarWidth": 280,
                         "openNote": "Shopping.md", "cursorOffset": -9223372036854775808, "topOffset": 4294967296})
    app = Notula(binary, home, DESKTOP)
    try:
        app.launch()
        app.wait_rows(["Eggs", "Shopping", "Bread recipe"])
        wait_for(lambda: (app.editor_text() or "").startswith("Shopping"), 8,
                 lambda: f"the remembered note did not open: {app.editor_text()!r}; output {app.tail()}")
        check(app.is_running(), f"the app ended: {app.tail()}")
        app.quit()
        # A path leading out of the library, and one into Notula's own files.
        for outside in ["../secret.md", "../../" + os.path.relpath(secret, "/"), ".notula/languages.txt"]:
            write_session(home, {"width": 900, "height": 600, "isMaximized": False, "sidebarWidth": 280, "openNote": outside,
                                 "noteWindows": [{"path": "relative/../secret.md", "width": 400, "height": 400}]})
            app.launch()
            app.wait_rows(["Eggs", "Shopping", "Bread recipe"])
            # The newest note opens instead (what a start without a remembered note does).
            wait_for(lambda: (app.editor_text() or "").startswith("Eggs"), 8,
                     lambda: f"with {outside!r} remembered the editor shows {app.editor_text()!r}")
            check(not any(line.startswith("notula-note-window") for line in app.output), f"a note window opened: {app.tail()}")
            app.quit()
        check_secret_unchanged(secret)
    finally:
        app.cleanup()


@acceptance
def activate_result_opens_only_notes_the_index_lists(binary, home):
    sample_notes(home)
    secret = write_secret(home)
    os.makedirs(os.path.join(home.library, ".notula"), exist_ok=True)
    with open(os.path.join(home.library, ".notula", "languages.txt"), "w", encoding="utf-8") as handle:
        handle.write("Shopping.md de\n")
    with open(os.path.join(home.library, "bashrc"), "w", encoding="utf-8") as handle:
        handle.write("export PATH\n")
    os.symlink(home.root, os.path.join(home.library, "Out"))
    app = Notula(binary, home, DESKTOP)
    try:
        app.launch()
        wait_results(["bread"], ["Bread recipe.md", "Shopping.md"])
        provider_call("ActivateResult", "Eggs.md", "['eggs']", "0")
        wait_for(lambda: (app.editor_text() or "").startswith("Eggs"), 5, lambda: f"Eggs did not open: {app.editor_text()!r}")
        hostile = ["../secret.md", os.path.relpath(secret, home.library), secret, ".notula/languages.txt", "bashrc",
                   "Out/secret.md", "Shopping.md/../../secret.md", "x" * 4000 + ".md"]
        for identifier in hostile:
            provider_call("ActivateResult", identifier, "['secret']", "0", timeout=5)
        # An id longer than any note's is refused at once, unread (it once froze the window
        # for 14-17 s laying out a dialog naming it).
        try:
            call_variant("ActivateResult", GLib.Variant("(sasu)", ("x" * 1_000_000 + ".md", ["secret"], 0)), timeout=5)
            check(False, "a 1 MB id was accepted")
        except GLib.Error as error:
            check("InvalidArgs" in str(error), f"a 1 MB id: {error}")
        # Calls are answered in order: once this one shows, every call before it was handled.
        provider_call("ActivateResult", "Shopping.md", "['milk']", "0")
        wait_for(lambda: (app.editor_text() or "").startswith("Shopping"), 5,
                 lambda: f"a listed note no longer opens after the hostile ids: {app.editor_text()!r}")
        check(app.is_running(), f"the app ended: {app.tail()}")
        check(not any(line.startswith("notula-note-window") for line in app.output), f"a note window opened: {app.tail()}")
        app.click_editor()
        app.type("typed ")
        wait_for(lambda: open(os.path.join(home.library, "Shopping.md"), encoding="utf-8").read().count("typed ") == 1, 8,
                 "the typing did not land in Shopping")
        check_secret_unchanged(secret)
        with open(os.path.join(home.library, "bashrc"), encoding="utf-8") as handle:
            check(handle.read() == "export PATH\n", "a file of the library that is no note changed")
        app.quit()
    finally:
        app.cleanup()


@acceptance
def a_megabyte_search_term_is_answered_with_nothing_at_once(binary, home):
    """The desktop's search from any program on the bus: a 1 MB term, or 10,000 terms, cost
    nothing (they took 18-34 s and 4.6 GB, every other search waiting), and the next search
    is answered as before."""
    sample_notes(home)
    app = Notula(binary, home, DESKTOP)
    try:
        app.launch()
        wait_results(["bread"], ["Bread recipe.md", "Shopping.md"])
        before = resident_kb(app.process.pid)
        for terms in (["bread" * 200_000], ["bread"] * 10_000):
            check(call_variant("GetInitialResultSet", GLib.Variant("(as)", (terms,)), timeout=5) == ([],),
                  "a hostile search found notes")
            check(call_variant("GetSubsearchResultSet", GLib.Variant("(asas)", (["Shopping.md"], terms)), timeout=5) == ([],),
                  "a hostile subsearch found notes")
        metas = call_variant("GetResultMetas", GLib.Variant("(as)", (["Shopping.md"] * 100_000 + ["../secret.md"],)), timeout=5)[0]
        check(0 < len(metas) <= 64, f"{len(metas)} metas for 100,000 ids")
        grown = (resident_kb(app.process.pid) - before) // 1024
        check(grown < 150, f"the hostile searches left {grown} MB more resident")
        check(search_answer(["bread"]) == ["Bread recipe.md", "Shopping.md"], "a normal search after them")
        check(app.is_running(), f"the app ended: {app.tail()}")
    finally:
        app.cleanup()


def search_answer(terms):
    return call_variant("GetInitialResultSet", GLib.Variant("(as)", (terms,)))[0]
