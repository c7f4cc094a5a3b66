#!/usr/bin/env bash
# `make test`: every suite once, each timed, from one debug build (the test targets) and one
# release build (the acceptance tests and the .deb), on this machine's Debian, then the same
# again inside a root of each Debian release in NOTULA_TEST_RELEASES (default: trixie, Debian
# 13, unless this machine runs it), made from Debian's archive with mmdebstrap
# (scripts/debian-root.sh; kept in .build-roots/ for the next run). Ends with a table of each
# suite's count and time per distribution and one closing line for the whole run; exits
# non-zero when any suite failed. Skips: the suites fail them under CI (CI=true).
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
# shellcheck disable=SC1091
dist=$(. /etc/os-release && echo "$ID${VERSION_ID:-}")   # debian12
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
releases=${NOTULA_TEST_RELEASES-trixie}
releases=$(echo " $releases " | sed "s/ $codename / /; s/^ *//; s/ *$//")
# The suites to run (all by default), here and, unless NOTULA_RELEASE_SUITES says otherwise, in
# the other releases' roots. On GTK 4.18 the acceptance runner leaves out the few tests it
# cannot drive there yet and lists them (Tests/acceptance/run.py, NOT_ON_NEWER_GTK).
suites=" ${NOTULA_TEST_SUITES:-check-po core gtk acceptance validate deb} "
release_suites=$(echo ${NOTULA_RELEASE_SUITES:-$suites})

# Counts from a suite's closing line: the plain "N passed, F failed[, K skipped]" of our
# runners, else XCTest's own lines for each test case (its "Executed N tests, with F
# failures" counts failed assertions, not tests).
counts() {
  python3 - "$1" <<'EOF'
import re, sys
text = open(sys.argv[1], errors="replace").read()
# The runner's own closing line first: a parallel XCTest run (the core suite) prints
# "Executed" lines only for the processes of failed tests.
plain = re.findall(r"(\d+) passed, (\d+) failed(?:, (\d+) skipped)?", text)
cases = re.findall(r"^Test Case '[^']*' (passed|failed|skipped)", text, re.M)
if plain:
    print(*(int(x or 0) for x in plain[-1]))
elif cases:
    print(*(cases.count(outcome) for outcome in ("passed", "failed", "skipped")))
else:
    print(0, 0, 0)
EOF
}

# run_suite NAME COMMAND…: runs it with its output on the console and in $logs/NAME.log.
run_suite() {
  local name=$1
  shift
  [[ $suites == *" $name "* ]] || return 0
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
  summary+=("$(printf '%-9s %-12s %6d passed %4d failed %4d skipped %6d s  %s' "$dist" "$name" "$passed" "$failed" "$skipped" \
    "$seconds" "$([[ $status -eq 0 ]] && echo ok || echo FAILED)")")
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

# The other releases' roots are made meanwhile: mmdebstrap mostly waits on the network, which
# the builds do not; the suites start only when it is done (its dpkg runs would load the timing
# tests).
root_makers=()
for release in $releases; do
  scripts/debian-root.sh make "$release" ".build-roots/$release" >"$logs/$release-root.log" 2>&1 &
  root_makers+=("$release:$!")
done
# A build that fails ends the run: the roots being made end with it (a root left unfinished
# has no .notula-root and is made again next time).
trap 'for maker in "${root_makers[@]}"; do kill "${maker#*:}" 2>/dev/null || true; done' EXIT

build debug "${make[@]}" build-tests
if [[ $suites == *" acceptance "* || $suites == *" deb "* ]]; then
  build release "${make[@]}" build-app translations
else
  build translations "${make[@]}" translations
fi

root_status=()
for maker in "${root_makers[@]}"; do
  wait "${maker#*:}"
  root_status+=("${maker%%:*}:$?")
done

run_suite check-po "${make[@]}" check-po
run_suite core "${make[@]}" test-core
run_suite gtk "${make[@]}" test-gtk
run_suite acceptance "${make[@]}" test-acceptance
run_suite validate "${make[@]}" validate
run_suite deb "${make[@]}" test-deb

echo "$dist: builds ${build_times[*]}; $(( $(date +%s) - started )) s in all" >"$logs/distribution.txt"
distributions=("$(cat "$logs/distribution.txt")")
printf '%s\n' "${summary[@]}" >"$logs/summary.txt"

# The release suites inside each release's root, through its own `make test` (which installs what
# that release lacks); its table's rows join this one.
for entry in "${root_status[@]}"; do
  release=${entry%%:*} root=.build-roots/${entry%%:*}
  begin=$SECONDS
  if [[ ${entry#*:} -ne 0 ]]; then
    cat "$logs/$release-root.log"
    echo "0 passed, 1 failed, 0 skipped" >>"$logs/$release-root.log"
    dist=$release record "$release-root" 1 $((SECONDS - begin))
    continue
  fi
  echo "==> $release (in $root)"
  scripts/debian-root.sh run "$root" "NOTULA_TEST_RELEASES= NOTULA_TEST_SUITES='$release_suites' make --no-print-directory test" 2>&1 | tee "$logs/$release.log"
  status=${PIPESTATUS[0]}
  rm -rf "${logs:?}/$release"
  cp -r "$root/src/$logs" "$logs/$release" 2>/dev/null || true
  if [[ -s $logs/$release/summary.txt ]]; then
    mapfile -t rows <"$logs/$release/summary.txt"
    summary+=("${rows[@]}")
    distributions+=("$(cat "$logs/$release/distribution.txt")")
    read -r passed failed skipped < <(counts "$logs/$release.log")
    total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed)) total_skipped=$((total_skipped + skipped))
    [[ $status -eq 0 ]] || failed_suites=$((failed_suites + 1))
  else
    # It ended before its table (a build failure, a broken root): one failure.
    dist=$release record "$release" "$status" $((SECONDS - begin))
  fi
done

echo
printf 'make test: %s\n' "${distributions[@]}"
printf '%s\n' "${summary[@]}"
echo "make test: $(( $(date +%s) - started )) s in all"
echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
[[ $failed_suites -eq 0 ]]
