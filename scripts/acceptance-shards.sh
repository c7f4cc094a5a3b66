#!/usr/bin/env bash
# The acceptance suite in N parts at once, each in a display, D-Bus session and AT-SPI bus of
# its own (scripts/with-display.sh), so they never talk to each other's Notula. The parts share
# one queue: each runner takes the next test nobody took, so all end together. Each part's lines
# are printed once it ends, then one closing line for all; exits 1 if any test failed.
# Usage: scripts/acceptance-shards.sh N BINARY [run.py options…]
set -uo pipefail
cd "$(dirname "$0")/.."
shards=$1 binary=$2
shift 2
logs=$(mktemp -d "${TMPDIR:-/tmp}/notula-acceptance-XXXXXX")
trap 'rm -rf "$logs"' EXIT
pids=()
for shard in $(seq 1 "$shards"); do
  scripts/with-display.sh /usr/bin/python3 Tests/acceptance/run.py --binary "$binary" --queue "$logs/queue" "$@" \
    >"$logs/$shard.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
passed=0 failed=0 skipped=0
for shard in $(seq 1 "$shards"); do
  echo "--- acceptance part $shard of $shards"
  grep -Ev '^([0-9]+ passed, [0-9]+ failed|NOT RUN )' "$logs/$shard.log"
  read -r p f s < <(sed -nE 's/^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p' "$logs/$shard.log" | tail -1)
  if [[ -z "${p:-}" ]]; then failed=$((failed + 1)); status=1; continue; fi  # the part died before its closing line
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
  unset p f s
done
# Tests the runners leave out on this GTK (each runner names them): once each, counted.
not_run=$(cat "$logs"/*.log | grep '^NOT RUN ' | sort -u)
if [[ -n $not_run ]]; then
  echo "--- not run on this GTK"
  echo "$not_run"
  echo "$(echo "$not_run" | wc -l) not run on this GTK (listed above)"
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit "$status"
