#!/usr/bin/env bash
# Installs what the render tests use to read PDFs back: poppler-utils (pdftotext, pdftoppm).
# Idempotent and quiet when the tools are already there. Uses sudo only when not root.
set -euo pipefail

say() { printf 'install-test-tools: %s\n' "$*" >&2; }

if command -v pdftotext >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    say "error: pdftotext/pdftoppm missing and no apt-get. Install poppler-utils with your package manager."
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive

run_privileged() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo --preserve-env=DEBIAN_FRONTEND "$@"
    else
        say "error: need root to install poppler-utils and sudo is not available."
        exit 1
    fi
}

# Runs apt-get quietly; its output is shown only when it fails.
apt_quiet() {
    local log
    log="$(mktemp)"
    if ! run_privileged apt-get "$@" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        say "error: apt-get $* failed (output above)."
        exit 1
    fi
    rm -f "$log"
}

say "installing poppler-utils"
apt_quiet update -qq
apt_quiet install -y -qq --no-install-recommends poppler-utils
command -v pdftotext >/dev/null 2>&1 || { say "error: pdftotext still missing after installing poppler-utils."; exit 1; }
