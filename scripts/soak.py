#!/usr/bin/python3
"""make soak: the acceptance suite (in parts at once, as make test runs it) and the GTK suite
run again and again with one core kept busy (as on a loaded machine), then every test's pass
rate. A flaky test shows here as a rate
under 100 % with the reason of each failure; the cause is then fixed, never retried away.

Usage: scripts/soak.py --runs N --binary .build-release/release/notula [--shards N] [--tests NAME,NAME…] [--no-gtk]
Exits 1 when any test failed in any run.
"""
import argparse
import collections
import multiprocessing
import os
import re
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def keep_a_core_busy():
    # A spinning process of its own, at normal priority: the tests share the other core with it.
    while True:
        pass


def run(command, log_path):
    # Three busy things on two cores: every wait in the acceptance driver may take three times
    # as long (NOTULA_WAIT_SCALE; a wait ends as soon as the app did what it waits for). A
    # race still fails: what it waits for never comes.
    env = dict(os.environ, NOTULA_WAIT_SCALE=os.environ.get("NOTULA_WAIT_SCALE", "3"))
    with open(log_path, "w") as log:
        return subprocess.run(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env).returncode


def acceptance_results(log_path):
    results = {}
    for line in open(log_path, errors="replace"):
        match = re.match(r"(PASS|FAIL|SKIP) (\S+) \(([0-9.]+) s\)(?:: (.*))?", line.rstrip("\n"))
        if match:
            results[match[2]] = (match[1], float(match[3]), match[4] or "")
    return results


def gtk_results(log_path):
    results = {}
    last_error = {}
    for line in open(log_path, errors="replace"):
        error = re.match(r".*error: -?\[?(\w+)\.(\w+)\]? : (.*)", line)
        if error:
            last_error[f"{error[1]}.{error[2]}"] = error[3].strip()
        match = re.match(r"Test Case '-?\[?(\w+)[. ](\w+)\]?' (passed|failed|skipped) \(([0-9.]+) seconds\)", line)
        if match:
            name = f"{match[1]}.{match[2]}"
            verdict = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP"}[match[3]]
            results[name] = (verdict, float(match[4]), last_error.get(name, ""))
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--tests", default="", help="acceptance tests whose names contain these (comma-separated)")
    parser.add_argument("--no-gtk", action="store_true", help="the acceptance suite only")
    parser.add_argument("--shards", type=int, default=2, help="acceptance parts run at once, as make test runs them")
    options = parser.parse_args()

    logs = os.path.join(REPO, "build", "soak-logs")
    os.makedirs(logs, exist_ok=True)
    selection = [arg for name in options.tests.split(",") if name for arg in ("-k", name)]
    outcomes = collections.defaultdict(list)  # test → [(verdict, seconds, reason)]
    busy = multiprocessing.Process(target=keep_a_core_busy, daemon=True)
    busy.start()
    started = time.monotonic()
    try:
        for number in range(1, options.runs + 1):
            suites = [("acceptance", ["scripts/acceptance-shards.sh", str(options.shards), options.binary, *selection], acceptance_results)]
            if not options.no_gtk:
                suites.append(("gtk", ["make", "--no-print-directory", "test-gtk"], gtk_results))
            for suite, command, read_results in suites:
                log = os.path.join(logs, f"{suite}-{number}.log")
                begin = time.monotonic()
                run(command, log)
                results = read_results(log)
                for name, outcome in results.items():
                    outcomes[f"{suite} {name}"].append(outcome)
                failed = [name for name, (verdict, _, _) in results.items() if verdict != "PASS"]
                print(f"run {number}: {suite} {len(results) - len(failed)}/{len(results)} in {time.monotonic() - begin:.0f} s"
                      + (f", not passed: {', '.join(failed)}" if failed else ""), flush=True)
    finally:
        busy.terminate()

    print(f"\nsoak: {options.runs} runs with one core busy, {time.monotonic() - started:.0f} s; pass rate of each test:")
    flaky = 0
    for name in sorted(outcomes):
        runs = outcomes[name]
        passes = sum(1 for verdict, _, _ in runs if verdict == "PASS")
        slowest = max(seconds for _, seconds, _ in runs)
        print(f"{100 * passes / len(runs):6.1f} %  {passes}/{len(runs)}  slowest {slowest:6.1f} s  {name}")
        for verdict, _, reason in runs:
            if verdict != "PASS":
                print(f"           {verdict}: {reason}")
        if passes != len(runs):
            flaky += 1
    total = len(outcomes)
    print(f"{total - flaky} passed, {flaky} failed, 0 skipped")
    return 1 if flaky else 0


if __name__ == "__main__":
    sys.exit(main())
