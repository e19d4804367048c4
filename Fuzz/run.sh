#!/usr/bin/env bash
# Builds the libFuzzer harnesses (Fuzz/<name>/) with the fuzzer and address sanitizers and runs each
# for FUZZ_SECONDS (default 60) from its committed seed corpus Fuzz/corpus/<name>/. New inputs found
# go to .build-fuzz/corpus/<name>/ (not committed); a crash or hang leaves its input in
# .build-fuzz/artifacts/<name>/ and fails the run. Usage: Fuzz/run.sh [harness ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then harnesses=(csv ical mapping-csv mapping-json envelope yaml spec request); fi
scratch=.build-fuzz
status=0
for name in "${harnesses[@]}"; do
    if [ ! -d "Fuzz/corpus/$name" ]; then echo "Fuzz/run.sh: error: no harness '$name'. Use one of: $(ls Fuzz/corpus | tr '\n' ' ')" >&2; exit 64; fi
    SPORTSTIME_FUZZ=1 swift build --scratch-path "$scratch" -c release \
        -Xswiftc -sanitize=fuzzer,address --product "fuzz-$name" >&2
    binary="$(SPORTSTIME_FUZZ=1 swift build --scratch-path "$scratch" -c release --show-bin-path)/fuzz-$name"
    mkdir -p "$scratch/corpus/$name" "$scratch/artifacts/$name"
    log="$scratch/artifacts/$name/last-run.log"
    echo "== fuzz-$name for ${seconds}s" >&2
    # Swift's own backtracer trips ASan on a crash; let libFuzzer report it instead. Leak checking is
    # off: lazily initialized Swift globals (the harnesses' fixed sources) are reported at exit.
    if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -max_len=65536 \
        -artifact_prefix="$scratch/artifacts/$name/" -print_final_stats=1 \
        "$scratch/corpus/$name" "Fuzz/corpus/$name" >"$log" 2>&1; then
        runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
        echo "fuzz-$name: ok, ${runs:-?} executions, corpus $(ls "$scratch/corpus/$name" | wc -l) new + $(ls "Fuzz/corpus/$name" | wc -l) seeds" >&2
    else
        status=1
        echo "fuzz-$name: FAILED (see $log; crash input in $scratch/artifacts/$name/)" >&2
        grep -E 'ERROR|Fatal error|Precondition|==ERROR' "$log" | head -5 >&2 || true
    fi
done
exit $status
