#!/usr/bin/env python3
"""Writes a synthetic SportsTime workspace for benchmarks (stdlib only, deterministic from --seed).

Built on the real reference data in fixtures/reference/: the seven built-in leagues with their real
teams, home stadiums and time zones. Per league and season: a round-robin schedule shaped like the
league's (season dates, games per team, home/away balance, daily/weekly rhythm), a small postseason,
MLB doubleheaders, postponements (outdoor leagues) with makeup games, and team/venue names as they
were on the game's date (renames and relocations from team-aliases.csv / stadium-aliases.csv).
Each league-season is published by three overlapping sources with different layouts, coverage,
priorities and scrapedAt:

  <league>-<season>-primary   every game; full names, venue, local date + time (venue zone)
  <league>-<season>-feed      ~40% of games; abbreviations, UTC start instants, own game ids
  <league>-<season>-recap     ~15% of games; full names, venue, US dates and 12-hour times, final

Usage: generate.py --out DIR --seasons N [--seed S] [--repo REPO] [--last-year 2025]
The workspace holds pipeline/sources.yaml, fixtures/scraped/<source>/games.csv and copies of
fixtures/reference, fixtures/overrides and fixtures/requests (when present).
"""
import argparse
import csv
import datetime as dt
import os
import random
import shutil
import sys
from zoneinfo import ZoneInfo

# league: (games per team, season start (month, day), end (month, day), crosses year end, rhythm)
LEAGUES = {
    "mlb": (162, (3, 27), (9, 28), False, "daily"),
    "nba": (82, (10, 21), (4, 12), True, "spread"),
    "nhl": (82, (10, 7), (4, 16), True, "spread"),
    "nfl": (17, (9, 4), (1, 4), True, "weekly"),
    "mls": (34, (2, 22), (10, 18), False, "weekend"),
    "wnba": (40, (5, 16), (9, 11), False, "spread"),
    "nwsl": (26, (3, 14), (11, 2), False, "weekend"),
}
OUTDOOR = {"mlb", "mls", "nwsl"}
# Typical local start times per league.
TIMES = {
    "mlb": ["13:05", "18:40", "19:05", "19:10", "20:10"],
    "nba": ["19:00", "19:30", "20:00", "22:00"],
    "nhl": ["19:00", "19:30", "20:00"],
    "nfl": ["13:00", "16:25", "20:20"],
    "mls": ["19:30", "20:30", "17:00"],
    "wnba": ["19:00", "20:00", "15:00"],
    "nwsl": ["19:00", "12:30", "20:00"],
}


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def day(s):
    return dt.date.fromisoformat(s) if s else None


def valid(row, date):
    lo, hi = day(row["valid_from"]), day(row["valid_until"])
    return (lo is None or lo <= date) and (hi is None or date <= hi)


class Reference:
    def __init__(self, folder):
        self.stadiums = {r["id"]: r for r in read_csv(os.path.join(folder, "stadiums.csv"))}
        self.teams = [r for r in read_csv(os.path.join(folder, "teams.csv")) if r["sport"] in LEAGUES]
        self.team_aliases = {}
        for r in read_csv(os.path.join(folder, "team-aliases.csv")):
            if r["source_system"] == "":
                self.team_aliases.setdefault((r["team_id"], r["kind"]), []).append(r)
        # Dated homes (relocations, temporary homes) from team-homes.csv when the reference has it.
        self.homes = {}
        path = os.path.join(folder, "team-homes.csv")
        if os.path.exists(path):
            for r in read_csv(path):
                self.homes.setdefault(r["team_id"], []).append(r)
        self.stadium_aliases = {}
        for r in read_csv(os.path.join(folder, "stadium-aliases.csv")):
            if r["source_system"] == "":
                self.stadium_aliases.setdefault(r["stadium_id"], []).append(r)

    def team_name(self, team, kind, date):
        """The team's name of this kind on this date; None when the team did not exist yet."""
        rows = [r for r in self.team_aliases.get((team["id"], kind), []) if valid(r, date)]
        # A dated name (a rename or relocation) is the one in use on that date.
        dated = [r for r in rows if r["valid_from"] or r["valid_until"]]
        if dated:
            return dated[0]["value"]
        preferred = {"fullName": (team["market"] + " " + team["name"]).strip(), "name": team["name"],
                     "abbreviation": team["abbreviation"]}[kind]
        for r in rows:
            if r["value"] == preferred:
                return preferred
        return rows[0]["value"] if rows else None

    def home(self, team, date):
        for r in self.homes.get(team["id"], []):
            if valid(r, date) and r["stadium_id"] in self.stadiums:
                return self.stadiums[r["stadium_id"]]
        return self.stadiums[team["home_stadium_id"]]

    def stadium_name(self, stadium, date):
        for r in self.stadium_aliases.get(stadium["id"], []):
            if valid(r, date) and (r["valid_from"] or r["valid_until"]):
                return r["name"]
        return stadium["name"]


def season_label(sport, year):
    return f"{year}-{(year + 1) % 100:02d}" if LEAGUES[sport][3] and sport != "nfl" else str(year)


def round_robin(n):
    """Circle method: n-1 rounds (n even) of n/2 pairs of indices; a None index is a bye."""
    ids = list(range(n)) + ([None] if n % 2 else [])
    m = len(ids)
    rounds = []
    for _ in range(m - 1):
        rounds.append([(ids[i], ids[m - 1 - i]) for i in range(m // 2)])
        ids = [ids[0]] + [ids[-1]] + ids[1:-1]
    return rounds


def schedule(ref, sport, year, rng):
    """A list of game dicts for one league-season."""
    per_team, (sm, sd), (em, ed), crosses, rhythm = LEAGUES[sport]
    start = dt.date(year, sm, sd)
    end = dt.date(year + (1 if crosses else 0), em, ed)
    teams = [t for t in ref.teams if t["sport"] == sport and ref.team_name(t, "fullName", start)]
    teams.sort(key=lambda t: t["id"])
    rng.shuffle(teams)
    base = round_robin(len(teams))
    rounds = []
    cycle = 0
    while len(rounds) < per_team:
        for pairs in base:
            rounds.append([(a, b) if (cycle + i) % 2 == 0 else (b, a) for i, (a, b) in enumerate(pairs)])
        cycle += 1
    rounds = rounds[:per_team]
    days = (end - start).days + 1
    games = []
    for r, pairs in enumerate(rounds):
        first = start + dt.timedelta(days=r * days // len(rounds))
        if rhythm == "weekly":
            first = start + dt.timedelta(weeks=r)
        for i, (home_i, away_i) in enumerate(p for p in pairs if None not in p):
            d = first
            if rhythm == "spread":
                d = first + dt.timedelta(days=i % max(1, min(3, days // len(rounds))))
            elif rhythm == "weekly":
                d = first + dt.timedelta(days=0 if i == 0 else (3 if i < len(pairs) - 1 else 4))
            elif rhythm == "weekend":
                d = first + dt.timedelta(days=i % 2)
            games.append(dict(sport=sport, home=teams[home_i], away=teams[away_i], date=d,
                              time=rng.choice(TIMES[sport]), kind="regular", number=None, status="scheduled",
                              makeup=None))
    # A small postseason: the first eight teams, single games, a round every three days.
    field = list(range(min(8, len(teams))))
    d = end + dt.timedelta(days=3)
    while len(field) > 1:
        nxt = []
        for k in range(len(field) // 2):
            a, b = field[k], field[-1 - k]
            games.append(dict(sport=sport, home=teams[a], away=teams[b], date=d, time=TIMES[sport][-1],
                              kind="postseason", number=None, status="scheduled", makeup=None))
            nxt.append(a if rng.random() < 0.6 else b)
        field = sorted(nxt)
        d += dt.timedelta(days=7 if rhythm == "weekly" else 3)
    extra = []
    for g in games:
        if g["kind"] != "regular":
            continue
        roll = rng.random()
        if sport == "mlb" and roll < 0.012:
            g["number"], g["time"] = 1, "13:05"
            extra.append(dict(g, number=2, time="18:40"))
        elif sport in OUTDOOR and roll < 0.022:
            g["status"] = "postponed"
            g["makeup"] = g["date"] + dt.timedelta(days=rng.randint(1, 20))
            extra.append(dict(g, date=g["makeup"], status="scheduled", makeup=None,
                              time=rng.choice(TIMES[sport])))
    games.extend(extra)
    for g in games:
        g["stadium"] = ref.home(g["home"], g["date"])
    return games


def utc_start(g):
    zone = ZoneInfo(g["stadium"]["time_zone"])
    h, m = map(int, g["time"].split(":"))
    local = dt.datetime(g["date"].year, g["date"].month, g["date"].day, h, m, tzinfo=zone)
    return local.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def twelve_hour(t):
    h, m = map(int, t.split(":"))
    return f"{(h - 1) % 12 + 1}:{m:02d} {'AM' if h < 12 else 'PM'}"


KIND_LABEL = {"regular": "Regular Season", "postseason": "Playoffs"}


def write_sources(ws, ref, sport, year, rng, yaml_parts):
    season = season_label(sport, year)
    games = schedule(ref, sport, year, rng)
    games.sort(key=lambda g: (g["date"], g["time"], g["home"]["id"], g["number"] or 0))
    first = min(g["date"] for g in games)
    last = max(g["date"] for g in games)
    stem = f"{sport}-{season}"

    def folder(kind):
        path = os.path.join(ws, "fixtures", "scraped", f"{stem}-{kind}")
        os.makedirs(path, exist_ok=True)
        return path

    def name(team, kind, date):
        return ref.team_name(team, kind, date) or ref.team_name(team, kind, first) or team["name"]

    # Primary: every game, full names and venues, local date and time.
    with open(os.path.join(folder("primary"), "games.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Date", "Local Time", "Visitors", "Home", "Venue", "City", "Type", "Game", "Status", "Makeup"])
        for g in games:
            w.writerow([g["date"].isoformat(), g["time"], name(g["away"], "fullName", g["date"]),
                        name(g["home"], "fullName", g["date"]), ref.stadium_name(g["stadium"], g["date"]),
                        g["stadium"]["city"], KIND_LABEL[g["kind"]], g["number"] or "",
                        g["status"], g["makeup"].isoformat() if g["makeup"] else ""])
    # Feed: ~40% of games, abbreviations, UTC instants, own ids, a few moved start times.
    with open(os.path.join(folder("feed"), "games.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["game_id", "start_utc", "away", "home", "season_type", "game_no", "state"])
        for k, g in enumerate(games):
            if rng.random() >= 0.4:
                continue
            moved = dict(g, time=f"{int(g['time'][:2]) + 1:02d}{g['time'][2:]}") if rng.random() < 0.03 else g
            w.writerow([f"{sport.upper()}{year}{k:05d}", utc_start(moved), name(g["away"], "abbreviation", g["date"]),
                        name(g["home"], "abbreviation", g["date"]), g["kind"], g["number"] or 0, g["status"]])
    # Recap: ~15% of games, nicknames and venues, US dates and 12-hour times, played games only.
    with open(os.path.join(folder("recap"), "games.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["Day", "Start", "Road", "Host", "Arena", "Result"])
        for g in games:
            if g["status"] != "scheduled" or g["number"] or rng.random() >= 0.15:
                continue
            d = g["date"]
            w.writerow([f"{d.month}/{d.day}/{d.year}", twelve_hour(g["time"]), name(g["away"], "fullName", d),
                        name(g["home"], "fullName", d), ref.stadium_name(g["stadium"], d), "final"])
    before = (first - dt.timedelta(days=20)).isoformat() + "T12:00:00Z"
    middle = (first + (last - first) / 2).isoformat() + "T06:00:00Z"
    after = (last + dt.timedelta(days=5)).isoformat() + "T00:00:00Z"
    yaml_parts.append(f"""
  - id: {stem}-primary
    sport: {sport}
    season: "{season}"
    system: bench-primary
    scope: {stem}
    files: [games.csv]
    format: csv-mapping
    scrapedAt: "{middle}"
    naiveTimeZone: venue
    rejectThreshold: "2%"
    priority: 50
    mapping:
      fields:
        date: {{from: Date, layout: yyyy-MM-dd}}
        time: {{from: Local Time, layout: "HH:mm"}}
        awayTeam: Visitors
        homeTeam: Home
        venue: Venue
        city: City
        kind: {{from: Type, values: {{Regular Season: regular, Playoffs: postseason}}}}
        gameNumber: Game
        status: Status
        makeupDate: {{from: Makeup, layout: yyyy-MM-dd}}

  - id: {stem}-feed
    sport: {sport}
    season: "{season}"
    system: bench-feed
    scope: {stem}
    files: [games.csv]
    format: csv-mapping
    scrapedAt: "{before}"
    naiveTimeZone: UTC
    rejectThreshold: "2%"
    priority: 30
    mapping:
      fields:
        id: game_id
        start: {{from: start_utc, layout: iso8601}}
        awayTeam: away
        homeTeam: home
        kind: season_type
        gameNumber: game_no
        status: state

  - id: {stem}-recap
    sport: {sport}
    season: "{season}"
    system: bench-recap
    scope: {stem}
    files: [games.csv]
    format: csv-mapping
    scrapedAt: "{after}"
    naiveTimeZone: venue
    rejectThreshold: "2%"
    priority: 20
    mapping:
      fields:
        date: {{from: Day, layout: M/d/yyyy}}
        time: {{from: Start, layout: "h:mm a"}}
        awayTeam: Road
        homeTeam: Host
        venue: Arena
        status: Result
""")
    return len(games)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="workspace folder to create (must not exist or be empty)")
    p.add_argument("--seasons", type=int, default=1, help="seasons per league, ending with --last-year")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--last-year", type=int, default=2025)
    p.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    a = p.parse_args()
    if a.seasons < 1:
        sys.exit("generate.py: error: --seasons must be 1 or more")
    if os.path.exists(a.out) and os.listdir(a.out):
        sys.exit(f"generate.py: error: {a.out} is not empty. Give a new folder.")
    ref_dir = os.path.join(a.repo, "fixtures", "reference")
    ref = Reference(ref_dir)
    for sub in ("reference", "overrides", "requests", "geo"):
        src = os.path.join(a.repo, "fixtures", sub)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(a.out, "fixtures", sub))
    os.makedirs(os.path.join(a.out, "pipeline"), exist_ok=True)
    parts = ["# Synthetic sources written by bench/generate.py "
             f"(seed {a.seed}, {a.seasons} season(s) ending {a.last_year}). Do not edit.\nsources:"]
    total = 0
    for year in range(a.last_year - a.seasons + 1, a.last_year + 1):
        for sport in LEAGUES:
            # One generator per league-season: adding seasons never changes the others.
            rng = random.Random(f"{a.seed}-{sport}-{year}")
            total += write_sources(a.out, ref, sport, year, rng, parts)
    with open(os.path.join(a.out, "pipeline", "sources.yaml"), "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    print(total)


if __name__ == "__main__":
    main()
