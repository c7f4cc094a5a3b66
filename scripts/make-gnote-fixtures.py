#!/usr/bin/python3
"""Writes Tests/Fixtures/gnote/*.note with the real Gnote (Debian's `gnote`), driven through its
D-Bus RemoteControl in a private home and session, for the import tests (NoteImportTests):
every formatting element, nested lists, links, a notebook, and Gnote's own first-start notes.
Run inside a display session:  scripts/with-display.sh /usr/bin/python3 scripts/make-gnote-fixtures.py
"""
import glob
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "acceptance"))
from notula_driver import TempHome  # noqa: E402
from tests_import import gnote_writes  # noqa: E402

# As Gnote itself writes note content: the namespaces declared on it, each list item's text
# ending in a line break (else Gnote runs the items together).
CONTENT = ('<note-content version="0.1" xmlns:link="http://beatniksoftware.com/tomboy/link" '
           'xmlns:size="http://beatniksoftware.com/tomboy/size">')
NOTES = [
    ("Every format", CONTENT + 'Every format\n\n<bold>bold</bold> <italic>italic</italic> '
     '<strikethrough>struck</strikethrough> <highlight>highlighted</highlight> <monospace>mono</monospace> '
     '<size:small>small</size:small>\n<size:large>Large line</size:large>\n<size:huge>Huge line</size:huge>\n'
     'Link to <link:internal>Nested lists</link:internal> and <link:url>https://wiki.gnome.org/Apps/Gnote</link:url>.'
     '</note-content>', []),
    ("Nested lists", CONTENT + 'Nested lists\n\n<list><list-item dir="ltr">one\n'
     '<list><list-item dir="ltr">one.a\n<list><list-item dir="ltr">one.a.i\n</list-item></list></list-item>'
     '<list-item dir="ltr">one.b\n</list-item></list></list-item><list-item dir="ltr">two\n</list-item></list>'
     'After.</note-content>', ["system:notebook:Lists & more"]),
]

target = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "gnote")
home = TempHome(prefix="notula-gnote-fixtures-")
try:
    folder = gnote_writes(home, NOTES)
    for old in glob.glob(os.path.join(target, "*.note")):
        os.remove(old)
    for path in sorted(glob.glob(os.path.join(folder, "*.note"))):
        shutil.copy(path, target)
    print("\n".join(sorted(os.listdir(target))))
finally:
    home.remove()
