"""How text gets into a note on the real binary: a real clipboard paste of Windows text (CRLF,
lone CR, mixed) keeps a CRLF note CRLF on disk and an LF note LF, never writing "\\r\\r\\n";
GTK's own input method (compose and Ctrl+Shift+U sequences, no daemon) sees every key before
the Markdown keys, so Enter that confirms a composition in a list item does not continue the
list; a thematic break ("* * *") is not a list item to continue."""
import os
import signal
import subprocess

import pyatspi

from notula_driver import Notula, acceptance, check, has_state, note_bytes, wait_file, wait_for
from tests_markdown import open_note


class Clipboard:
    """The X clipboard owned by another program (xclip in the foreground), as when text is
    copied in a browser or a Windows program run under Wine."""

    def __init__(self):
        self.process = None

    def copy(self, data):
        self.stop()
        self.process = subprocess.Popen(["xclip", "-quiet", "-selection", "clipboard", "-i"], stdin=subprocess.PIPE,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.process.stdin.write(data)
        self.process.stdin.close()
        # Owned once xclip answers a request for it.
        wait_for(lambda: subprocess.run(["xclip", "-o", "-selection", "clipboard"], capture_output=True, timeout=5).stdout == data,
                 5, "xclip did not take the clipboard")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(5)
        self.process = None


def paste(app, clipboard, data):
    clipboard.copy(data)
    app.focus()
    app.key("ctrl+v")


@acceptance
def pasting_windows_text_keeps_the_notes_line_endings(binary, home):
    home.write_note("windows.md", b"Windows note\r\nline two\r\n", age_seconds=60)
    home.write_note("unix.md", b"Unix note\nline two\n", age_seconds=120)
    app = Notula(binary, home)
    clipboard = Clipboard()
    try:
        app.launch()
        open_note(app, "Windows note")
        app.key("ctrl+End")
        paste(app, clipboard, b"a\r\nb\r\n")          # text copied on Windows
        wait_file(home, "windows.md", b"Windows note\r\nline two\r\na\r\nb\r\n")
        paste(app, clipboard, b"c\rd\ne\r\n")         # old Mac, Unix and Windows line ends at once
        app.type("f")
        app.key("Return")
        wait_file(home, "windows.md", b"Windows note\r\nline two\r\na\r\nb\r\nc\r\nd\r\ne\r\nf\r\n")
        check(app.editor_text() == "Windows note\nline two\na\nb\nc\nd\ne\nf\n",
              f"the editor shows {app.editor_text()!r}")
        open_note(app, "Unix note")
        app.key("ctrl+End")
        paste(app, clipboard, b"a\r\nb\rc\n")
        wait_file(home, "unix.md", b"Unix note\nline two\na\nb\nc\n")
        check(b"\r" not in note_bytes(home, "windows.md").replace(b"\r\n", b""), "a lone CR in the CRLF note")
    finally:
        clipboard.stop()
        app.cleanup()


@acceptance
def an_input_method_sees_enter_before_the_markdown_keys(binary, home):
    home.write_note("list.md", "Shopping\n- milk", age_seconds=60)
    # GTK's built-in input method: compose sequences and Ctrl+Shift+U, no daemon needed.
    app = Notula(binary, home, extra_env={"GTK_IM_MODULE": "gtk-im-context-simple"})
    spare = spare_keycodes(2)
    try:
        # The virtual keyboard has no dead key and no Compose key. Given to xdotool on the
        # fly, it maps one for each press and maps it back at once; GTK reads the keymap
        # when it translates the press, which under load is after the mapping went back (the
        # press then arrived as another key). So they are mapped for the whole test, before
        # the app starts.
        xmodmap(f"keycode {spare[0]} = dead_acute", f"keycode {spare[1]} = Multi_key")
        app.launch()
        open_note(app, "Shopping")
        app.key("ctrl+End")
        # Ctrl+Shift+U e 9 Enter: Enter confirms the character; the list is not continued.
        app.key("ctrl+shift+u", "e", "9", "Return")
        wait_file(home, "list.md", "Shopping\n- milké".encode())
        # Without a composition Enter continues the list as before.
        app.key("Return")
        app.type("eggs")
        wait_file(home, "list.md", "Shopping\n- milké\n- eggs".encode())
        # A dead key, then a Compose sequence, in progress: Enter goes to the input method (GTK's
        # keeps composing), and the letter after it completes the character.
        app.key("space", "dead_acute", "Return", "a")
        app.key("space", "Multi_key", "apostrophe", "Return", "o")
        wait_file(home, "list.md", "Shopping\n- milké\n- eggs á ó".encode())
        app.key("Return")
        app.type("tea")
        wait_file(home, "list.md", "Shopping\n- milké\n- eggs á ó\n- tea".encode())
        check(has_state(app.editor(), pyatspi.STATE_FOCUSED), "the text lost the focus")
    finally:
        app.cleanup()
        xmodmap(*(f"keycode {code} =" for code in spare))


def spare_keycodes(count):
    """Keycodes the display's keymap leaves empty."""
    table = subprocess.run(["xmodmap", "-pke"], capture_output=True, text=True, check=True).stdout.splitlines()
    empty = [int(line.split()[1]) for line in table if line.split("=", 1)[1].strip() == ""]
    check(len(empty) >= count, "the keymap has no spare keycodes")
    return empty[-count:]


def xmodmap(*expressions):
    for expression in expressions:
        subprocess.run(["xmodmap", "-e", expression], check=True, timeout=10)


@acceptance
def enter_after_a_thematic_break_starts_a_plain_line(binary, home):
    home.write_note("rules.md", "Rules\n", age_seconds=60)
    app = Notula(binary, home)
    try:
        app.launch()
        open_note(app, "Rules")
        app.key("ctrl+End")
        for rule in ("* * *", "- - -", "***", "_ _ _"):
            app.type(rule)
            app.key("Return")
            app.type("after")
            app.key("Return")
        wait_file(home, "rules.md", b"Rules\n* * *\nafter\n- - -\nafter\n***\nafter\n_ _ _\nafter\n")
        # A list item still continues.
        app.type("* item")
        app.key("Return")
        app.type("next")
        wait_file(home, "rules.md", b"Rules\n* * *\nafter\n- - -\nafter\n***\nafter\n_ _ _\nafter\n* item\n* next")
    finally:
        app.cleanup()
