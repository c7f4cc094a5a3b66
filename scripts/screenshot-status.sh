#!/usr/bin/env bash
# Screenshots of the status light reached by real conditions: status-saved.png (after typing),
# status-conflict.png (the file changed on disk under unsaved edits), status-unsaved.png (the
# library on a tmpfs remounted read-only; the error dialog shows too). Needs root for the mount.
# Usage, inside the display session: scripts/with-display.sh scripts/screenshot-status.sh BINARY OUTDIR
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 BINARY OUTDIR" >&2; exit 2; }
binary=$(realpath "$1")
mkdir -p "$2"
outdir=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/notula-status-shots-XXXXXX")
export HOME=$work XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache
library=$XDG_DATA_HOME/notula/Notes
mkdir -p "$library" "$XDG_CONFIG_HOME/notula"
echo '{"storage": "local"}' >"$XDG_CONFIG_HOME/notula/preferences.json"  # no first-launch question
app=""
cleanup() {
  [[ -n "$app" ]] && kill -9 "$app" 2>/dev/null || true
  umount -l "$library" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

start() {
  "$binary" >/dev/null 2>&1 &
  app=$!
  wid=""
  for _ in $(seq 1 100); do
    wid=$(xdotool search --onlyvisible --name '^Notula$' 2>/dev/null | head -n1 || true)
    [[ -n "$wid" ]] && break
    sleep 0.1
  done
  [[ -n "$wid" ]] || { echo "no Notula window" >&2; exit 1; }
  xdotool windowfocus --sync "$wid"
  sleep 1
  xdotool mousemove --window "$wid" 600 300 click 1 key --clearmodifiers ctrl+End
}

stop() {
  kill "$app"
  wait "$app" || true
  app=""
}

shot() {  # the window area of the screen, so a dialog over the window shows too
  xdotool mousemove 1270 790
  sleep 0.5
  import -window root -crop 960x640+0+0 "$outdir/$1"
  echo "wrote $outdir/$1"
}

printf 'Groceries\n- oat milk\n- eggs\n' >"$library/groceries.md"
start
xdotool type --delay 40 -- "- bread"
sleep 2
shot status-saved.png

xdotool type --delay 120 -- " and butter for the weekend" &
typist=$!
sleep 1
printf 'Groceries\n- oat milk\n- eggs\n- changed on the phone\n' >"$library/.groceries.sync"
mv "$library/.groceries.sync" "$library/groceries.md"
wait "$typist"
sleep 1
shot status-conflict.png
stop

rm -rf "$library" && mkdir -p "$library"
mount -t tmpfs -o size=1m,mode=0700 tmpfs "$library"
printf 'Shopping\n- apples\n' >"$library/shopping.md"
start
mount -o remount,ro "$library"
xdotool type --delay 40 -- "- pears"
sleep 2.5
shot status-unsaved.png
xdotool key Escape
stop
