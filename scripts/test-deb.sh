#!/usr/bin/env bash
# The .deb as a user meets it: installed with apt (Depends resolved), no Swift library in
# `ldd`, /usr/bin/notula started under the display with the Swift toolchain's folder hidden
# (a private mount namespace puts an empty tmpfs over it) until its window shows, the installed
# desktop entry and metainfo valid, then removed with nothing left behind.
# Usage, inside the display session, as root: scripts/test-deb.sh build/notula_VERSION_amd64.deb
set -euo pipefail

deb=$(realpath "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
[[ "$(id -u)" = 0 ]] || { echo "test-deb: needs root (dpkg)"; exit 1; }
[[ -n "${DISPLAY:-}" ]] || { echo "test-deb: no DISPLAY; run inside scripts/with-display.sh" >&2; exit 1; }
passed=0
fail() { echo "test-deb: FAIL: $*" >&2; exit 1; }
pass() { echo "test-deb: ok: $*"; passed=$((passed + 1)); }
work=$(mktemp -d "${TMPDIR:-/tmp}/notula-test-deb-XXXXXX")
app=""
cleanup() {
  if [[ -n "$app" ]]; then kill "$app" 2>/dev/null || true; fi  # only ours: another Notula may be under test
  dpkg -r notula >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

dpkg -r notula >/dev/null 2>&1 || true
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >"$work/apt.log" 2>&1 || { cat "$work/apt.log"; fail "apt-get install"; }
[[ -x /usr/bin/notula ]] || fail "/usr/bin/notula is not installed"
pass "installed with apt ($(dpkg-query -W -f='${Version}, ${Installed-Size} KiB' notula))"

if ldd /usr/bin/notula | grep -Ei 'swift|Foundation|dispatch|not found'; then fail "ldd lists a Swift library or a missing one"; fi
pass "ldd: no Swift library, nothing missing"

desktop-file-validate /usr/share/applications/io.github.notula.Notula.desktop || fail "desktop entry"
grep -q '^Exec=/usr/bin/notula %F$' /usr/share/applications/io.github.notula.Notula.desktop || fail "the desktop entry does not run /usr/bin/notula"
appstreamcli validate --no-net /usr/share/metainfo/io.github.notula.Notula.metainfo.xml >/dev/null || fail "metainfo"
[[ -f /usr/share/notula/styles/notula-light.xml && -f /usr/share/icons/hicolor/scalable/apps/io.github.notula.Notula.svg ]] || fail "styles or icon missing"
grep -q '^Exec=/usr/bin/notula --gapplication-service$' /usr/share/dbus-1/services/io.github.notula.Notula.service || fail "no D-Bus service file starting /usr/bin/notula"
grep -q '^ObjectPath=/io/github/notula/Notula/SearchProvider$' /usr/share/gnome-shell/search-providers/io.github.notula.Notula.search-provider.ini || fail "no GNOME Shell search provider file"
pass "desktop entry and metainfo valid; styles, icons, D-Bus service and search provider in place"

# Translations: each language's catalog installed and read by gettext, the desktop entry and the
# metainfo carrying the language.
for lang in $(grep -v '^#' "$repo/po/LINGUAS"); do
  [[ -f /usr/share/locale/$lang/LC_MESSAGES/notula.mo ]] || fail "no $lang catalog installed"
  grep -q "^Comment\[$lang\]=" /usr/share/applications/io.github.notula.Notula.desktop || fail "the desktop entry has no $lang comment"
  grep -q "xml:lang=\"$lang\"" /usr/share/metainfo/io.github.notula.Notula.metainfo.xml || fail "the metainfo has no $lang text"
done
# Read as Notula reads it (its own catalog reader: glibc 2.41's gettext ignores LANGUAGE under
# C.UTF-8): the compiled catalog's entry, not what this machine's locales allow.
german=$(msgunfmt /usr/share/locale/de/LC_MESSAGES/notula.mo | msggrep --no-wrap -K -E -e "^New Note$" | sed -n 's/^msgstr "\(.\+\)"$/\1/p' | tail -n 1)
[[ "$german" != "New Note" && -n "$german" ]] || fail "the installed German catalog does not translate \"New Note\""
pass "translations installed ($(grep -v '^#' "$repo/po/LINGUAS" | paste -sd' ')): \"New Note\" is \"$german\""

# Start the installed binary where the Swift toolchain cannot be seen.
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")  # /opt/swift/usr/bin/swift → /opt/swift
[[ -d "$toolchain" && "$toolchain" != / ]] || fail "cannot find the Swift toolchain's folder ($toolchain)"
home="$work/home"
mkdir -p "$home/config/notula" "$home/data" "$home/state" "$home/cache"
echo '{"storage": "local"}' >"$home/config/notula/preferences.json"
unshare --mount --propagation private sh -c '
  mount -t tmpfs -o size=1m hidden "$1" || exit 97
  [ -z "$(ls -A "$1")" ] || exit 98
  exec env HOME="$2" XDG_CONFIG_HOME="$2/config" XDG_DATA_HOME="$2/data" XDG_STATE_HOME="$2/state" XDG_CACHE_HOME="$2/cache" \
    /usr/bin/notula' hide "$toolchain" "$home" >"$work/notula.log" 2>&1 &
app=$!
shown=""
for _ in $(seq 1 100); do
  shown=$(xdotool search --onlyvisible --name '^Notula$' 2>/dev/null | head -1 || true)
  [[ -n "$shown" ]] && break
  kill -0 "$app" 2>/dev/null || { cat "$work/notula.log"; fail "notula ended (status $(wait "$app"; echo $?)) with the toolchain hidden"; }
  sleep 0.1
done
[[ -n "$shown" ]] || { cat "$work/notula.log"; fail "no window within 10 s"; }
# The library folder is made by the storage queue, after the window shows from the index.
for _ in $(seq 1 100); do [[ -d "$home/data/notula/Notes" ]] && break; sleep 0.1; done
[[ -d "$home/data/notula/Notes" ]] || { cat "$work/notula.log"; fail "the installed app did not make its library folder within 10 s of its window"; }
pass "/usr/bin/notula shows its window with $toolchain hidden"
xdotool windowactivate --sync "$shown" key ctrl+q 2>/dev/null || xdotool key ctrl+q
for _ in $(seq 1 100); do kill -0 "$app" 2>/dev/null || break; sleep 0.1; done
kill -0 "$app" 2>/dev/null && fail "notula did not quit on Ctrl+Q"
pass "quit with Ctrl+Q"

dpkg-query -L notula | while read -r path; do if [[ -f "$path" ]]; then echo "$path"; fi; done >"$work/files"
dpkg -r notula >/dev/null
left=$(while read -r path; do if [[ -e "$path" ]]; then echo "$path"; fi; done <"$work/files")
[[ -z "$left" ]] || fail "left after dpkg -r: $left"
[[ ! -e /usr/bin/notula ]] || fail "/usr/bin/notula is still there"
pass "removed: none of its $(wc -l <"$work/files") files left"
echo "test-deb: $passed passed, 0 failed"
