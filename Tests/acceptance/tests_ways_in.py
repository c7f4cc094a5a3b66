"""Only the library's notes open as library notes, whatever another program hands Notula
(issue #44): a damaged session file (offsets GTK's int cannot hold, a path leading out of the
library) never stops a start, and the desktop search's ActivateResult opens only ids the index
lists — never a file outside the library, Notula's own files, or an id of 100 KB."""
import json
import os

from notula_driver import Notula, acceptance, check, wait_for
from tests_desktop_session import DESKTOP, provider_call, sample_notes, wait_results


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
                   "Out/secret.md", "Shopping.md/../../secret.md", "x" * 100_000 + ".md"]
        for identifier in hostile:
            provider_call("ActivateResult", identifier, "['secret']", "0", timeout=5)
        # Calls are answered in order: once this one shows, every call before it was handled.
        provider_call("ActivateResult", "Shopping.md", "['milk']", "0")
        wait_for(lambda: (app.editor_text() or "").startswith("Shopping"), 5,
                 lambda: f"a listed note no longer opens after the hostile ids: {app.editor_text()!r}")
        check(app.is_running(), f"the app ended: {app.tail()}")
        check(not any(line.startswith("notula-note-window") for line in app.output), f"a note window opened: {app.tail()}")
        app.click(wait_for(app.editor, 5, "no editor"))
        app.type("typed ")
        wait_for(lambda: open(os.path.join(home.library, "Shopping.md"), encoding="utf-8").read().count("typed ") == 1, 8,
                 "the typing did not land in Shopping")
        check_secret_unchanged(secret)
        with open(os.path.join(home.library, "bashrc"), encoding="utf-8") as handle:
            check(handle.read() == "export PATH\n", "a file of the library that is no note changed")
        app.quit()
    finally:
        app.cleanup()
