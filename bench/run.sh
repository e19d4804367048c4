#!/usr/bin/env bash
# Benchmarks the release executables on the real fixtures and on synthetic seasons (bench/generate.py)
# and prints Markdown tables on stdout. Run through `make bench` (which builds release first).
# Environment: BENCH_SEASONS (default "1 3 10"), BENCH_SEED (default 2026), BENCH_KEEP=1 keeps the
# temporary workspaces. Progress goes to stderr; each stage's own stderr goes to <workspace>/stage.log.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BENCH_BIN:-"$REPO/.build/release"}
SEASONS=${BENCH_SEASONS:-"1 3 10"}
SEED=${BENCH_SEED:-2026}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sportstime-bench.XXXXXX")
if [[ "${BENCH_KEEP:-0}" != 1 ]]; then trap 'rm -rf "$WORK"' EXIT; fi
MEASURE="python3 $REPO/bench/measure.py"

for exe in sportstime-ingest sportstime-normalize sportstime-merge; do
  [[ -x "$BIN/$exe" ]] || { echo "bench/run.sh: error: $BIN/$exe is missing. Run make build first." >&2; exit 1; }
done
have() { [[ -x "$BIN/$1" ]]; }
say() { echo "bench: $*" >&2; }

# records <files...>: the number of records in these envelopes / JSONL files.
records() {
  python3 - "$@" <<'EOF'
import json, sys
n = 0
for path in sys.argv[1:]:
    if path.endswith(".jsonl"):
        with open(path) as f:
            n += sum(1 for line in f if line.strip())
    else:
        with open(path) as f:
            n += len(json.load(f).get("records", []))
print(n)
EOF
}

# A copy of the repository's inputs (and, for the runner, its spec and the code it fingerprints).
real_workspace() {
  local ws=$1
  mkdir -p "$ws"
  cp -R "$REPO/fixtures" "$REPO/pipeline" "$REPO/Package.swift" "$REPO/Sources" "$ws/"
}

# Rows of the current table: stage, records, wall, peak; kept for the growth table.
declare -A REC WALL PEAK CPU
row() { # dataset stage records wall peak exit cpu
  local rate
  rate=$(python3 -c "w=$4; print(f'{$3 / w:,.0f}' if w > 0 else '-')")
  REC[$1/$2]=$3; WALL[$1/$2]=$4; PEAK[$1/$2]=$5
  local note=""; [[ $6 == 0 ]] || note=" (exit $6)"
  CPU[$1/$2]=$7
  printf '| %s | %s | %.3f | %.3f | %s | %.1f |%s\n' "$2" "$(printf "%'d" "$3")" "$4" "$7" "$rate" "$5" "$note"
}

# stage <dataset> <name> <records command> -- <command...>: runs in the current directory.
stage() {
  local ds=$1 name=$2 count=$3; shift 4
  local out code wall peak cpu
  say "$ds: $name"
  out=$($MEASURE --log stage.log -- "$@")
  read -r code wall peak cpu <<<"$out"
  row "$ds" "$name" "$(eval "$count")" "$wall" "$peak" "$code" "$cpu"
}

# pipeline_table <dataset> <workspace>: every stage once, from clean outputs.
pipeline_table() {
  local ds=$1 ws=$2
  ( cd "$ws"
    echo
    echo "### $ds"
    echo
    echo "| stage | records out | wall s | CPU s | records/s (wall) | peak MB |"
    echo "|---|--:|--:|--:|--:|--:|"
    stage "$ds" ingest 'records out/ingest/*/games.json' -- \
      "$BIN/sportstime-ingest" --sources pipeline/sources.yaml --scraped fixtures/scraped --out out/ingest
    stage "$ds" normalize 'records out/normalize/games/*.json' -- \
      "$BIN/sportstime-normalize" --in out/ingest --reference fixtures/reference --out out/normalize
    stage "$ds" merge 'records out/merge/games/*.json' -- \
      "$BIN/sportstime-merge" --normalized out/normalize --reference fixtures/reference \
      --overrides fixtures/overrides --out out/merge
    if have sportstime-plan && [[ -d "$REPO/fixtures/requests" ]]; then
      stage "$ds" plan 'ls out/plan/*.json 2>/dev/null | wc -l' -- \
        "$BIN/sportstime-plan" --merged out/merge --requests fixtures/requests --out out/plan
      if have sportstime-render; then
        stage "$ds" render 'ls -d out/render/*/ 2>/dev/null | wc -l' -- \
          "$BIN/sportstime-render" --plans out/plan --merged out/merge --geo fixtures/geo --out out/render --no-pdf
      fi
    fi
    local peak total cpu
    peak=$(for s in ingest normalize merge plan render; do echo "${PEAK[$ds/$s]:-0}"; done | sort -g | tail -1)
    total=$(for s in ingest normalize merge plan render; do echo "${WALL[$ds/$s]:-0}"; done | paste -sd+ | bc -l)
    cpu=$(for s in ingest normalize merge plan render; do echo "${CPU[$ds/$s]:-0}"; done | paste -sd+ | bc -l)
    WALL[$ds/total]=$total; REC[$ds/total]=${REC[$ds/merge]}; PEAK[$ds/total]=$peak; CPU[$ds/total]=$cpu
    # ingest + normalize + merge: the part that grows with the data (plan/render do 100 requests).
    WALL[$ds/data]=$(echo "${WALL[$ds/ingest]} + ${WALL[$ds/normalize]} + ${WALL[$ds/merge]}" | bc -l)
    CPU[$ds/data]=$(echo "${CPU[$ds/ingest]} + ${CPU[$ds/normalize]} + ${CPU[$ds/merge]}" | bc -l)
    REC[$ds/data]=${REC[$ds/merge]}; PEAK[$ds/data]=$peak
    printf '| **total** | %s games | %.3f | %.3f | | %.1f (max) |\n' "$(printf "%'d" "${REC[$ds/merge]}")" "$total" "$cpu" "$peak"
    echo
    echo "Raw rows rejected by ingest: $(records out/ingest/*/rejects.jsonl); normalize: $(records out/normalize/rejects.jsonl) rejected, $(records out/normalize/unresolved.json) unresolved names; merge: $(records out/merge/rejects.jsonl) rejected."
    declare -p REC WALL PEAK CPU > "$WORK/$ds.vars"
  )
  # shellcheck disable=SC1090
  source <(sed 's/^declare -A/declare -gA/' "$WORK/$ds.vars")
}

echo "## Pipeline stages"
echo
echo "Each stage run once from clean outputs, release build; wall time includes process start."
echo "Peak MB is the stage process's maximum resident set size."

# --- Real fixtures ---
real_workspace "$WORK/real"
# The standard requests are part of the real workspace; the synthetic ones get generated requests.
pipeline_table real "$WORK/real"
# The data stages again, several passes: a single pass swings by a tenth or more on a shared machine.
say "real: ingest + normalize + merge, ${BENCH_PASSES:-11} passes"
( cd "$WORK/real" && python3 "$REPO/bench/passes.py" --bin "$BIN" --passes "${BENCH_PASSES:-11}" ) || echo "(bench/passes.py failed)"

# --- Instructions: a figure that does not drift with machine load ---
# Each data stage on the real fixtures under valgrind (callgrind counts every instruction the process
# runs, all threads), for this build and for a baseline revision built from `git archive` into
# .pipeline/bench-baseline/<rev> (kept between runs). BENCH_BASELINE=none leaves the baseline out.
BASELINE=${BENCH_BASELINE:-df0663a}
instructions() { # <workspace> <command...>: prints the instruction count and, after a space, how many of
  # them are SHA-256 compression (BoringSSL's block functions, self cost); empty when valgrind fails
  local ws=$1; shift
  ( cd "$ws"
    valgrind --tool=callgrind --callgrind-out-file=callgrind.out --log-file=valgrind.log "$@" >/dev/null 2>>stage.log || true
    total=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' valgrind.log | tail -1)
    [[ -n $total ]] || exit 0
    sha=$(callgrind_annotate --threshold=100 callgrind.out 2>/dev/null \
      | awk '/sha256_block_data_order_/ { gsub(",", "", $1); sum += $1 } END { print sum + 0 }')
    rm -f callgrind.out
    echo "$total ${sha:-0}" )
}
count() { # <prefix> <stage> <workspace> <command...>: fills IR[<prefix>/<stage>] and SHA[<prefix>/<stage>]
  local key=$1/$2; shift 2
  read -r IR[$key] SHA[$key] <<< "$(instructions "$@")"
}
count_stages() { # <workspace> <bin> <prefix>: fills IR[<prefix>/<stage>] and SHA[<prefix>/<stage>]
  local ws=$1 p=$3 bin="$WORK/bin-$3"
  # valgrind 3.19 cannot read the toolchain's DWARF 5 debug info: count on copies without it (same code).
  mkdir -p "$bin"
  for exe in sportstime-ingest sportstime-normalize sportstime-merge sportstime-plan sportstime-render; do strip -g -o "$bin/$exe" "$2/$exe"; done
  say "instructions: $p ingest"
  count $p ingest "$ws" "$bin/sportstime-ingest" --sources pipeline/sources.yaml --scraped fixtures/scraped --out out/ingest
  say "instructions: $p normalize"
  count $p normalize "$ws" "$bin/sportstime-normalize" --in out/ingest --reference fixtures/reference --out out/normalize
  say "instructions: $p merge"
  count $p merge "$ws" "$bin/sportstime-merge" --normalized out/normalize --reference fixtures/reference \
    --overrides fixtures/overrides --out out/merge
  say "instructions: $p plan"
  count $p plan "$ws" "$bin/sportstime-plan" --merged out/merge --requests fixtures/requests --out out/plan-one \
    --request mlb-boston-june-week
  say "instructions: $p render"
  count $p render "$ws" "$bin/sportstime-render" --plans out/plan-one --merged out/merge --geo fixtures/geo \
    --out out/render-one --no-pdf
}
declare -A IR SHA
if command -v valgrind >/dev/null 2>&1; then
  real_workspace "$WORK/instr-now"
  count_stages "$WORK/instr-now" "$BIN" now
  have_base=0
  if [[ $BASELINE != none ]] && git -C "$REPO" rev-parse --verify -q "$BASELINE^{commit}" >/dev/null; then
    base_dir="$REPO/.pipeline/bench-baseline/$(git -C "$REPO" rev-parse --short "$BASELINE")"
    if [[ ! -x "$base_dir/.build/release/sportstime-merge" ]]; then
      say "building the baseline $BASELINE into $base_dir (once)"
      rm -rf "$base_dir"; mkdir -p "$base_dir"
      git -C "$REPO" archive "$BASELINE" | tar -x -C "$base_dir"
      ( cd "$base_dir" && swift build -c release >/dev/null 2>"$WORK/baseline-build.log" ) \
        || { say "baseline build failed (see $WORK/baseline-build.log); left out"; rm -rf "$base_dir"; }
    fi
    if [[ -x "$base_dir/.build/release/sportstime-merge" ]]; then
      mkdir -p "$WORK/instr-base"
      cp -R "$base_dir/fixtures" "$base_dir/pipeline" "$WORK/instr-base/"
      count_stages "$WORK/instr-base" "$base_dir/.build/release" base
      have_base=1
    fi
  fi
  echo
  echo "## Instructions"
  echo
  if [[ $have_base == 1 ]]; then
    echo "Instructions per stage process on the real fixtures (valgrind --tool=callgrind, all threads), this build"
    echo "and the baseline revision $BASELINE (the last one before the one JSON layer), each from clean outputs."
    echo "The plan row is one request (mlb-boston-june-week), the render row that plan. Ratio = baseline / this build"
    echo "(higher = fewer now). SHA-256 is the part of each count in BoringSSL's SHA-256 block function (the"
    echo "digests of each stage's inputs that its envelopes record): valgrind's CPU has no SHA extensions, so it"
    echo "counts the vector code (about 30 instructions a byte) where this machine's CPU runs its SHA instructions."
    echo
    echo "| stage | instructions (this build) | instructions ($BASELINE) | ratio | of which SHA-256 (this build / $BASELINE) |"
    echo "|---|--:|--:|--:|--:|"
  else
    echo "Instructions per stage process on the real fixtures (valgrind --tool=callgrind, all threads), from clean"
    echo "outputs; the plan row is one request (mlb-boston-june-week), the render row that plan. No baseline"
    echo "revision was measured."
    echo
    echo "| stage | instructions (this build) | of which SHA-256 |"
    echo "|---|--:|--:|"
  fi
  for p in now base; do
    IR[$p/data]=$(( ${IR[$p/ingest]:-0} + ${IR[$p/normalize]:-0} + ${IR[$p/merge]:-0} ))
    SHA[$p/data]=$(( ${SHA[$p/ingest]:-0} + ${SHA[$p/normalize]:-0} + ${SHA[$p/merge]:-0} ))
    IR[$p/nosha]=$(( ${IR[$p/data]} - ${SHA[$p/data]} ))
    SHA[$p/nosha]=0
  done
  for s in ingest normalize merge data nosha plan render; do
    label=$s; [[ $s == data ]] && label="**ingest + normalize + merge**"
    [[ $s == nosha ]] && label="ingest + normalize + merge without SHA-256"
    if [[ $have_base == 1 ]]; then
      python3 -c "
now, base, snow, sbase = ${IR[now/$s]:-0}, ${IR[base/$s]:-0}, ${SHA[now/$s]:-0}, ${SHA[base/$s]:-0}
r = f'{base / now:.2f}x' if now and base else '-'
sha = f'{snow:,} / {sbase:,}' if snow or sbase else '-'
print(f'| $label | {now:,} | {base:,} | {r} | {sha} |')"
    else
      python3 -c "print(f'| $label | {${IR[now/$s]:-0}:,} | {${SHA[now/$s]:-0}:,} |')"
    fi
  done
  declare -p IR SHA > "$WORK/ir.vars"
else
  echo
  echo "## Instructions"
  echo
  echo "Not measured: valgrind is not installed (make bench installs it; bench/run.sh alone does not)."
fi

# --- Synthetic seasons ---
LAST_YEAR=2025
declare -A GAMES
for n in $SEASONS; do
  ws="$WORK/syn$n"
  say "generating $n season(s)"
  GAMES[$n]=$(python3 "$REPO/bench/generate.py" --out "$ws" --seasons "$n" --seed "$SEED" --last-year $LAST_YEAR)
  rm -rf "$ws/fixtures/requests"
  python3 "$REPO/bench/requests.py" --out "$ws/fixtures/requests" --count 100 --seed "$SEED" \
    --window mlb:$LAST_YEAR-04-01:$LAST_YEAR-09-25 --window nba:$LAST_YEAR-10-25:$((LAST_YEAR + 1))-04-10 \
    --window nhl:$LAST_YEAR-10-10:$((LAST_YEAR + 1))-04-10 --window mls:$LAST_YEAR-03-01:$LAST_YEAR-10-15 \
    --window wnba:$LAST_YEAR-05-20:$LAST_YEAR-09-05 --window nfl:$LAST_YEAR-09-05:$LAST_YEAR-12-28 \
    --window nwsl:$LAST_YEAR-03-20:$LAST_YEAR-10-30
  pipeline_table "synthetic, $n season(s) x 7 leagues (${GAMES[$n]} scheduled games, seed $SEED)" "$ws"
done

# --- Growth ---
set -- $SEASONS
base=$1
echo
echo "## Growth between sizes"
echo
echo "Factors against the 1-season set: records, wall and CPU time, and CPU time per record (1.00 = linear)."
echo "data = ingest + normalize + merge (records: merged games); plan and render do 100 requests at every size."
echo
echo "| stage | size | records x | wall x | CPU x | CPU/record x | peak MB x |"
echo "|---|---|--:|--:|--:|--:|--:|"
bname="synthetic, $base season(s) x 7 leagues (${GAMES[$base]} scheduled games, seed $SEED)"
for s in ingest normalize merge data plan render total; do
  for n in $SEASONS; do
    [[ $n == "$base" ]] || [[ -z "${WALL[$bname/$s]:-}" ]] && continue
    name="synthetic, $n season(s) x 7 leagues (${GAMES[$n]} scheduled games, seed $SEED)"
    python3 -c "
def ratio(a, b): return a / b if b else float('nan')
r = ratio(${REC[$name/$s]:-0}, ${REC[$bname/$s]:-0}); w = ratio(${WALL[$name/$s]:-0}, ${WALL[$bname/$s]:-0})
m = ratio(${PEAK[$name/$s]:-0}, ${PEAK[$bname/$s]:-0}); c = ratio(${CPU[$name/$s]:-0}, ${CPU[$bname/$s]:-0})
print(f'| $s | $n vs $base seasons | {r:.2f} | {w:.2f} | {c:.2f} | {ratio(c, r):.2f} | {m:.2f} |')"
  done
done

# --- Planner ---
if have sportstime-plan && [[ -d "$REPO/fixtures/requests" ]]; then
  echo
  echo "## Planner"
  echo
  ( cd "$WORK/real"
    echo "Standard requests (fixtures/requests) on the real merged store, one process per request"
    echo "(median of 3 runs; includes loading the store)."
    echo
    echo "| request | objective | wall s | peak MB | options | best score | proven optimal |"
    echo "|---|---|--:|--:|--:|--:|---|"
    for f in $(ls fixtures/requests/*.yaml 2>/dev/null); do
      id=$(basename "$f" .yaml)
      read -r code wall peak _ <<<"$($MEASURE --repeat 3 --log stage.log -- "$BIN/sportstime-plan" --merged out/merge \
        --requests fixtures/requests --out out/plan-one --request "$id")"
      python3 - "$id" "$wall" "$peak" "$code" <<'EOF'
import json, sys
rid, wall, peak, code = sys.argv[1:]
try:
    plan = json.load(open(f"out/plan-one/{rid}.json"))["records"][0]
    opts = plan["options"]
    best = f"{opts[0]['score']['total']:g}" if opts else "-"
    proven = str(opts[0]["isProvenOptimal"]).lower() if opts else "-"
    print(f"| {rid} | {plan['request']['objective']} | {float(wall):.3f} | {float(peak):.1f} | {len(opts)} | {best} | {proven} |"
          + ("" if code == "0" else f" (exit {code})"))
except (OSError, KeyError, IndexError, ValueError):
    print(f"| {rid} | - | {float(wall):.3f} | {float(peak):.1f} | - | - | - | (exit {code}, no plan)")
EOF
    done
  )
  # 100 requests over a full season, exact (default budget) and heuristic (labelBudget 1: beam only).
  echo
  echo "100 generated requests (bench/requests.py: 5-14 days, 1-2 sports, rotating objectives), one process:"
  echo
  echo "| store | mode | wall s | peak MB | plans | proven optimal |"
  echo "|---|---|--:|--:|--:|--:|"
  plan100() { # label workspace mode budget windows...
    local label=$1 ws=$2 mode=$3 budget=$4; shift 4
    ( cd "$ws"
      rm -rf "req-$mode" "out/plan-$mode"
      python3 "$REPO/bench/requests.py" --out "req-$mode" --count 100 --seed "$SEED" \
        --reference fixtures/reference ${budget:+--budget $budget} "$@"
      read -r code wall peak _ <<<"$($MEASURE --log stage.log -- "$BIN/sportstime-plan" --merged out/merge \
        --requests "req-$mode" --out "out/plan-$mode")"
      python3 - "$label" "$mode" "$wall" "$peak" "$code" "out/plan-$mode" <<'EOF'
import glob, json, sys
label, mode, wall, peak, code, folder = sys.argv[1:]
plans = [json.load(open(p))["records"][0] for p in sorted(glob.glob(folder + "/*.json"))]
proven = sum(1 for p in plans if p["options"] and p["options"][0]["isProvenOptimal"])
print(f"| {label} | {mode} | {float(wall):.3f} | {float(peak):.1f} | {len(plans)} | {proven} |" + ("" if code == "0" else f" (exit {code})"))
EOF
    )
  }
  REAL_WINDOWS=(--window mlb:2023-04-01:2023-09-25 --window wnba:2023-05-20:2023-09-05 --window mls:2025-03-01:2025-10-15
                --window nba:2025-10-25:2026-04-10 --window nhl:2025-10-10:2026-04-10 --window nfl:2023-09-08:2023-12-28)
  plan100 real "$WORK/real" exact "" "${REAL_WINDOWS[@]}"
  plan100 real "$WORK/real" heuristic 1 "${REAL_WINDOWS[@]}"
  for n in $SEASONS; do
    name="synthetic, $n season(s) x 7 leagues (${GAMES[$n]} scheduled games, seed $SEED)"
    echo "| synthetic $n season(s) (the plan stage above) | exact | ${WALL[$name/plan]:-} | ${PEAK[$name/plan]:-} | ${REC[$name/plan]:-} | |"
  done
  echo
  echo "Heuristic (beam, labelBudget 1) vs exact (default budget) on the same 100 requests, best option's"
  echo "score.total (mostGames / mostStadiums: higher is better, ratio heuristic/exact; leastDriving: lower"
  echo "is better, ratio exact/heuristic; 1.000 = the heuristic found the optimum):"
  echo
  ( cd "$WORK/real"
    python3 - <<'EOF'
import glob, json, os
rows = {}
for path in sorted(glob.glob("out/plan-exact/*.json")):
    rid = os.path.basename(path)
    other = os.path.join("out/plan-heuristic", rid)
    if not os.path.exists(other):
        continue
    e = json.load(open(path))["records"][0]
    h = json.load(open(other))["records"][0]
    if not e["options"] or not h["options"] or not e["options"][0]["isProvenOptimal"]:
        continue
    obj = e["request"]["objective"]
    ev, hv = e["options"][0]["score"]["total"], h["options"][0]["score"]["total"]
    if ev == 0 and hv == 0:
        ratio = 1.0
    elif obj == "leastDriving":
        ratio = ev / hv if hv else 1.0
    else:
        ratio = hv / ev if ev else 1.0
    rows.setdefault(obj, []).append(ratio)
print("| objective | requests (exact proven) | mean ratio | worst ratio | optimum found |")
print("|---|--:|--:|--:|--:|")
for obj, rs in sorted(rows.items()):
    print(f"| {obj} | {len(rs)} | {sum(rs)/len(rs):.3f} | {min(rs):.3f} | {sum(1 for r in rs if r >= 0.9999)} |")
EOF
  )
fi

# --- Planner, hard set ---
if have sportstime-plan && [[ -d "$REPO/bench/hard" ]]; then
  echo
  echo "### Planner: hard set (bench/hard)"
  echo
  echo "Three- and four-week multi-league most-stadiums trips and the every-ballpark trip (fewestDays), one"
  echo "process each on the real merged store; value, bound, whether proven, CPU s (user + system)."
  echo
  echo "| request | objective | value | bound | proven | tie-break proven | CPU s | peak MB |"
  echo "|---|---|--:|--:|---|---|--:|--:|"
  rm -rf "$WORK/real/hard-requests"; cp -R "$REPO/bench/hard" "$WORK/real/hard-requests"
  ( cd "$WORK/real"
    for f in hard-requests/*.yaml; do
      id=$(basename "$f" .yaml)
      say "hard: $id"
      read -r code wall peak cpu <<<"$($MEASURE --log stage.log -- "$BIN/sportstime-plan" --merged out/merge \
        --requests hard-requests --out out/plan-hard --request "$id")"
      python3 - "$id" "$cpu" "$peak" "$code" <<'EOF2'
import json, sys
rid, cpu, peak, code = sys.argv[1:]
try:
    plan = json.load(open(f"out/plan-hard/{rid}.json"))["records"][0]
    s = plan["search"]
    opts = plan["options"]
    value = f"{opts[0]['score']['total']:g}" if opts else "-"
    bound = s.get("upperBound", s.get("lowerBound"))
    bound = value if bound is None and s["isExact"] else ("-" if bound is None else f"{bound:g}")
    tie = s.get("tieBreakExact")
    print(f"| {rid} | {plan['request']['objective']} | {value} | {bound} | {str(s['isExact']).lower()} | "
          f"{'-' if tie is None else str(tie).lower()} | {float(cpu):.2f} | {float(peak):.1f} |" + ("" if code == "0" else f" (exit {code})"))
except (OSError, KeyError, IndexError, ValueError):
    print(f"| {rid} | - | - | - | - | - | {float(cpu):.2f} | {float(peak):.1f} | (exit {code}, no plan)")
EOF2
    done
  )
fi

# --- Runner ---
if have sportstime && [[ -f "$REPO/pipeline/pipeline.yaml" ]]; then
  echo
  echo "## Runner (sportstime)"
  echo
  echo "| workspace | command | wall s | peak MB |"
  echo "|---|---|--:|--:|"
  for ds in real syn1; do
    ws="$WORK/runner-$ds"
    if [[ $ds == real ]]; then real_workspace "$ws"; else
      [[ -d "$WORK/syn1" ]] || continue
      mkdir -p "$ws"; cp -R "$WORK/syn1/fixtures" "$ws/"; mkdir -p "$ws/pipeline"
      cp "$WORK/syn1/pipeline/sources.yaml" "$ws/pipeline/"
      cp -R "$REPO/pipeline/pipeline.yaml" "$REPO/pipeline/params.yaml" "$REPO/pipeline/schemas" "$ws/pipeline/"
      cp -R "$REPO/Package.swift" "$REPO/Sources" "$ws/"
    fi
    ( cd "$ws"
      say "runner $ds: full run"
      read -r code wall peak _ <<<"$($MEASURE --log stage.log -- "$BIN/sportstime" run)"
      echo "| $ds | \`sportstime run\` (everything) | $wall | $peak |$([[ $code == 0 ]] || echo " (exit $code)")"
      read -r code wall peak _ <<<"$($MEASURE --repeat 5 --log stage.log -- "$BIN/sportstime" status)"
      echo "| $ds | \`sportstime status\`, all up to date (median of 5) | $wall | $peak |$([[ $code == 0 ]] || echo " (exit $code)")"
      read -r code wall peak _ <<<"$($MEASURE --repeat 5 --log stage.log -- "$BIN/sportstime" run)"
      echo "| $ds | no-op \`sportstime run\` (median of 5) | $wall | $peak |$([[ $code == 0 ]] || echo " (exit $code)")"
    )
  done
fi
# --- Runner beside git status (bench/runner.py: a temporary git repository, interleaved round-robin) ---
if have sportstime && [[ -f "$REPO/pipeline/pipeline.yaml" ]] && command -v git >/dev/null 2>&1; then
  echo
  echo "### Runner overhead beside \`git status\`"
  echo
  echo "A copy of the real pipeline in a temporary git repository, everything up to date; the three commands"
  echo "interleaved round-robin (bench/runner.py), then \`run --force\` with --jobs 1 and 2 in alternating pairs."
  echo
  say "runner beside git status"
  ( cd "$REPO" && python3 bench/runner.py --bin "$BIN" --pairs "${BENCH_PAIRS:-7}" ) || echo "(bench/runner.py failed)"
fi
say "done"
