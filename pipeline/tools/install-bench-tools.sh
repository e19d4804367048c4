#!/usr/bin/env bash
# Installs what `make bench` uses beside the Swift toolchain: valgrind (instruction counts, which do not
# drift with machine load), binutils (strip), bc and python3. Idempotent and quiet when they are already there. Uses sudo
# only when not root.
set -euo pipefail

say() { printf 'install-bench-tools: %s\n' "$*" >&2; }

missing=()
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
command -v bc >/dev/null 2>&1 || missing+=(bc)
command -v strip >/dev/null 2>&1 || missing+=(binutils)
command -v python3 >/dev/null 2>&1 || missing+=(python3)
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    say "error: ${missing[*]} missing and no apt-get. Install them with your package manager."
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive

run_privileged() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo --preserve-env=DEBIAN_FRONTEND "$@"
    else
        say "error: need root to install ${missing[*]} and sudo is not available."
        exit 1
    fi
}

log="$(mktemp)"
say "installing ${missing[*]}"
if ! { run_privileged apt-get update -qq && run_privileged apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    say "error: apt-get install ${missing[*]} failed (output above)."
    exit 1
fi
rm -f "$log"
