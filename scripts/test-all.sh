#!/usr/bin/env bash
# `make test`: every suite once, each timed, from one debug build (the test targets) and one
# release build (the acceptance tests and the .deb). Ends with a table of each suite's count
# and time and one closing line for the whole run; exits non-zero when any suite failed.
# Skips: the suites fail them under CI (CI=true).
# Usage: scripts/test-all.sh   (make test runs it after make deps-test)
set -uo pipefail
cd "$(dirname "$0")/.."
make=(make --no-print-directory)
logs=build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
started=$(date +%s)
summary=()
failed_suites=0
total_passed=0 total_failed=0 total_skipped=0

# Counts from a suite's closing line: XCTest's "Executed N tests, with [K tests skipped and] F
# failures", or the plain "N passed, F failed[, K skipped]" of the other runners.
counts() {
  python3 - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
xc = re.findall(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?", text)
if xc:
    n, s, f = (int(x or 0) for x in xc[-1])
    print(n - s - f, f, s)
else:
    plain = re.findall(r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?", text)
    print(*(int(x or 0) for x in plain[-1]) if plain else (0, 0, 0))
EOF
}

# run_suite NAME COMMAND…: runs it with its output on the console and in $logs/NAME.log.
run_suite() {
  local name=$1
  shift
  local begin=$SECONDS
  echo "==> $name"
  "$@" 2>&1 | tee "$logs/$name.log"
  local status=${PIPESTATUS[0]}
  record "$name" "$status" $((SECONDS - begin))
}

record() {
  local name=$1 status=$2 seconds=$3 passed failed skipped
  read -r passed failed skipped < <(counts "$logs/$name.log")
  # A suite that failed without saying so in its counts (a crash, a build error) is one failure.
  if [[ $status -ne 0 && $failed -eq 0 ]]; then failed=1; fi
  total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed)) total_skipped=$((total_skipped + skipped))
  [[ $status -eq 0 ]] || failed_suites=$((failed_suites + 1))
  summary+=("$(printf '%-12s %6d passed %4d failed %4d skipped %6d s  %s' "$name" "$passed" "$failed" "$skipped" "$seconds" \
    "$([[ $status -eq 0 ]] && echo ok || echo FAILED)")")
}

# The two builds first, one after the other: the core suite's timing tests (crashes at random
# instants, a live library under load) are not run beside a compiler using both cores.
build() {
  local name=$1
  shift
  local begin=$SECONDS
  echo "==> $name build"
  if ! "$@" 2>&1 | tee "$logs/build-$name.log"; then
    echo "make test: the $name build failed"
    echo "0 passed, 1 failed, 0 skipped"
    exit 1
  fi
  build_times+=("$name $((SECONDS - begin)) s")
}
build_times=()
build debug "${make[@]}" build-tests
build release "${make[@]}" build-app translations

run_suite check-po "${make[@]}" check-po
run_suite core "${make[@]}" test-core
run_suite gtk "${make[@]}" test-gtk
run_suite acceptance "${make[@]}" test-acceptance
run_suite validate "${make[@]}" validate
run_suite deb "${make[@]}" test-deb

echo
echo "make test: builds: ${build_times[*]}"
printf '%s\n' "${summary[@]}"
echo "make test: $(( $(date +%s) - started )) s in all"
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[[ $failed_suites -eq 0 ]]
