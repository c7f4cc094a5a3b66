#!/usr/bin/env bash
# Screenshots of Notula for the README and AppStream: the window with three sample notes
# (main-window.png, and main-window-dark.png in the dark style: Markdown styled, the sidebar and
# the status light) and with an empty library (empty-state.png).
# Usage, inside the display session:
#   scripts/with-display.sh scripts/screenshot.sh .build-release/release/notula data/screenshots
# Each shot uses a private temporary HOME; the app is quit with Ctrl+Q after each.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 BINARY OUTDIR" >&2
  exit 2
fi
[[ -n "${DISPLAY:-}" ]] || { echo "screenshot: no DISPLAY; run inside scripts/with-display.sh" >&2; exit 1; }
binary=$(realpath "$1")
[[ -x "$binary" ]] || { echo "screenshot: $1 is not executable" >&2; exit 1; }
mkdir -p "$2"
outdir=$(realpath "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/notula-screenshot-XXXXXX")
app_pid=""
holder_pid=""

cleanup() {
  if [[ -n "$app_pid" ]] && kill -0 "$app_pid" 2>/dev/null; then kill "$app_pid" 2>/dev/null || true; fi
  if [[ -n "$holder_pid" ]] && kill -0 "$holder_pid" 2>/dev/null; then kill "$holder_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Xvfb (without -noreset) resets when its last client leaves, and a client connecting during
# the reset fails ("cannot open display"): keep one connection open for the whole script.
for _ in $(seq 1 20); do
  xprop -root -spy >/dev/null 2>&1 &
  holder_pid=$!
  sleep 0.2
  if kill -0 "$holder_pid" 2>/dev/null && xdpyinfo >/dev/null 2>&1; then break; fi
  kill "$holder_pid" 2>/dev/null || true
  holder_pid=""
done
[[ -n "$holder_pid" ]] || { echo "screenshot: cannot connect to $DISPLAY" >&2; exit 1; }

# note HOME FILE AGE CONTENT: writes a note by hand with a modification time AGE ago.
note() {
  local library="$1/data/notula/Notes"
  mkdir -p "$library"
  chmod 700 "$library"
  printf '%s' "$4" >"$library/$2"
  chmod 600 "$library/$2"
  touch -d "$3 ago" "$library/$2"
}

new_home() {
  local home="$work/$1"
  mkdir -p "$home"/{data,config/notula,state,cache}
  echo '{"storage": "local"}' >"$home/config/notula/preferences.json"  # no first-launch question
  echo "$home"
}

# wait_for_ui PID ROWS: waits (AT-SPI) until the list shows ROWS rows and, if ROWS > 0, the
# editor shows the newest note's text.
wait_for_ui() {
  /usr/bin/python3 - "$1" "$2" <<'EOF'
import sys, time
import pyatspi
from gi.repository import GLib
GLib.log_set_handler("dbind", GLib.LogLevelFlags.LEVEL_WARNING, lambda *args: None)
pid, rows_wanted = int(sys.argv[1]), int(sys.argv[2])

def walk(acc):
    yield acc
    for i in range(acc.childCount):
        child = acc.getChildAtIndex(i)
        if child is not None:
            yield from walk(child)

def state():
    for app in pyatspi.Registry.getDesktop(0):
        if app is None or app.get_process_id() != pid:
            continue
        app.clear_cache()
        rows, text = None, ""
        for acc in walk(app):
            role = acc.getRoleName()
            if role == "list" and acc.name == "Notes":
                rows = sum(1 for child in acc if child is not None and child.getRoleName() == "list item")
            elif role == "text" and acc.name == "Note text":
                t = acc.queryText()
                text = t.getText(0, t.characterCount)
        return rows, text
    return None, ""

deadline = time.monotonic() + 15
seen = None
while time.monotonic() < deadline:
    try:
        seen = state()
        if seen[0] == rows_wanted and (rows_wanted == 0 or seen[1]):
            sys.exit(0)
    except Exception as error:
        seen = error
    time.sleep(0.1)
print(f"screenshot: the window did not settle: rows/text = {seen!r}", file=sys.stderr)
sys.exit(1)
EOF
}

# shoot HOME ROWS FILE: launches the app in HOME, waits for it, captures the window, quits.
shoot() {
  local home="$1" rows="$2" file="$3" wid=""
  env HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" \
      XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" \
      XDG_DATA_DIRS="$repo/data:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
      "$binary" >/dev/null 2>&1 &
  app_pid=$!
  for _ in $(seq 1 150); do
    wid=$(xdotool search --onlyvisible --name '^Notula$' 2>/dev/null | head -n1 || true)
    [[ -n "$wid" ]] && break
    kill -0 "$app_pid" 2>/dev/null || { echo "screenshot: notula exited before its window appeared" >&2; exit 1; }
    sleep 0.1
  done
  [[ -n "$wid" ]] || { echo "screenshot: no Notula window" >&2; exit 1; }
  wait_for_ui "$app_pid" "$rows"
  xdotool windowfocus --sync "$wid"   # an active window, not the greyed backdrop look
  xdotool mousemove 1270 790          # no hover highlight in the picture
  sleep 1.5                           # the last frame (focus, selection, the status light)
  import -window "$wid" "$outdir/$file"
  echo "wrote $outdir/$file ($(identify -format '%wx%h' "$outdir/$file"))"
  xdotool key --clearmodifiers ctrl+q
  for _ in $(seq 1 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$app_pid" 2>/dev/null; then echo "screenshot: notula did not quit on Ctrl+Q" >&2; exit 1; fi
  wait "$app_pid" || true
  app_pid=""
}

sample=$(new_home sample)
note "$sample" groceries.md "25 minutes" "Groceries
## For the weekend
- [x] oat milk
- [x] a dozen eggs
- [ ] **sourdough** bread from the _corner_ bakery
- [ ] baby spinach
- [ ] coffee beans (medium roast)

> Sunday's dessert: try the [lemon tart](https://example.org/lemon-tart) recipe.

1. zest the \`2 lemons\`
2. ~~buy a tart tin~~ borrow one from Mei
"
note "$sample" team-sync.md "3 hours" "Weekly team sync
Attendees: Priya, Jonas, Sam, Mei

- Release 1.2 moves to Thursday; the installer fix goes in first
- Jonas finishes the onboarding copy by Wednesday
- Priya looks at the crash reports from the beta
- Mei books the room for the retrospective

Next sync: Monday, 10:00
"
note "$sample" book-ideas.md "2 days" "Book ideas
A lighthouse keeper who answers the letters that wash ashore.
A city whose maps are redrawn every night, and the one cartographer who remembers.
Short stories told by the same old bicycle, passed from owner to owner.
"
shoot "$sample" 3 main-window.png
echo '{"storage": "local", "colorScheme": "dark"}' >"$sample/config/notula/preferences.json"
shoot "$sample" 3 main-window-dark.png

empty=$(new_home empty)
shoot "$empty" 0 empty-state.png
