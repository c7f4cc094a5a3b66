#!/usr/bin/python3
"""Benchmark: a note with 50 photos (4000 x 3000 JPEG).

The library holds one note: a line of text and a photo line, 50 times; the photos are made
once with ImageMagick into /tmp/notula-bench-photos (five noisy photos, each copied ten times
under its own name, so every line decodes its own file). The app opens the note at start.
Printed:
- time to the first frame painted with the pictures near the view (NOTULA_REPORT_PICTURES:
  `notula-pictures-painted`), from the launch and from the window's first map;
- RSS growth: the app's RSS with the note shown and after scrolling to its end, against the
  same note with its picture lines made plain text;
- the longest main-loop stall while scrolling through it with the mouse wheel (NOTULA_REPORT_STALLS).
Targets: first pictures painted within 1 s of the window; RSS growth under 150 MB (the cache
holds 64 MB of pixels); no stall over 16 ms while scrolling (issue #30).

Usage, inside the display session:
    /usr/bin/python3 scripts/bench_pictures.py --binary .build-release/release/notula
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_app import launch, private_home, rss_mb, stop, wait_line, window_id, write_results, xdotool

PHOTOS = "/tmp/notula-bench-photos"
COUNT = 50


def photos():
    """The 50 photos' paths, made once."""
    paths = [os.path.join(PHOTOS, f"photo-{n:02d}.jpg") for n in range(COUNT)]
    if all(os.path.exists(path) for path in paths):
        return paths
    os.makedirs(PHOTOS, exist_ok=True)
    for seed in range(5):
        source = os.path.join(PHOTOS, f"source-{seed}.jpg")
        if not os.path.exists(source):
            colours = ["red-blue", "green-yellow", "navy-orange", "purple-white", "teal-black"][seed]
            subprocess.run(["convert", "-seed", str(seed), "-size", "4000x3000", f"gradient:{colours}",
                            "-attenuate", "0.4", "+noise", "Gaussian", "-quality", "88", source], check=True)
    for n, path in enumerate(paths):
        shutil.copyfile(os.path.join(PHOTOS, f"source-{n % 5}.jpg"), path)
    return paths


def run(binary, with_pictures):
    root = tempfile.mkdtemp(prefix="notula-bench-pictures-")
    try:
        env, library = private_home(root, GSK_RENDERER="cairo", NOTULA_REPORT_MAPPED="1",
                                    NOTULA_REPORT_PICTURES="1", NOTULA_REPORT_STALLS="1")
        os.makedirs(f"{library}/attachments")
        lines = ["Holiday photos", ""]
        for n, path in enumerate(photos()):
            shutil.copyfile(path, f"{library}/attachments/photo-{n:02d}.jpg")
            lines.append(f"Day {n + 1}: a paragraph about the day, long enough to wrap once in the editor's column.")
            lines.append(("" if with_pictures else "picture: ") + f"![Photo {n + 1}](attachments/photo-{n:02d}.jpg)")
            lines.append("")
        with open(f"{library}/photos.md", "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines))
        launched = time.monotonic()
        process, output = launch(binary, env)
        try:
            mapped = float(wait_line(output, "notula-window-mapped", 30)[1])
            wid = window_id()
            xdotool("windowsize", wid, "1200", "900")
            figures = {}
            if with_pictures:
                painted = float(wait_line(output, "notula-pictures-painted", 30)[1])
                figures["first_pictures_ms_from_launch"] = (painted - launched) * 1000
                figures["first_pictures_ms_from_map"] = (painted - mapped) * 1000
            time.sleep(2.0)
            figures["rss_shown_mb"] = rss_mb(process.pid)
            # The mouse wheel over the editor (a click there could open a picture).
            xdotool("mousemove", "--window", wid, "700", "400")
            time.sleep(0.5)
            start = time.monotonic()
            for _ in range(100):
                xdotool("click", "--repeat", "8", "--delay", "4", "5")
                time.sleep(0.03)
            time.sleep(1.5)
            end = time.monotonic()
            stalls = [float(line.split()[2]) for line in list(output)
                      if line.startswith("notula-stall ") and start <= float(line.split()[1]) <= end]
            figures["longest_scroll_stall_ms"] = max(stalls, default=0.0)
            figures["scroll_stalls_over_50ms"] = sum(1 for s in stalls if s > 50)
            figures["rss_scrolled_mb"] = rss_mb(process.pid)
            if with_pictures:
                painted_lines = [line.split() for line in list(output) if line.startswith("notula-pictures-painted ")]
                figures["cache_mb_at_end"] = int(painted_lines[-1][3]) / 1e6 if painted_lines else 0
                figures["picture_updates_while_scrolling"] = sum(1 for line in painted_lines if start <= float(line[1]) <= end)
            return figures
        finally:
            stop(process)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    arguments = parser.parse_args()
    photos()
    plain = run(arguments.binary, with_pictures=False)
    shown = run(arguments.binary, with_pictures=True)
    results = dict(shown)
    results["rss_growth_shown_mb"] = shown["rss_shown_mb"] - plain["rss_shown_mb"]
    results["rss_growth_scrolled_mb"] = shown["rss_scrolled_mb"] - plain["rss_scrolled_mb"]
    results["plain_longest_scroll_stall_ms"] = plain["longest_scroll_stall_ms"]
    print(f"pictures: {COUNT} photos 4000x3000 JPEG in one note")
    print(f"  first frame with pictures: {shown['first_pictures_ms_from_map']:.0f} ms after the window mapped"
          f" ({shown['first_pictures_ms_from_launch']:.0f} ms after launch)")
    print(f"  RSS: {plain['rss_shown_mb']:.0f} MB without pictures, {shown['rss_shown_mb']:.0f} MB shown"
          f" (+{results['rss_growth_shown_mb']:.0f}), {shown['rss_scrolled_mb']:.0f} MB after scrolling"
          f" (+{results['rss_growth_scrolled_mb']:.0f}); cache {results.get('cache_mb_at_end', 0):.0f} MB;"
          f" {shown['picture_updates_while_scrolling']} picture updates while scrolling")
    print(f"  longest stall while scrolling: {shown['longest_scroll_stall_ms']:.0f} ms"
          f" ({shown['scroll_stalls_over_50ms']} over 50 ms; without pictures {plain['longest_scroll_stall_ms']:.0f} ms)")
    write_results("pictures", results)


if __name__ == "__main__":
    main()
