#!/usr/bin/env bash
# Extracts the translation template: tr/trn/trc/trnc calls in the Swift sources (read as C, whose
# string literals Swift's single-line ones are; multi-line """ literals, never translated, are
# blanked first so the C reader does not trip over them), then the desktop entry and metainfo.
# Usage: scripts/make-pot.sh OUTPUT.pot VERSION SWIFT_FILES…   (make pot; paths from the repo)
set -euo pipefail
out=$(realpath -m "$1") version=$2
shift 2
cd "$(dirname "$0")/.."
repo=$PWD
mirror=$(mktemp -d)
trap 'rm -rf "$mirror"' EXIT
python3 - "$mirror" "$@" <<'PY'
import os, re, sys
mirror = sys.argv[1]
for path in sys.argv[2:]:
    text = open(path, encoding="utf-8").read()
    # Keeps the line count, so the template's references stay right.
    text = re.sub(r'"""[\s\S]*?"""', lambda m: '""' + "\n" * m.group(0).count("\n"), text)
    target = os.path.join(mirror, path)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    open(target, "w", encoding="utf-8").write(text)
PY
common=(--from-code=UTF-8 --package-name=Notula --package-version="$version"
        --msgid-bugs-address=https://github.com/notula/notula/issues --copyright-holder="The Notula developers"
        --sort-by-file --add-location=file)
(cd "$mirror" && xgettext "${common[@]}" --language=C --keyword= --keyword=tr --keyword=trn:1,2 \
  --keyword=trc:1c,2 --keyword=trnc:1c,2,3 --add-comments=TRANSLATORS: -o "$out" "$@")
xgettext "${common[@]}" --join-existing -o "$out" \
  data/io.github.notula.Notula.desktop.in data/io.github.notula.Notula.metainfo.xml.in
