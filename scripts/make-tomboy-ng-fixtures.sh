#!/usr/bin/env bash
# Writes Tests/Fixtures/tomboy-ng/*.note with the real tomboy-ng (Debian's `tomboy-ng`, Qt, run
# offscreen): its own Markdown import turns a Markdown file into a note in its repository, so
# the import tests (NoteImportTests) read notes exactly as tomboy-ng writes them.
# Run:  scripts/make-tomboy-ng-fixtures.sh   (needs `apt-get install tomboy-ng`)
set -euo pipefail
cd "$(dirname "$0")/.."
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
repo="$home/.local/share/tomboy-ng"
mkdir -p "$home/.config/tomboy-ng" "$repo"
printf '[BasicSettings]\nNotesPath=%s/\n' "$repo" > "$home/.config/tomboy-ng/tomboy-ng.cfg"
cat > "$home/Shopping.md" <<'NOTE'
# Shopping
Some **bold** and *italic* and `mono` words, ~~gone~~.

## Large line
- one
- two
    - two.a
NOTE
HOME="$home" QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$home" tomboy-ng --no-splash --import-md="$home/Shopping.md"
mkdir -p Tests/Fixtures/tomboy-ng
rm -f Tests/Fixtures/tomboy-ng/*.note
cp "$repo"/*.note Tests/Fixtures/tomboy-ng/shopping.note
echo "make-tomboy-ng-fixtures: $(ls Tests/Fixtures/tomboy-ng)"
