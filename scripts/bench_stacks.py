#!/usr/bin/python3
"""Names the stacks the app takes of its main thread during a stall (`notula-stall-stack <t>
<file+0xoffset …>`, StallMonitor): each frame becomes the function it is in, found with `nm`
(the binary's own symbols; a system library's exported ones, so a frame there is named by the
nearest exported function before it) and Swift names shortened with `swift-demangle
--simplified`. Used by the benchmarks (`stall_stack`), or alone on an app's output:

    scripts/bench_stacks.py < output-of-notula
"""
import bisect
import functools
import shutil
import subprocess
import sys


@functools.lru_cache(maxsize=None)
def symbols(path):
    """(addresses, names) of `path`'s functions, sorted by address."""
    for flags in (["-n", "--defined-only"], ["-D", "-n", "--defined-only"]):
        result = subprocess.run(["nm", *flags, path], capture_output=True, text=True)
        entries = []
        for line in result.stdout.splitlines():
            parts = line.split(maxsplit=2)
            if len(parts) == 3 and parts[1] in "tTwWiI":
                try:
                    entries.append((int(parts[0], 16), parts[2]))
                except ValueError:
                    pass
        if entries:
            entries.sort()
            return [address for address, _ in entries], [name for _, name in entries]
    return [], []


def demangled(names):
    tool = shutil.which("swift-demangle")
    if not tool or not names:
        return names
    result = subprocess.run([tool, "--simplified"], input="\n".join(names), capture_output=True, text=True)
    lines = result.stdout.splitlines()
    return lines if len(lines) == len(names) else names


def name_frames(frames):
    """Function names of `file+0xoffset` frames, innermost first."""
    names = []
    for frame in frames:
        path, _, offset = frame.rpartition("+0x")
        try:
            address = int(offset, 16)
        except ValueError:
            names.append(frame)
            continue
        addresses, found = symbols(path) if path and path != "?" else ([], [])
        index = bisect.bisect_right(addresses, address - 1) - 1  # a return address follows its call
        names.append(found[index] if index >= 0 else frame)
    return [name[:160] for name in demangled(names)]


def stall_stack(lines, end, milliseconds):
    """The named stack the app took during the stall of `milliseconds` that ended at `end`
    (monotonic seconds), or None: the last one taken inside it."""
    start = end - milliseconds / 1000
    taken = None
    for line in lines:
        parts = line.split()
        if len(parts) > 2 and parts[0] == "notula-stall-stack" and start <= float(parts[1]) <= end + 0.001:
            taken = parts[2:]
    return name_frames(taken) if taken else None


def print_stack(stack, indent="    ", depth=12):
    """Prints the frames of a named stack that say most: the app's own and GTK's, innermost first."""
    if not stack:
        print(f"{indent}(no stack taken: the stall was under 20 ms, or the sampler is off)")
        return
    for name in stack[:depth]:
        print(f"{indent}{name}")


def main():
    for line in sys.stdin:
        parts = line.split()
        if len(parts) > 2 and parts[0] == "notula-stall-stack":
            print(f"stack at {parts[1]}:")
            print_stack(name_frames(parts[2:]), depth=40)
    return 0


if __name__ == "__main__":
    sys.exit(main())
