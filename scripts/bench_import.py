#!/usr/bin/python3
"""Benchmark: importing 10,000 Gnote notes (issue #34), with the notula-bench tool's
`import` mode. The notes are written here in the form the real Gnote 43 writes
(Tests/Fixtures/gnote): a title, 1–3 KB of text with bold, italic, highlight, monospace, a
large line, a nested list and links to other notes; every tenth in one of 20 notebooks, and 20
notebook templates. Printed: the time for all of them, notes per second, and the helper's
peak memory before and after the import.
Usage: /usr/bin/python3 scripts/bench_import.py --helper .build-release/release/notula-bench [--count 10000]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_app import sentence, write_results  # noqa: E402

HEAD = ('<?xml version="1.0"?>\n<note version="0.3" xmlns:link="http://beatniksoftware.com/tomboy/link" '
        'xmlns:size="http://beatniksoftware.com/tomboy/size" xmlns="http://beatniksoftware.com/tomboy">')
CONTENT = ('<note-content version="0.1" xmlns:link="http://beatniksoftware.com/tomboy/link" '
           'xmlns:size="http://beatniksoftware.com/tomboy/size">')


def note_xml(rng, index, count):
    title = f"Note {index} " + sentence(rng, 1, 3).rstrip(".!?")
    lines = [title, ""]
    while sum(len(line) for line in lines) < rng.randint(1000, 3000):
        kind = rng.randrange(8)
        text = sentence(rng, 5, 15)
        if kind == 0:
            lines.append(f"<bold>{text}</bold> {sentence(rng)}")
        elif kind == 1:
            lines.append(f"{sentence(rng)} <italic>{text}</italic> <highlight>{sentence(rng, 2, 4)}</highlight>")
        elif kind == 2:
            lines.append(f"<size:large>{sentence(rng, 2, 4)}</size:large>")
        elif kind == 3:
            lines.append(f"Run <monospace>make test</monospace> and see <link:internal>Note {rng.randrange(count)}</link:internal>.")
        elif kind == 4:
            lines.append(f'<list><list-item dir="ltr">{sentence(rng, 2, 6)}\n<list><list-item dir="ltr">{sentence(rng, 2, 6)}\n'
                         f'</list-item></list></list-item><list-item dir="ltr">{sentence(rng, 2, 6)}</list-item></list>')
        else:
            lines.append(text)
    tags = f"<tags><tag>system:notebook:Notebook {index % 20}</tag></tags>" if index % 10 == 0 else ""
    stamp = f"20{10 + index % 15:02d}-0{1 + index % 9}-1{index % 10}T1{index % 10}:2{index % 10}:00.000000Z"
    return (f'{HEAD}<title>{title}</title><text xml:space="preserve">{CONTENT}' + "\n".join(lines) +
            f"</note-content>\n</text><last-change-date>{stamp}</last-change-date><last-metadata-change-date>{stamp}"
            f"</last-metadata-change-date><create-date>{stamp}</create-date><cursor-position>0</cursor-position>"
            f"<selection-bound-position>-1</selection-bound-position><width>0</width><height>0</height>{tags}</note>\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--helper", required=True)
    parser.add_argument("--count", type=int, default=10_000)
    options = parser.parse_args()
    rng = random.Random(34)
    root = tempfile.mkdtemp(prefix="notula-bench-import-", dir=os.environ.get("BENCH_DIR", "/var/tmp"))
    try:
        source = os.path.join(root, "gnote")
        os.makedirs(source)
        for index in range(options.count):
            with open(os.path.join(source, f"{uuid.UUID(int=rng.getrandbits(128))}.note"), "w", encoding="utf-8") as out:
                out.write(note_xml(rng, index, options.count))
        for notebook in range(20):
            with open(os.path.join(source, f"{uuid.UUID(int=rng.getrandbits(128))}.note"), "w", encoding="utf-8") as out:
                out.write(f'{HEAD}<title>Notebook {notebook} Template</title><text xml:space="preserve">{CONTENT}Notebook '
                          f'{notebook} Template\n\nDescribe your new note here.</note-content></text><tags><tag>system:notebook:'
                          f'Notebook {notebook}</tag><tag>system:template</tag></tags></note>\n')
        output = subprocess.run([os.path.abspath(options.helper), "import", source, os.path.join(root, "Notes")],
                                check=True, capture_output=True, text=True).stdout
        figures = json.loads(output.strip().splitlines()[-1])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("importing Gnote notes (release build)")
    print(f"  {int(figures['files'])} files: {int(figures['imported'])} imported, {int(figures['skipped'])} templates skipped, "
          f"in {figures['seconds']:.1f} s ({figures['imported'] / figures['seconds']:.0f} notes/s); "
          f"peak memory {figures['peak_before_mb']:.0f} MB before, {figures['peak_after_mb']:.0f} MB after")
    write_results("import", figures)


if __name__ == "__main__":
    main()
