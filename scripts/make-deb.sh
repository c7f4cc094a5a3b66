#!/usr/bin/env bash
# Builds build/notula_VERSION_amd64.deb from the release build (static Swift runtime): the
# binary, desktop entry, icons, metainfo, editor styles and docs under /usr, `Depends` computed
# by dpkg-shlibdeps from what the binary links, then checked with lintian when it is installed.
# Usage: scripts/make-deb.sh BINARY VERSION DEB   (make deb runs it after `make build-app`)
set -euo pipefail

if [[ $# -ne 3 || -z "$2" ]]; then
  echo "usage: $0 BINARY VERSION DEB" >&2
  exit 2
fi
binary=$(realpath "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
version=$2
mkdir -p "$(dirname "$3")"
deb=$(realpath "$3")
arch=$(dpkg --print-architecture)
work=$(mktemp -d "${TMPDIR:-/tmp}/notula-deb-XXXXXX")
trap 'rm -rf "$work"' EXIT
stage="$work/notula_${version}_${arch}"

# The files, as `make install` lays them out, under /usr.
make -C "$repo" --no-print-directory install-files DESTDIR="$stage" PREFIX=/usr BINARY="$binary" >/dev/null
# Symbols stay (Swift's backtraces name functions with them); debug info goes.
strip --strip-debug "$stage/usr/bin/notula"

doc="$stage/usr/share/doc/notula"
install -d "$doc"
cat >"$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: Notula
Upstream-Contact: The Notula developers
Source: https://github.com/notula/notula

Files: *
Copyright: 2026 The Notula developers
License: GPL-3.0-or-later
 This program is free software: you can redistribute it and/or modify it under the terms of
 the GNU General Public License as published by the Free Software Foundation, either version 3
 of the License, or (at your option) any later version.
 .
 On Debian systems, the complete text of the GNU General Public License version 3 can be found
 in "/usr/share/common-licenses/GPL-3".
EOF
date_r=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'notula (%s) unstable; urgency=medium\n\n  * Release %s: see https://github.com/notula/notula.\n\n -- The Notula developers <notula@users.noreply.github.com>  %s\n' \
  "$version" "$version" "$date_r" | gzip -9n >"$doc/changelog.gz"  # a native package: changelog.gz
chmod 644 "$doc/copyright" "$doc/changelog.gz"
install -Dm644 "$repo/data/lintian/notula" "$stage/usr/share/lintian/overrides/notula"

# Depends: what the binary links, as dpkg-shlibdeps finds it (it wants a debian/control).
mkdir -p "$work/shlibs/debian"
printf 'Source: notula\n\nPackage: notula\nArchitecture: any\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$stage/usr/bin/notula" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[[ -n "$depends" ]] || { echo "make-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

# Recommends: gdk-pixbuf's loaders for SVG and WebP pictures in notes (without them such a
# picture shows a placeholder), and a Hunspell dictionary for spelling (without one, Preferences
# says which package to install).
install -d "$stage/DEBIAN"
cat >"$stage/DEBIAN/control" <<EOF
Package: notula
Version: $version
Architecture: $arch
Maintainer: The Notula developers <notula@users.noreply.github.com>
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Recommends: librsvg2-common, webp-pixbuf-loader, hunspell-en-us | hunspell-dictionary
Section: editors
Priority: optional
Homepage: https://github.com/notula/notula
Description: plain-text notes that save themselves
 Notula keeps every note as a plain-text file in one folder, on this computer
 or in a folder a sync client (Syncthing, Nextcloud, Dropbox) keeps in sync.
 It saves while you type, styles Markdown, shows pictures in notes, shows
 whether each note is saved, in conflict or unsaved, and keeps every note's
 past versions.
EOF
# The icon cache and the desktop database are updated by dpkg triggers of hicolor-icon-theme
# and desktop-file-utils: no maintainer scripts.
find "$stage" -type d -exec chmod 755 {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
echo "make-deb: $deb ($(du -h "$deb" | cut -f1); binary $(du -h "$stage/usr/bin/notula" | cut -f1))"
echo "make-deb: Depends: $depends"
if command -v lintian >/dev/null; then
  # Exceptions are in the package's overrides (data/lintian/notula says why for each).
  lintian --fail-on error,warning "$deb"
fi
