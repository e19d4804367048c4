#!/usr/bin/env python3
"""Writes N trip-request YAMLs (deterministic from --seed) for the planner benchmark.

Windows are drawn inside the seasons given with --window SPORT:FIRST:LAST (repeatable); each request
picks one or two sports, a 5-14 day window, a start stadium (a home stadium of one of its sports' teams,
from fixtures/reference/teams.csv) and an objective, in rotation mostGames, mostStadiums, leastDriving
(leastDriving requests also name three required stadiums).
With --budget N every request gets search.labelBudget N (a tiny budget forces the heuristic beam).
Usage: requests.py --out DIR --count N --window mlb:2023-04-01:2023-09-25 [...] [--seed S] [--budget N]
"""
import argparse
import csv
import datetime as dt
import os
import random

p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
p.add_argument("--out", required=True)
p.add_argument("--count", type=int, default=100)
p.add_argument("--seed", type=int, default=7)
p.add_argument("--window", action="append", required=True, help="SPORT:FIRST:LAST")
p.add_argument("--budget", type=int)
p.add_argument("--objective", choices=["mostGames", "mostStadiums", "leastDriving"])
p.add_argument("--reference", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "reference"))
a = p.parse_args()

rng = random.Random(a.seed)
windows = []
for w in a.window:
    sport, first, last = w.split(":")
    windows.append((sport, dt.date.fromisoformat(first), dt.date.fromisoformat(last)))
with open(os.path.join(a.reference, "teams.csv"), newline="", encoding="utf-8") as f:
    teams = list(csv.DictReader(f))
homes = {}
for t in teams:
    homes.setdefault(t["sport"], set()).add(t["home_stadium_id"])
objectives = ["mostGames", "mostStadiums", "leastDriving"]
os.makedirs(a.out, exist_ok=True)
for i in range(a.count):
    sport, first, last = windows[i % len(windows)]
    sports = [sport]
    length = rng.randint(5, 14)
    span = max(0, (last - first).days - length)
    begin = first + dt.timedelta(days=rng.randint(0, span))
    end = begin + dt.timedelta(days=length - 1)
    # Sometimes add a second sport whose season overlaps the window.
    others = [s for s, f, l in windows if s != sport and f <= begin and end <= l]
    if others and rng.random() < 0.3:
        sports.append(rng.choice(sorted(others)))
    start = rng.choice(sorted(homes[sport]))
    objective = a.objective or objectives[i % 3]
    rid = f"bench-{i:03d}"
    lines = [f"id: {rid}", f"title: Benchmark request {i}", f"sports: [{', '.join(sports)}]",
             f"firstDate: {begin.isoformat()}", f"lastDate: {end.isoformat()}", f"start: {{stadium: {start}}}",
             f"objective: {objective}", "options: 3"]
    if objective == "leastDriving":
        # Least driving needs somewhere to go: three other home stadiums of the sport.
        others = sorted(homes[sport] - {start})
        lines.append(f"requiredStadiums: [{', '.join(rng.sample(others, min(3, len(others))))}]")
    if a.budget is not None:
        lines.append(f"search: {{labelBudget: {a.budget}}}")
    with open(os.path.join(a.out, rid + ".yaml"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
