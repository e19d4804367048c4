#!/usr/bin/env python3
"""Runs one command and prints `<exit code> <wall seconds> <peak RSS in MB> <CPU seconds>` on stdout.

The command's own stdout goes to /dev/null and its stderr to --log (default: inherited). Peak memory
is the child's ru_maxrss (resource.getrusage(RUSAGE_CHILDREN)), so no /usr/bin/time is needed; CPU time
is the change of the children's counters across the runs.
Usage: measure.py [--log FILE] [--repeat N] -- command args...
With --repeat N the command runs N times; the wall time printed is the median, the CPU time the mean.
"""
import resource
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    log, repeat = None, 1
    while args and args[0] != "--":
        if args[0] == "--log":
            log, args = args[1], args[2:]
        elif args[0] == "--repeat":
            repeat, args = int(args[1]), args[2:]
        else:
            sys.exit(f"measure.py: error: unknown option {args[0]}. Use --log FILE, --repeat N, then -- command.")
    if not args[1:]:
        sys.exit("measure.py: error: no command. Use: measure.py [--log FILE] -- command args...")
    cmd = args[1:]
    err = open(log, "a") if log else None
    walls, code = [], 0
    # CPU time is the difference across the runs: the counters of waited-for children start non-zero when
    # python3 is a launcher that ran helpers before it became this process (pyenv's shim runs a few, about
    # 45 ms of CPU, and `exec` keeps their counts).
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(repeat):
        t0 = time.perf_counter()
        code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err).returncode
        walls.append(time.perf_counter() - t0)
    walls.sort()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    rss_mb = usage.ru_maxrss / 1024  # Linux: kilobytes
    cpu = ((usage.ru_utime - before.ru_utime) + (usage.ru_stime - before.ru_stime)) / repeat
    print(f"{code} {walls[len(walls) // 2]:.4f} {rss_mb:.1f} {cpu:.4f}")


if __name__ == "__main__":
    main()
