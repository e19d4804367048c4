#!/usr/bin/env python3
"""Runner overhead side by side with `git status`, on a copy of the real pipeline (never this checkout's out/).

    bench/runner.py [--bin .build/release] [--repeat 21] [--pairs 3]

Copies Package.swift, Sources, fixtures, pipeline and out into a temporary git repository, runs the
pipeline once so everything is up to date, then measures, interleaved round-robin in one run:
`sportstime status`, a no-op `sportstime run` and `git status` (medians of --repeat, wall and CPU ms),
and `sportstime run --force --jobs 1` against `--jobs 2` (--pairs alternating pairs, medians), with how
the runs' own reports split the time (fan-out instances, stages that run alone, the runner between them)
and the best speed-up that split allows.
With --pairs, also the runner's overhead per stage: `run --force --jobs 1` against the same stage
commands (argv from the lock, in `status` order, outputs to a scratch folder) run one after another by
this script, alternating, as (runner − direct) / stages.
"""
import argparse, glob, json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

def timed(cmd, cwd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if code != 0:
        sys.exit(f"{' '.join(cmd)} exited with {code}")
    return wall, cpu

def last_report(work):
    """The newest run report's total seconds and the seconds of fan-out instances (`stage@item`) and of
    the other stages, each as the runner timed it: its process and the check of its outputs."""
    folder = max(glob.glob(os.path.join(work, ".pipeline", "runs", "*")), key=lambda p: int(os.path.basename(p)))
    with open(os.path.join(folder, "report.json")) as f:
        report = json.load(f)
    fan = sum(s["seconds"] for s in report["stages"] if "@" in s["stage"])
    alone = sum(s["seconds"] for s in report["stages"] if "@" not in s["stage"])
    return report["seconds"], fan, alone

def direct_commands(runner, work, bin_dir):
    """Every stage's command from the lock, in the order `sportstime status` lists the stages, with the
    runner's staging folder swapped for a scratch one and programs taken from the runner's folder."""
    out = subprocess.run([runner, "status"], cwd=work, capture_output=True, text=True).stdout
    order = [line.split()[0] for line in out.splitlines() if line.strip() and not line.startswith(("up to date", " "))]
    with open(os.path.join(work, "pipeline", "pipeline.lock.json")) as f:
        lock = json.load(f)["stages"]
    commands = []
    for name in order:
        if name not in lock:
            continue
        cmd = [arg.replace(".pipeline/staging/", ".pipeline/direct/") for arg in lock[name]["cmd"]]
        if "/" not in cmd[0] and os.path.exists(os.path.join(bin_dir, cmd[0])):
            cmd[0] = os.path.join(bin_dir, cmd[0])
        commands.append(cmd)
    return commands

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/release")
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    repo = os.getcwd()
    runner = os.path.abspath(os.path.join(args.bin, "sportstime"))
    work = tempfile.mkdtemp(prefix="sportstime-runner-bench-")
    try:
        for name in ["Package.swift", "Sources", "fixtures", "pipeline", "out"]:
            source = os.path.join(repo, name)
            (shutil.copytree if os.path.isdir(source) else shutil.copy2)(source, os.path.join(work, name))
        git = ["git", "-c", "user.email=b@example.com", "-c", "user.name=bench", "-c", "commit.gpgsign=false"]
        subprocess.run(["git", "init", "-q"], cwd=work, check=True)
        subprocess.run(git + ["add", "-A"], cwd=work, check=True)
        subprocess.run(git + ["commit", "-qm", "bench"], cwd=work, check=True)
        timed([runner, "run"], work)
        timed([runner, "status"], work)  # the first status after a run writes the stat snapshot
        commands = {"sportstime status": [runner, "status"], "sportstime run (no-op)": [runner, "run"],
                    "git status": ["git", "status", "--porcelain"]}
        results = {name: ([], []) for name in commands}
        for _ in range(args.repeat):
            for name, cmd in commands.items():
                wall, cpu = timed(cmd, work)
                results[name][0].append(wall)
                results[name][1].append(cpu)
        print(f"| command | wall ms (median of {args.repeat}) | CPU ms (median) |")
        print("|---|--:|--:|")
        for name, (walls, cpus) in results.items():
            print(f"| `{name}` | {statistics.median(walls):.1f} | {statistics.median(cpus):.1f} |")
        if args.pairs > 0:
            jobs = {1: [], 2: []}
            reports = {1: [], 2: []}
            for _ in range(args.pairs):
                for n in (1, 2):
                    jobs[n].append(timed([runner, "run", "--force", "--jobs", str(n)], work)[0] / 1000)
                    reports[n].append(last_report(work))
            one, two = statistics.median(jobs[1]), statistics.median(jobs[2])
            print()
            ratios = [a / b for a, b in zip(jobs[1], jobs[2])]
            print(f"`run --force`: --jobs 1 {one:.2f} s, --jobs 2 {two:.2f} s (medians of {args.pairs}); "
                  f"speed-up {one / two:.2f}x (pair by pair: median {statistics.median(ratios):.2f}x, "
                  f"{min(ratios):.2f}x to {max(ratios):.2f}x); runs: {', '.join(f'{a:.2f}/{b:.2f}' for a, b in zip(jobs[1], jobs[2]))}")
            # Where the time goes, from the runs' own reports: only the fan-out instances can overlap.
            total, fan, alone = (statistics.median(r[k] for r in reports[1]) for k in range(3))
            fan2 = statistics.median(r[1] for r in reports[2])
            best = total - fan / 2
            print()
            print(f"From the run reports (medians): at --jobs 1 the run took {total:.2f} s, of which the fan-out instances "
                  f"(ingest@, plan@: each process and the check of its outputs) {fan:.2f} s, the stages that run alone "
                  f"(normalize, merge, render) {alone:.2f} s and the runner between stages {total - fan - alone:.2f} s. "
                  f"With the fan-outs exactly twice as fast and nothing else changed, --jobs 2 would take {best:.2f} s: "
                  f"at best {total / best:.2f}x. At --jobs 2 the fan-out instances took {fan2:.2f} s in all "
                  f"({(fan2 / fan - 1) * 100:+.0f} %: two at once share the cores with each other and the runner).")
            stages = direct_commands(runner, work, os.path.dirname(runner))
            runs, direct, run_cpu, direct_cpu = [], [], [], []
            for _ in range(args.pairs):
                wall, cpu = timed([runner, "run", "--force", "--jobs", "1"], work)
                runs.append(wall / 1000); run_cpu.append(cpu / 1000)
                shutil.rmtree(os.path.join(work, ".pipeline", "direct"), ignore_errors=True)
                start, cpu = time.perf_counter(), 0.0
                for cmd in stages:
                    for arg in cmd:
                        if ".pipeline/direct/" in arg:
                            os.makedirs(os.path.join(work, os.path.dirname(arg)), exist_ok=True)
                    cpu += timed(cmd, work)[1]
                direct.append(time.perf_counter() - start); direct_cpu.append(cpu / 1000)
            r, d = statistics.median(runs), statistics.median(direct)
            rc, dc = statistics.median(run_cpu), statistics.median(direct_cpu)
            print()
            print(f"Overhead per stage: `run --force --jobs 1` {r:.2f} s wall, {rc:.2f} s CPU (runner and stages) against "
                  f"the {len(stages)} stage commands run directly {d:.2f} s wall, {dc:.2f} s CPU (medians of {args.pairs}, "
                  f"alternating): {(r - d) / len(stages) * 1000:.1f} ms wall and {(rc - dc) / len(stages) * 1000:.1f} ms CPU "
                  f"per stage; pairs (wall): {', '.join(f'{a:.2f}/{b:.2f}' for a, b in zip(runs, direct))}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

main()
