#!/usr/bin/env bash
# The translations are sound: each po/LL.po compiles with `msgfmt --check` (placeholders,
# plural forms, header), po/notula.pot holds exactly what the sources ask to translate today
# (else: make pot), and every language in po/LINGUAS translates every string (else the window
# mixes languages). Usage: scripts/check-po.sh VERSION SWIFT_FILES…   (make check-po)
set -euo pipefail
version=$1
shift
cd "$(dirname "$0")/.."
failed=0
fresh=$(mktemp --suffix=.pot) missing=$(mktemp)
trap 'rm -f "$fresh" "$missing"' EXIT

scripts/make-pot.sh "$fresh" "$version" "$@"
# Unwrapped: xgettext versions wrap long strings at different places (0.21 and 0.23 do).
strip_date() { msgcat --no-wrap "$1" | grep -v '^"POT-Creation-Date:'; }
if ! diff -u <(strip_date po/notula.pot) <(strip_date "$fresh") >/dev/null; then
  echo "check-po: po/notula.pot is out of date with the sources: run make pot" >&2
  diff -u <(strip_date po/notula.pot) <(strip_date "$fresh") | grep '^[-+]msgid' | head -20 >&2
  failed=1
fi

for lang in $(grep -v '^#' po/LINGUAS); do
  po=po/$lang.po
  if ! msgfmt --check -o /dev/null "$po"; then
    echo "check-po: $po does not compile" >&2; failed=1; continue
  fi
  # msgcmp: every msgid of the template present and translated (not fuzzy) in the language.
  if ! msgcmp "$po" po/notula.pot 2>"$missing"; then
    echo "check-po: $po misses translations:" >&2; head -20 "$missing" >&2; failed=1
  fi
  stats=$(msgfmt --statistics -o /dev/null "$po" 2>&1)
  echo "check-po: $lang: $stats"
  [[ "$stats" == *untranslated* || "$stats" == *fuzzy* ]] && { echo "check-po: $po is incomplete" >&2; failed=1; }
done
exit $failed
