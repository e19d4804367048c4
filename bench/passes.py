#!/usr/bin/env python3
"""Ingest, normalize and merge of one workspace's fixtures, several passes from clean outputs.

Usage (from a scratch workspace's folder): bench/passes.py --bin BIN [--passes 11]
Each pass first removes the workspace's out/ingest, out/normalize and out/merge.
Prints one Markdown line: the CPU time (user + system, from the change of the children's counters) of
the three stage processes together, as the median of the passes with the lowest and highest, its user
and system parts, the median wall time and the passes' page faults. A single pass on a shared machine
swings by a tenth or more; the median and the spread say where the figure stands.
"""
import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--passes", type=int, default=11)
    args = parser.parse_args()
    commands = [
        [f"{args.bin}/sportstime-ingest", "--sources", "pipeline/sources.yaml", "--scraped", "fixtures/scraped",
         "--out", "out/ingest"],
        [f"{args.bin}/sportstime-normalize", "--in", "out/ingest", "--reference", "fixtures/reference",
         "--out", "out/normalize"],
        [f"{args.bin}/sportstime-merge", "--normalized", "out/normalize", "--reference", "fixtures/reference",
         "--overrides", "fixtures/overrides", "--out", "out/merge"],
    ]
    passes = []
    for _ in range(args.passes):
        for folder in ("out/ingest", "out/normalize", "out/merge"):
            shutil.rmtree(folder, ignore_errors=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        for command in commands:
            done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if done.returncode != 0:
                sys.exit(f"bench/passes.py: error: {command[0]} exited {done.returncode}. Run it by hand to see why.")
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
        passes.append((user + system, user, system, wall, after.ru_minflt - before.ru_minflt))
    cpu = [p[0] for p in passes]
    print(f"Ingest + normalize + merge of the real fixtures, {args.passes} passes from clean outputs: "
          f"**CPU {statistics.median(cpu):.3f} s** (median; lowest {min(cpu):.3f}, highest {max(cpu):.3f}; "
          f"user {statistics.median(p[1] for p in passes):.3f}, system {statistics.median(p[2] for p in passes):.3f}), "
          f"wall {statistics.median(p[3] for p in passes):.3f} s, "
          f"{statistics.median(p[4] for p in passes):,.0f} page faults a pass.")


if __name__ == "__main__":
    main()
